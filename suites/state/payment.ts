// §2 invoice `paidSen` is "paid so far": recording a payment against an invoice (§4.2) raises it by the amount.
// Payments cannot be deleted (§4.2): full profile. The payment here is partial on purpose, so the seeded
// invoice stays open for the webhook area, which pays it in full to see `invoice.paid` (§6.2).
import { defineCheck, expectRecord, createRecord, itemPath, runLabel, readUntil } from '../../src/checks/index.ts'
import type { CheckDefinition } from '../../src/checks/index.ts'
import { dateIn } from '../shared/drafts.ts'
import { exclusive, recordLock } from '../shared/exclusive.ts'
import { sentInvoiceWithBalance } from '../shared/fixtures.ts'

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
      const target = await sentInvoiceWithBalance(ctx, 2)
      const path = itemPath('invoice', target.id)
      const { before, payment, amount, after } = await exclusive(ctx.session, recordLock('invoice', target.id), async () => {
        const before = await ctx.api.get(path)
        if (before.status === 404) ctx.skip(`${target.variable}: GET ${path} answered 404`)
        expectRecord(before, '§4.2')
        const invoice = before.body
        if (invoice.status === 'draft') ctx.skip(`invoice ${target.id} is a draft; set ${target.variable} to a sent invoice`)
        if (invoice.voidedAt != null) ctx.skip(`invoice ${target.id} is void; set ${target.variable} to a sent invoice`)
        const balance = invoice.totalSen - invoice.paidSen
        if (!(balance >= 2))
          ctx.skip(`invoice ${target.id} has ${balance} outstanding; a part payment needs at least 2; set ${target.variable} to an invoice with a balance`)
        const amount = Math.min(PART_PAYMENT_SEN, balance - 1)
        const { response: payment } = await createRecord(
          ctx,
          'payment',
          {
            invoiceId: target.id,
            amountSen: amount,
            method: 'other',
            paidOn: dateIn(0),
            reference: runLabel(ctx, 'payment'),
            note: 'crmconf conformance run: part payment',
          },
          { validate: false },
        )
        // The invoice may be updated just after the payment is stored: read it again within the window if unchanged.
        const { answer: after } = await readUntil(
          ctx,
          () => ctx.api.get(path),
          (r) => r.body?.paidSen !== invoice.paidSen,
          { lag: 'paidSenLagMs' },
        )
        return { before, payment, amount, after }
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
