// §6.7: a non-2xx answer leads to retries "for about 3½ days"; §6.4: webhook-id is "unique per event, use to
// ignore repeats", so a retry carries the id of the first attempt. Both state the behaviour: MUST. The sink answers
// the probe's first case.created attempt 503 (probe.ts) and recognises a retry by what only the signer can produce:
// the same webhook-id signed anew (a new webhook-timestamp, or another body, with a signature that verifies). A
// byte-identical copy of the attempt is what anyone who saw it in transit can post, so it never counts as a retry:
// a server that resends unchanged cannot be told from such a replay, and the checks say so rather than pass.
import { defineCheck } from '../../src/checks/index.ts'
import type { CheckContext, CheckDefinition, Delivery } from '../../src/checks/index.ts'
import { summary } from './deliveries.ts'
import { bouncedAttempt, probeRetry, watchesDeliveries, type Probe } from './probe.ts'

const area = 'webhooks'

/** What the sink saw of byte-identical copies of the first attempt, for a message about a retry that did not come. */
async function copiesSeen(ctx: CheckContext, first: Delivery): Promise<string> {
  const copies = first.webhookId === undefined ? 0 : (await ctx.session.sink()).copiesOf(first.webhookId)
  if (copies === 0) return ''
  return `; ${copies} byte-identical cop${copies === 1 ? 'y' : 'ies'} of the first attempt arrived, which the sink cannot tell from a replay by anyone who saw it (a retry is signed anew: a current webhook-timestamp, Standard Webhooks)`
}

/**
 * The probe's bounced first attempt and the server's retry of it, with the delay between them observed. Both
 * retry checks watch the same retry (probe.ts probeRetry, once per run); `noRetry` is what each makes of its
 * absence, given the sink's word on byte-identical copies.
 */
async function retriedAttempt(
  ctx: CheckContext,
  noRetry: (probe: Probe, first: Delivery, copies: string) => never,
): Promise<{ probe: Probe; first: Delivery; again: Delivery }> {
  const { probe, first } = await bouncedAttempt(ctx)
  const again = await probeRetry(ctx, probe, first)
  if (again === undefined) return noRetry(probe, first, await copiesSeen(ctx, first))
  ctx.observe('retryDelayMs', Math.max(0, Date.parse(again.receivedAt) - Date.parse(first.receivedAt)))
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
      const { probe, first, again } = await retriedAttempt(ctx, (_probe, first, copies) =>
        ctx.skip(
          `no retry of case.created within ${ctx.config.webhookRetryWaitS} s of answering ${first.status}${copies}; webhooks.retry.arrives judges the silence (raise CRM_WEBHOOK_RETRY_WAIT_S to wait longer)`,
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
      await retriedAttempt(ctx, (probe, first, copies) =>
        ctx.fail(
          `no retry of case.created for case ${probe.id} within ${ctx.config.webhookRetryWaitS} s of the sink answering ${first.status}${copies} (§6.7: any other response than 2xx leads to retries; raise CRM_WEBHOOK_RETRY_WAIT_S if the server's first retry comes later)`,
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
