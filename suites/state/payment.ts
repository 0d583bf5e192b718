// §2 invoice `paidSen` is "paid so far": recording a payment against an invoice (§4.2) raises it by the amount.
// Payments cannot be deleted (§4.2): full profile. The payment here is partial on purpose, so the seeded
// invoice stays open for the webhook area, which pays it in full to see `invoice.paid` (§6.2).
import { defineCheck, expectRecord, createRecord } from '../../src/checks/index.ts'
import type { CheckDefinition } from '../../src/checks/index.ts'
import { payInTurn, paymentBody, readAfterPayment } from '../shared/invoice-payment.ts'

const area = 'state'

/** The part payment made here: the smallest amount (1 sen, §1.4), so a sent invoice serves many runs' rule. */
const PART_PAYMENT_SEN = 1

export const paymentChecks: CheckDefinition[] = [
  defineCheck({
    id: 'state.payment.raises-paid',
    clauses: ['§2', '§4.2'],
    level: 'MUST',
    area,
    title: "A payment recorded against an invoice raises the invoice's paidSen by its amount",
    writes: 'full',
    // The restricted key's payment names the same invoice, which must still take one (§5.6 is judged by the answer).
    after: ['auth.scope.payment.write'],
    async run(ctx) {
      const { before, payment, amount, after } = await payInTurn(ctx, 2, async (invoice) => {
        const amount = Math.min(PART_PAYMENT_SEN, invoice.balance - 1)
        const { response: payment } = await createRecord(ctx, 'payment', paymentBody(ctx, invoice, amount, 'payment', 'part payment'), { validate: false })
        return { before: invoice.before, payment, amount, after: await readAfterPayment(ctx, invoice) }
      })
      expectRecord(after, '§4.2')
      ctx.observe('invoice.status', { before: before.body.status, after: after.body.status })
      const expected = before.body.paidSen + amount
      if (after.body.paidSen !== expected) {
        ctx.fail(
          `paidSen went from ${before.body.paidSen} to ${JSON.stringify(after.body.paidSen)} after a payment of ${amount}, expected ${expected} (§2 "paid so far")`,
          {
            expected: 'paidSen raised by the amount of the payment',
            exchanges: [before.exchange, payment.exchange, after.exchange],
          },
        )
      }
    },
  }),
]
