// Lists fed by a search index (a write shows in lists 1.5 s late, reads by id at once) change no verdict: the whole
// catalogue against the reference server with list lag ends with nothing failed, errored or skipped at MUST, and
// the lag it met is reported as information. The variant with no unnamed defaults (alt-b) is run whole by
// test/self-validation/variants.test.ts.
import { expect, it } from 'vitest'
import { runInProcess } from '../../src/engine/in-process.ts'
import { catalogue } from '../../suites/index.ts'

const LIST_LAG_MS = 1_500

it(`the whole catalogue passes against a server whose lists lag writes by ${LIST_LAG_MS} ms`, async () => {
  const { results, session } = await runInProcess({
    checks: catalogue,
    embedded: { listLagMs: LIST_LAG_MS },
    runId: 'list-lag',
    config: { webhookTimeoutS: 8, concurrency: 12 },
  })
  const worst = results.filter((r) => r.status === 'failed' || r.status === 'error' || (r.status === 'skipped' && r.level === 'MUST'))
  expect(worst.map((r) => `${r.status} ${r.id}: ${r.message}`)).toEqual([])
  expect(session.capabilities['eventually.listLagMs.max']).toBeGreaterThanOrEqual(LIST_LAG_MS - 100)
  expect(results.some((r) => typeof r.observations.listLagMs === 'number')).toBe(true)
}, 180_000)
