// §6.7: a non-2xx answer leads to retries "for about 3½ days"; §6.4: webhook-id is "unique per event, use to
// ignore repeats", so a retry carries the id of the first attempt. Both state the behaviour: MUST. The sink answers
// the probe's first case.created attempt 503 (probe.ts) and recognises a retry by what only the signer can produce:
// the same webhook-id signed anew (a new webhook-timestamp, or another body, with a signature that verifies). A
// byte-identical copy of the attempt is what anyone who saw it in transit can post, and also what a sender that
// retries within the same second sends: the sink answers it 503 again, so a retrying sender goes on until an attempt
// signed anew proves it. Every schedule thus gets the same verdict: a retry signed anew within the wait passes,
// nothing at all fails, and only copies is "cannot tell" (skipped, with how to prove it), never a failure.
import { defineCheck } from '../../src/checks/index.ts'
import type { CheckContext, CheckDefinition, Delivery } from '../../src/checks/index.ts'
import { summary } from './deliveries.ts'
import { bouncedAttempt, copiesOf, probeRetry, unprovenRetry, watchesDeliveries, type Probe } from './probe.ts'

const area = 'webhooks'

/**
 * The probe's bounced first attempt and the server's retry of it, with the delay between them observed. Both
 * retry checks watch the same retry (probe.ts probeRetry, once per run); without one, a check whose run saw only
 * copies of the attempt skips with the sink's reason, and `noRetry` says what the silence means.
 */
async function retriedAttempt(
  ctx: CheckContext,
  noRetry: (probe: Probe, first: Delivery) => never,
): Promise<{ probe: Probe; first: Delivery; again: Delivery }> {
  const { probe, first } = await bouncedAttempt(ctx)
  const again = await probeRetry(ctx, probe, first)
  if (again === undefined) {
    const unproven = await unprovenRetry(ctx, first)
    if (unproven !== undefined) ctx.skip(unproven)
    return noRetry(probe, first)
  }
  ctx.observe('retryDelayMs', Math.max(0, Date.parse(again.receivedAt) - Date.parse(first.receivedAt)))
  const copies = await copiesOf(ctx, first)
  if (copies > 0) ctx.observe('byteIdenticalCopies', copies)
  return { probe, first, again }
}

export const retryChecks: CheckDefinition[] = [
  defineCheck({
    id: 'webhooks.retry.same-id',
    clauses: ['§6.7', '§6.4'],
    level: 'MUST',
    area,
    title: 'After a non-2xx answer the same event is delivered again under the same webhook-id',
    ...watchesDeliveries(2),
    async run(ctx) {
      const { probe, first, again } = await retriedAttempt(ctx, (_probe, first) =>
        ctx.skip(
          `no retry of case.created within ${ctx.config.webhookRetryWaitS} s of answering ${first.status}; webhooks.retry.arrives judges the silence (raise CRM_WEBHOOK_RETRY_WAIT_S to wait longer)`,
        ),
      )
      if (again.webhookId !== first.webhookId) {
        ctx.fail(
          `the retry of case.created for case ${probe.id} carries webhook-id ${JSON.stringify(again.webhookId)}, the first attempt ${JSON.stringify(first.webhookId)} (§6.4: unique per event, used to ignore repeats)`,
          {
            expected: `the same event delivered again with webhook-id ${JSON.stringify(first.webhookId)} after the sink answered ${first.status}`,
            exchanges: [probe.created.exchange],
            data: { deliveries: [summary(first), summary(again)] },
          },
        )
      }
    },
  }),
  defineCheck({
    id: 'webhooks.retry.arrives',
    clauses: ['§6.7', '§8'],
    level: 'MUST',
    area,
    title: 'After a non-2xx answer the event is delivered again within CRM_WEBHOOK_RETRY_WAIT_S (default 60 s)',
    ...watchesDeliveries(2),
    async run(ctx) {
      // §6.7 states that a non-2xx answer leads to retries but names no schedule: the wait is the user's to set
      // (CRM_WEBHOOK_RETRY_WAIT_S) to cover the server's first retry; a server that never retries fails here.
      await retriedAttempt(ctx, (probe, first) =>
        ctx.fail(
          `nothing at all arrived of case.created for case ${probe.id} within ${ctx.config.webhookRetryWaitS} s of the sink answering ${first.status}: neither a retry nor a copy of the attempt (§6.7: any other response than 2xx leads to retries; raise CRM_WEBHOOK_RETRY_WAIT_S if the server's first retry comes later)`,
          {
            expected: `the same event delivered again within CRM_WEBHOOK_RETRY_WAIT_S (${ctx.config.webhookRetryWaitS} s) of a non-2xx answer`,
            exchanges: [probe.created.exchange],
            data: { firstAttempt: summary(first), waitedS: ctx.config.webhookRetryWaitS },
          },
        ),
      )
    },
  }),
]
