// Issue 17 case 8, issues 32 and 38: someone else posting to the sink's port during a run (forged signatures,
// byte-identical replays of real deliveries, those the sink answered 503 included, timestamps 400 s in the future,
// 50 MiB bodies, slow connections) never makes a webhooks check pass or fail, against a conformant server and
// against one that never retries; the noise is counted.
import { describe, expect, it } from 'vitest'
import type { CheckResult } from '../../src/checks/types.ts'
import { startReferenceServer } from '../../src/reference/index.ts'
import { catalogue } from '../../suites/index.ts'
import { freePort } from '../free-port.ts'
import { runAgainst } from '../webhooks/run-against.ts'
import { startNeighbour, startTap, type NeighbourStats } from './noisy-neighbour.ts'

const WEBHOOK_CHECKS = catalogue.filter((c) => c.area === 'webhooks')

interface WebhooksRun {
  results: CheckResult[]
  stats?: NeighbourStats
}

/** The webhooks area against a reference server of its own, delivering through a tap; with a neighbour if noisy. */
async function webhooksRun(faults: string[], noisy: boolean): Promise<WebhooksRun> {
  const reference = await startReferenceServer({ faults, rateLimitPerMinute: 1_000_000 })
  const sinkPort = await freePort()
  const sinkUrl = `http://127.0.0.1:${sinkPort}/`
  const tap = await startTap(sinkUrl)
  reference.setWebhookTarget(tap.url)
  const neighbour = noisy ? startNeighbour(sinkUrl, tap) : undefined
  try {
    const run = await runAgainst(reference, WEBHOOK_CHECKS, {
      sinkPort,
      retryWaitS: 4,
      runId: `noisy-${noisy}-${faults.join('-') || 'conformant'}`,
    })
    return { results: run.results, stats: neighbour?.stats }
  } finally {
    await neighbour?.stop()
    await tap.close()
    await reference.close()
  }
}

const statuses = (results: CheckResult[]) => Object.fromEntries(results.map((r) => [r.id, r.status]))
const observed = (results: CheckResult[], id: string) => results.find((r) => r.id === id)!.observations

describe('a noisy neighbour posting to the sink during a run', () => {
  // Against a server that never retries, the neighbour's byte-identical copies of the bounced attempt are all that
  // comes: the sink cannot tell them from a sender retrying within the same second (issue 38), so the retry checks
  // skip with that reason. They never pass, and the quiet run, where nothing at all came, fails.
  it.each<[string, string[], Record<string, string>, Record<string, string>]>([
    ['a conformant server', [], {}, {}],
    [
      'a server that never retries',
      ['webhooks.never-retries'],
      { 'webhooks.retry.same-id': 'skipped', 'webhooks.retry.arrives': 'failed', 'webhooks.ack.any-2xx': 'skipped' },
      { 'webhooks.retry.arrives': 'skipped' },
    ],
  ])(
    'changes no webhooks verdict against %s but for "cannot tell" (never a pass), and is counted as noise',
    async (_server, faults, unlike, unlikeWhenNoisy) => {
      const quiet = await webhooksRun(faults, false)
      const noisy = await webhooksRun(faults, true)

      const expected = { ...Object.fromEntries(WEBHOOK_CHECKS.map((c) => [c.id, 'passed'])), ...unlike }
      expect(statuses(quiet.results)).toEqual(expected)
      expect(statuses(noisy.results)).toEqual({ ...expected, ...unlikeWhenNoisy })
      if (unlikeWhenNoisy['webhooks.retry.arrives'] === 'skipped') {
        const arrives = noisy.results.find((r) => r.id === 'webhooks.retry.arrives')!
        expect(arrives.message).toMatch(/only \d+ byte-identical cop(y|ies) of that attempt arrived.*raise CRM_WEBHOOK_RETRY_WAIT_S.*sign each attempt anew/)
      }
      expect(observed(noisy.results, 'webhooks.delivery.signature').deliveries).toBe(observed(quiet.results, 'webhooks.delivery.signature').deliveries)

      const stats = noisy.stats!
      expect(stats.replayed).toBeGreaterThan(0)
      expect(stats.replayedBounced).toBeGreaterThan(0)
      expect(stats.huge).toBe(2)
      const noise = observed(noisy.results, 'webhooks.sink.noise').noiseByReason as Record<string, number>
      expect(noise.bad_signature).toBeGreaterThanOrEqual(stats.forged)
      expect(noise.replayed_id).toBeGreaterThan(0)
      expect(noise.future_timestamp).toBeGreaterThan(0)
      expect(noise.too_large).toBe(2)
    },
    120_000,
  )
})
