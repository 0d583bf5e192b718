// §6.2 names two event kinds, case.created and invoice.paid, but not which operation emits them (§6 gaps):
// SHOULD, with the generous wait of CRM_WEBHOOK_TIMEOUT_S. Only deliveries about the run's own records
// count, so events of other records or workspaces never decide anything. A delivery the sink refused (a bad
// signature…) still shows the event was emitted: the delivery rules are judged by their own checks.
import { defineCheck, createRecord } from '../../src/checks/index.ts'
import type { CheckContext, CheckDefinition, Delivery } from '../../src/checks/index.ts'
import { payInTurn, paymentBody } from '../shared/invoice-payment.ts'
import { carries, kindOf, tally } from './deliveries.ts'
import { probeCase, probeDelivery, timeoutMs, waitBudgetMs, watchesDeliveries } from './probe.ts'

const area = 'webhooks'

function observeDelivery(ctx: CheckContext, d: Delivery, since: number): void {
  ctx.observe('delayMs', Math.max(0, Date.parse(d.receivedAt) - since))
  ctx.observe('webhookId', d.webhookId)
  if (d.verdict === 'rejected') ctx.note(`the delivery was refused by the sink (${d.reason}: ${d.detail}); the webhooks.delivery.* checks judge that`)
}

/** What the sink saw, for a failure: the kinds delivered, or a hint when nothing reached it at all. */
async function sinkSummary(ctx: CheckContext): Promise<{ hint: string; data: Record<string, unknown> }> {
  const sink = await ctx.session.sink()
  const hint = sink.deliveries.length === 0 ? `; no delivery at all reached the sink at ${sink.url}: is the endpoint's URL set to it?` : ''
  return { hint, data: { sink: sink.url, deliveryKindsSeen: tally(sink.deliveries.map(kindOf)) } }
}

export const correlationChecks: CheckDefinition[] = [
  defineCheck({
    id: 'webhooks.case.created',
    clauses: ['§6.2', '§6.3'],
    level: 'SHOULD',
    area,
    title: 'Creating a case through the API delivers case.created whose data.id is the new case',
    ...watchesDeliveries(1),
    async run(ctx) {
      const probe = await probeCase(ctx)
      const delivery = await probeDelivery(ctx, probe)
      if (delivery === undefined) {
        const seen = await sinkSummary(ctx)
        return ctx.fail(`no case.created delivery with data.id ${probe.id} within ${ctx.config.webhookTimeoutS} s of creating the case (§6.2)${seen.hint}`, {
          expected: 'a case.created event for the case just created, delivered to the configured endpoint',
          exchanges: [probe.created.exchange],
          data: seen.data,
        })
      }
      observeDelivery(ctx, delivery, probe.at)
    },
  }),
  defineCheck({
    id: 'webhooks.invoice.paid',
    clauses: ['§6.2', '§6.3'],
    level: 'SHOULD',
    area,
    title: 'Paying a sent invoice in full delivers invoice.paid whose data.id is that invoice',
    // Payments cannot be deleted (§4.2).
    writes: 'full',
    webhooks: true,
    timeoutMs: waitBudgetMs(1),
    // It pays the invoice in full: the part payments of the state and idempotency areas come first.
    after: ['state.payment.raises-paid', 'idempotency.payment.replays'],
    async run(ctx) {
      const sink = await ctx.session.sink()
      // Another area pays part of the same invoice: this payment takes its turn (shared/invoice-payment.ts).
      const { target, payment, paidAt } = await payInTurn(ctx, 1, async (invoice) => {
        const body = paymentBody(ctx, invoice, invoice.balance, 'payment', 'pays the balance (§6.2 invoice.paid)')
        const { response } = await createRecord(ctx, 'payment', body, { validate: false })
        return { target: invoice.target, payment: response, paidAt: Date.now() }
      })
      const delivery = await sink.waitFor((d) => carries(d, 'invoice.paid', target.id), timeoutMs(ctx))
      if (delivery === undefined) {
        const seen = await sinkSummary(ctx)
        return ctx.fail(`no invoice.paid delivery with data.id ${target.id} within ${ctx.config.webhookTimeoutS} s of paying its balance (§6.2)${seen.hint}`, {
          expected: 'an invoice.paid event for the invoice just paid in full, delivered to the configured endpoint',
          exchanges: [payment.exchange],
          data: seen.data,
        })
      }
      observeDelivery(ctx, delivery, paidAt)
    },
  }),
]
