// Issue 38: QA's nightly run against one staging server whose webhook sender retries only several seconds after a
// non-2xx (§6.7 names no schedule). Three nights in a row against one kept alt-f server (first retry after 4 s),
// every key and a fixture pool: compliant each night, nothing skipped, the retry proven each night. Its own file,
// so vitest runs it beside three-nights.test.ts (alt-d: a sender that retries at once).
import { afterAll, beforeAll, test } from 'vitest'
import { catalogue } from '../../suites/index.ts'
import { expectCompliant, keepServer, threeNightPools, type KeptServer } from './serve-once.ts'

let kept: KeptServer
beforeAll(async () => {
  kept = await keepServer({ variant: 'alt-f' })
})
afterAll(async () => {
  await kept?.close()
})

test('three nights against one kept server whose sender retries only after several seconds: compliant each night, nothing skipped', async () => {
  const env = threeNightPools(kept.server)
  for (const night of [1, 2, 3]) expectCompliant((await kept.night(night, catalogue, { env })).report, night)
}, 300_000)
