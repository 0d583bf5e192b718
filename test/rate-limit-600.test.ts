// §8: a full run against a main key limited to 600 requests a minute (the spec's default) meets no 429 on
// that key: the pacer reads the RateLimit-* headers and spaces the requests once the quota runs low. The run
// sends more than 600 requests, so the pacing is exercised, not merely unneeded.
import { expect, test } from 'vitest'
import { catalogue } from '../suites/index.ts'
import { runInProcess } from '../src/engine/in-process.ts'
import { requestsByArea } from '../src/engine/stats.ts'

test('a full run with the main key limited to 600 a minute meets no 429 on the main key', async () => {
  const started = performance.now()
  const run = await runInProcess({ checks: catalogue, embedded: { rateLimitPerMinute: 600 } })
  const stats = run.session.transport.stats
  const byArea = requestsByArea(run.session.exchanges)
  console.log(`rate limit 600: ${stats.byKey.main} requests on the main key, ${stats.total} in all, in ${Math.round((performance.now() - started) / 1000)} s; by area ${JSON.stringify(byArea)}; 429s ${JSON.stringify(stats.rateLimited)}`)

  expect(stats.rateLimited.main ?? 0).toBe(0)
  // More than the limit was sent on the main key: the run had to be paced to get here.
  expect(stats.byKey.main).toBeGreaterThan(600)
  // The main key's responses carried the limit the pacer worked from.
  expect(run.session.transport.pacerFor('main').snapshot.limit).toBe(600)
  // No check errored for want of quota, and the run's own verdict is unaffected.
  expect(run.results.filter((r) => r.status === 'error').map((r) => `${r.id}: ${r.message}`)).toEqual([])
  // A paced run is still a run against a conformant server: pacing must not turn into a false failure.
  expect(run.results.filter((r) => r.status === 'failed' && r.level !== 'INFO').map((r) => `${r.id}: ${r.message}`)).toEqual([])
  // Requests per area, as the report shows them, add up to every request of the run.
  expect(Object.values(byArea).reduce((a, b) => a + b, 0)).toBe(stats.total)
  expect(Object.keys(byArea)).toEqual(expect.arrayContaining(['records', 'rate-limits']))
}, 300_000)
