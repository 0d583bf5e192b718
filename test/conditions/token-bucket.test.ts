// The whole suite with the main key limited to 600 a minute by a token bucket (src/selfcheck/conditions.ts).
// The run sends more than 600 requests on that key, so the pacing is exercised, not merely unneeded.
import { expect } from 'vitest'
import { requestsByArea } from '../../src/engine/stats.ts'
import { conditionTest } from './harness.ts'

conditionTest('token-bucket', ({ run }) => {
  const stats = run.session.transport.stats
  expect(stats.byKey.main).toBeGreaterThan(600)
  // The main key's responses carried the limit the pacer worked from.
  expect(run.session.transport.pacerFor('main').snapshot.limit).toBe(600)
  // Requests per area, as the report shows them, add up to every request of the run.
  const byArea = requestsByArea(run.session.exchanges)
  expect(Object.values(byArea).reduce((a, b) => a + b, 0)).toBe(stats.total)
})
