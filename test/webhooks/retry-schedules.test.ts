// Issue 38: §6.7 names no retry schedule ("retries for about 3½ days"), so every schedule gets the same verdict.
// A sender whose first retry comes 0 or 100 ms after a non-2xx sends it within the second of the first attempt:
// the same webhook-timestamp, so byte for byte the same request, which the sink answers 503 again; the sender's
// next attempt, signed anew, proves the retry. One whose first retry comes 1.5 s or 5 s later signs it anew at
// once. With CRM_WEBHOOK_RETRY_WAIT_S above the first retry, the retry checks and webhooks.ack.any-2xx pass on each.
import { expect, test } from 'vitest'
import { runInProcess } from '../../src/run/in-process.ts'
import { startReferenceServer } from '../../src/reference/index.ts'
import { catalogue } from '../../suites/index.ts'
import { freePort } from '../free-port.ts'

const JUDGED = catalogue.filter((c) => c.id.startsWith('webhooks.retry.') || c.id === 'webhooks.ack.any-2xx')

/** After the first retry the sender goes on backing off, as a sender retrying for days does. */
const LATER_RETRIES_MS = [1000, 2000, 4000]

test('the checks judged here are the retry checks and the acknowledgement check', () => {
  expect(JUDGED.map((c) => c.id).sort()).toEqual(['webhooks.ack.any-2xx', 'webhooks.retry.arrives', 'webhooks.retry.same-id'])
})

test.concurrent.each([0, 100, 500, 1500, 5000])(
  'a sender whose first retry comes %i ms after a non-2xx passes webhooks.retry.* and webhooks.ack.any-2xx',
  async (firstRetryMs) => {
    const sinkPort = await freePort()
    const reference = await startReferenceServer({
      rateLimitPerMinute: 1_000_000,
      webhook: { url: `http://127.0.0.1:${sinkPort}/`, retrySchedule: [firstRetryMs, ...LATER_RETRIES_MS] },
    })
    try {
      const run = await runInProcess({
        checks: JUDGED,
        config: {
          baseUrl: reference.baseUrl,
          keys: reference.keys,
          restrictedScopes: reference.restrictedScopes,
          fixtures: reference.fixtures,
          webhookSecret: reference.webhookSecret,
          sinkPort,
          webhookTimeoutS: 8,
          webhookRetryWaitS: 8,
        },
        runId: `retry-after-${firstRetryMs}ms`,
      })
      const outcome = Object.fromEntries(run.results.map((r) => [r.id, r.status === 'passed' ? 'passed' : `${r.status}: ${r.message}`]))
      expect(outcome).toEqual(Object.fromEntries(JUDGED.map((c) => [c.id, 'passed'])))
      const delay = run.results.find((r) => r.id === 'webhooks.retry.arrives')!.observations.retryDelayMs as number
      expect(delay).toBeGreaterThanOrEqual(Math.min(firstRetryMs, 1000) - 50)
    } finally {
      await reference.close()
    }
  },
  60_000,
)
