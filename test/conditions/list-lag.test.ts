// The whole suite under lists showing a write 1.5 s late (src/selfcheck/conditions.ts); the lag it met is
// reported as information. The variant with no unnamed defaults (alt-b) runs whole in
// test/self-validation/variants.test.ts.
import { expect } from 'vitest'
import { conditionTest } from './harness.ts'

conditionTest('list-lag', ({ run }) => {
  expect(run.session.capabilities['eventually.listLagMs.max']).toBeGreaterThanOrEqual(1_400)
  expect(run.results.some((r) => typeof r.observations.listLagMs === 'number')).toBe(true)
})
