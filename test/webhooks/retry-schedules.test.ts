// Issue 38: §6.7 names no retry schedule ("retries for about 3½ days"), so every schedule gets the same verdict.
// A sender whose first retry comes 0 or 100 ms after a non-2xx sends it within the second of the first attempt:
// the same webhook-timestamp, so byte for byte the same request, which the sink answers 503 again; the sender's
// next attempt, signed anew, proves the retry. One whose first retry comes 1.5 s or 5 s later signs it anew at
// once. With CRM_WEBHOOK_RETRY_WAIT_S above the first retry, the retry checks and webhooks.ack.any-2xx pass on each;
// the faults of those checks fail them at either end of the range; a sender that never signs anew is skipped.
import { expect, test } from 'vitest'
import type { CheckResult } from '../../src/checks/types.ts'
import { startReferenceServer } from '../../src/reference/index.ts'
import { catalogue } from '../../suites/index.ts'
import { freePort } from '../free-port.ts'
import { startTap } from '../hostile/noisy-neighbour.ts'
import { runAgainst } from './run-against.ts'

const JUDGED = catalogue.filter((c) => c.id.startsWith('webhooks.retry.') || c.id === 'webhooks.ack.any-2xx')

/** After the first retry the sender goes on backing off, as a sender retrying for days does. */
const LATER_RETRIES_MS = [1000, 2000, 4000]

test('the checks judged here are the retry checks and the acknowledgement check', () => {
  expect(JUDGED.map((c) => c.id).sort()).toEqual(['webhooks.ack.any-2xx', 'webhooks.retry.arrives', 'webhooks.retry.same-id'])
})

/** The judged checks against a reference server whose first retry comes `firstRetryMs` after a non-2xx, with `faults` on. */
async function judged(firstRetryMs: number, faults: string[] = [], unchanged = false): Promise<CheckResult[]> {
  const sinkPort = await freePort()
  const sinkUrl = `http://127.0.0.1:${sinkPort}/`
  const tap = unchanged ? await startTap(sinkUrl, { unchanged }) : undefined
  const reference = await startReferenceServer({
    rateLimitPerMinute: 1_000_000,
    faults,
    webhook: { url: tap?.url ?? sinkUrl, retrySchedule: [firstRetryMs, ...LATER_RETRIES_MS] },
  })
  try {
    const run = await runAgainst(reference, JUDGED, {
      sinkPort,
      retryWaitS: 8,
      runId: `retry-after-${firstRetryMs}ms${faults.map((f) => `-${f}`).join('')}${unchanged ? '-unchanged' : ''}`,
    })
    return run.results
  } finally {
    await reference.close()
    await tap?.close()
  }
}

const outcomes = (results: CheckResult[]) => Object.fromEntries(results.map((r) => [r.id, r.status === 'passed' ? 'passed' : `${r.status}: ${r.message}`]))

test.concurrent.each([0, 100, 500, 1500, 5000])(
  'a sender whose first retry comes %i ms after a non-2xx passes webhooks.retry.* and webhooks.ack.any-2xx',
  async (firstRetryMs) => {
    const results = await judged(firstRetryMs)
    expect(outcomes(results)).toEqual(Object.fromEntries(JUDGED.map((c) => [c.id, 'passed'])))
    const delay = results.find((r) => r.id === 'webhooks.retry.arrives')!.observations.retryDelayMs as number
    expect(delay).toBeGreaterThanOrEqual(Math.min(firstRetryMs, 1000) - 50)
  },
  60_000,
)

// The faults of the retry checks are caught whatever the schedule: at once (the copies answered as the attempt
// they copy, so a sender retrying a 202 keeps at it until an attempt signed anew shows it) or seconds later.
test.concurrent.each<[string, string, number]>([
  ['webhooks.never-retries', 'webhooks.retry.arrives', 0],
  ['webhooks.never-retries', 'webhooks.retry.arrives', 5000],
  ['webhooks.retry-new-id', 'webhooks.retry.same-id', 0],
  ['webhooks.retry-new-id', 'webhooks.retry.same-id', 5000],
  ['webhooks.ack-200-only', 'webhooks.ack.any-2xx', 0],
  ['webhooks.ack-200-only', 'webhooks.ack.any-2xx', 5000],
])(
  'fault %s fails %s when the first retry comes %i ms after a non-2xx',
  async (fault, check, firstRetryMs) => {
    const results = await judged(firstRetryMs, [fault])
    expect(results.find((r) => r.id === check)!.status).toBe('failed')
    expect(results.filter((r) => r.status === 'failed').map((r) => r.id)).toEqual([check])
  },
  60_000,
)

// A sender that signs a message once and resends the same bytes on every retry cannot be told from anyone
// replaying its attempt: the retry checks skip with the copies counted and how to prove it, and never fail.
test('a sender that retries without signing anew is skipped with the reason, never failed', async () => {
  const results = await judged(1500, [], true)
  const notPassed = results.filter((r) => r.status !== 'passed')
  expect(notPassed.map((r) => [r.id, r.status])).toEqual(JUDGED.map((c) => [c.id, 'skipped']))
  for (const r of notPassed)
    expect(r.message).toMatch(/only \d+ byte-identical cop(y|ies) of that attempt arrived.*raise CRM_WEBHOOK_RETRY_WAIT_S.*sign each attempt anew/)
}, 60_000)
