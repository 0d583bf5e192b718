// §6.7: a non-2xx answer leads to retries "for about 3½ days"; §6.4: webhook-id is "unique per event, use to
// ignore repeats", so a retry carries the id of the first attempt. The sink answers the probe's first
// case.created attempt 503 (probe.ts) and recognises a retry by the server's behaviour: the same webhook-id
// again after that non-2xx answer, signed with the secret (a copy of an attempt answered 2xx is a replay that
// anyone could post, set aside as noise by the sink). Only a copy of the very attempt answered 503, posted by
// someone who captured it in transit, could still pass for a retry: the server may legally resend it byte for byte.
import { defineCheck } from '../../src/checks/index.ts'
import type { CheckContext, CheckDefinition, Delivery } from '../../src/checks/index.ts'
import { summary } from './deliveries.ts'
import { probeCase, probeDelivery, probeRetry, waitBudgetMs, type Probe } from './probe.ts'

const area = 'webhooks'

/** The probe's first attempt, when a retry of it is due and can be told; skips the check otherwise. */
async function bouncedAttempt(ctx: CheckContext): Promise<{ probe: Probe; first: Delivery }> {
  const probe = await probeCase(ctx)
  const first = await probeDelivery(ctx, probe)
  if (first === undefined)
    ctx.skip(
      `no case.created delivery for the probe case ${probe.id} within ${ctx.config.webhookTimeoutS} s, so no retry to watch (webhooks.case.created judges that)`,
    )
  if (first.status < 300) ctx.skip(`the sink answered the first case.created delivery ${first.status}, so no retry is due`)
  if (!first.authentic) {
    ctx.skip(
      `the first case.created delivery is not signed with the secret (${first.reason}), so a retry could not be told from anyone's copy (webhooks.delivery.signature judges the signature)`,
    )
  }
  return { probe, first }
}

export const retryChecks: CheckDefinition[] = [
  defineCheck({
    id: 'webhooks.retry.same-id',
    clauses: ['§6.7', '§6.4'],
    level: 'SHOULD',
    area,
    title: 'After a non-2xx answer the same event is delivered again under the same webhook-id',
    writes: 'safe',
    webhooks: true,
    timeoutMs: waitBudgetMs(2),
    async run(ctx: CheckContext) {
      const { probe, first } = await bouncedAttempt(ctx)
      const again = await probeRetry(ctx, probe, first)
      if (again === undefined) {
        ctx.skip(
          `no retry of case.created within ${ctx.config.webhookRetryWaitS} s of answering ${first.status}; §6.7 retries over about 3½ days, so a later retry is legal (webhooks.retry.arrives reports the silence; raise CRM_WEBHOOK_RETRY_WAIT_S to wait longer)`,
        )
      }
      ctx.observe('retryDelayMs', Math.max(0, Date.parse(again.receivedAt) - Date.parse(first.receivedAt)))
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
    level: 'SHOULD',
    area,
    title: 'After a non-2xx answer the event is delivered again within CRM_WEBHOOK_RETRY_WAIT_S (default 60 s)',
    writes: 'safe',
    webhooks: true,
    timeoutMs: waitBudgetMs(2),
    async run(ctx: CheckContext) {
      const { probe, first } = await bouncedAttempt(ctx)
      const again = await probeRetry(ctx, probe, first)
      if (again === undefined) {
        // §6.7 names no schedule, so silence is not a MUST failure (webhooks.retry.same-id skips); but a first
        // retry later than a minute leaves a receiver that was briefly down without the event for that long.
        ctx.fail(
          `no retry of case.created for case ${probe.id} within ${ctx.config.webhookRetryWaitS} s of the sink answering ${first.status} (§6.7: any other response than 2xx leads to retries)`,
          {
            expected: `the same event delivered again within CRM_WEBHOOK_RETRY_WAIT_S (${ctx.config.webhookRetryWaitS} s) of a non-2xx answer`,
            exchanges: [probe.created.exchange],
            data: { firstAttempt: summary(first), waitedS: ctx.config.webhookRetryWaitS },
          },
        )
      }
      ctx.observe('retryDelayMs', Math.max(0, Date.parse(again.receivedAt) - Date.parse(first.receivedAt)))
    },
  }),
]
