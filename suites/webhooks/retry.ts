// §6.7: a non-2xx answer leads to retries "for about 3½ days"; §6.4: webhook-id is "unique per event, use to
// ignore repeats", so a retry carries the id of the first attempt. The sink answers the probe's first
// case.created attempt 503 (probe.ts). A retry later than CRM_WEBHOOK_TIMEOUT_S is legal: skipped, not failed;
// a retry under a new webhook-id fails, since receivers would take it for a new event.
import { defineCheck } from '../../src/checks/define.ts'
import type { CheckContext, CheckDefinition } from '../../src/checks/types.ts'
import { carries, summary } from './deliveries.ts'
import { probeCase, probeDelivery, timeoutMs, waitBudgetMs } from './probe.ts'

export const retryChecks: CheckDefinition[] = [
  defineCheck({
    id: 'webhooks.retry.same-id',
    clauses: ['§6.7', '§6.4'],
    level: 'SHOULD',
    area: 'webhooks',
    title: 'After a non-2xx answer the same event is delivered again under the same webhook-id',
    writes: 'safe',
    webhooks: true,
    timeoutMs: waitBudgetMs(2),
    async run(ctx: CheckContext) {
      const sink = await ctx.session.sink()
      const probe = await probeCase(ctx)
      const first = await probeDelivery(ctx, probe)
      if (first === undefined) ctx.skip(`no case.created delivery for the probe case ${probe.id} within ${ctx.config.webhookTimeoutS} s, so no retry to watch (webhooks.case.created judges that)`)
      if (first.status < 300) ctx.skip(`the sink answered the first case.created delivery ${first.status}, so no retry is due`)
      const again = await sink.waitFor((d) => d.seq > first.seq && carries(d, 'case.created', probe.id), timeoutMs(ctx))
      if (again === undefined) {
        ctx.skip(`no second case.created delivery within ${ctx.config.webhookTimeoutS} s of answering ${first.status}; §6.7 retries over about 3½ days, so a later retry is legal (raise CRM_WEBHOOK_TIMEOUT_S to wait longer)`)
      }
      ctx.observe('retryDelayMs', Math.max(0, Date.parse(again.receivedAt) - Date.parse(first.receivedAt)))
      if (again.webhookId !== first.webhookId) {
        ctx.fail(`the retry of case.created for case ${probe.id} carries webhook-id ${JSON.stringify(again.webhookId)}, the first attempt ${JSON.stringify(first.webhookId)} (§6.4: unique per event, used to ignore repeats)`, {
          expected: `the same event delivered again with webhook-id ${JSON.stringify(first.webhookId)} after the sink answered ${first.status}`,
          exchanges: [probe.created.exchange],
          data: { deliveries: [summary(first), summary(again)] },
        })
      }
    },
  }),
]
