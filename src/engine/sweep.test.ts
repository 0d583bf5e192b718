import { describe, expect, it } from 'vitest'
import { ApiClient } from '../http/api-client.ts'
import { Redactor } from '../http/redact.ts'
import { Transport } from '../http/transport.ts'
import { startReferenceServer } from '../reference/index.ts'
import { RUN_TAG_PREFIX } from './session.ts'
import { parseDuration, runIdOf, runIdTime, sweep } from './sweep.ts'

describe('sweep markers', () => {
  it('reads the run id from a run tag or a run label, and nothing else', () => {
    expect(runIdOf('account', { tags: ['vip', 'crmconf-run-20261122-053212-a1b2c3'] })).toBe('20261122-053212-a1b2c3')
    expect(runIdOf('lead', { fullName: 'crmconf lead 20261122-053212-a1b2c3 x1y2' })).toBe('20261122-053212-a1b2c3')
    expect(runIdOf('account', { tags: ['crmconf-run-manual'] })).toBeUndefined()
    expect(runIdOf('lead', { fullName: 'Jane 20261122-053212-a1b2c3' })).toBeUndefined()
    expect(runIdOf('account', { name: 'crmconf account 20261122-053212-a1b2c3' })).toBeUndefined()
  })
  it('dates a run id and parses durations', () => {
    expect(runIdTime('20261122-053212-a1b2c3')).toBe(Date.parse('2026-11-22T05:32:12Z'))
    expect(parseDuration('6h')).toBe(21_600_000)
    expect(() => parseDuration('soon')).toThrow()
  })
})

describe('sweep against the reference server', () => {
  it("removes what is old enough, or only one run's records, and never a record without its marker", async () => {
    const server = await startReferenceServer({ rateLimitPerMinute: 1_000_000 })
    const transport = new Transport({
      baseUrl: server.baseUrl,
      keys: { main: server.keys.main },
      redactor: new Redactor(),
      timeoutMs: 10_000,
      maxResponseBytes: 16 * 1024 * 1024,
      concurrency: 4,
      requestBudget: 10_000,
      maxRetryAfterS: 90,
    })
    const client = new ApiClient(transport, 'main', () => {})
    const account = async (tags: string[]) => String(((await client.post('/accounts', { name: `sweep ${tags.join(' ')}`, tags })).body as { id: string }).id)
    try {
      const [oldRun, otherRun, current] = ['20200101-000000-aaaaaa', '20200102-000000-bbbbbb', '20200103-000000-cccccc']
      const ids = {
        oldRun: await account([`${RUN_TAG_PREFIX}${oldRun}`]),
        otherRun: await account(['vip', `${RUN_TAG_PREFIX}${otherRun}`]),
        current: await account([`${RUN_TAG_PREFIX}${current}`]),
        foreignTag: await account(['crmconf-run-manual']),
        untagged: await account([]),
      }
      const now = Date.parse('2020-01-03T12:00:00Z')

      const only = await sweep(transport, { olderThanMs: 0, onlyRunId: otherRun, now })
      expect(only.removed.map((r) => r.id)).toEqual([ids.otherRun])

      const dry = await sweep(transport, { olderThanMs: 36 * 3_600_000, dryRun: true, now })
      expect(dry.removed.map((r) => r.id)).toEqual([ids.oldRun])

      const aged = await sweep(transport, { olderThanMs: 0, exceptRunId: current, now })
      expect(aged.removed.map((r) => r.id)).toEqual([ids.oldRun])

      const left = await Promise.all(Object.values(ids).map(async (id) => (await client.get(`/accounts/${id}`)).status))
      expect(left).toEqual([404, 404, 200, 200, 200])
    } finally {
      await transport.close()
      await server.close()
    }
  }, 60_000)
})
