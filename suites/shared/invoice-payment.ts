// Payments against the run's sent invoice (§4.2 "record a payment"), which three areas make: the state area pays 1
// sen and reads paidSen rise, the idempotency area retries a payment of 1, the webhook area pays the rest to see
// invoice.paid (§6.2). Each pays in the invoice's turn (exclusive.ts) against a fresh read, so none judges a
// paidSen that another moved meanwhile; payments cannot be deleted (§4.2), so every one needs the full profile.
import { expectRecord, itemPath, readUntil, runLabel } from '../../src/checks/index.ts'
import type { AnyRecord, ApiResponse, CheckContext } from '../../src/checks/index.ts'
import { dateIn } from './drafts.ts'
import { exclusive, recordLock } from './exclusive.ts'
import { sentInvoiceWithBalance, type Found } from './fixtures.ts'

/** The sent invoice as read in its turn, just before the payment. */
export interface Payable {
  target: Found
  path: string
  before: ApiResponse
  /** totalSen − paidSen of that read. */
  balance: number
}

/**
 * Runs `pay` in the sent invoice's turn, after a fresh read shows it still takes a payment of `atLeastSen`: sent
 * (not a draft), not void, that much outstanding. Skips, naming the variable, when it does not.
 */
export async function payInTurn<T>(ctx: CheckContext, atLeastSen: number, pay: (invoice: Payable) => Promise<T>): Promise<T> {
  const target = await sentInvoiceWithBalance(ctx, atLeastSen)
  const path = itemPath('invoice', target.id)
  return exclusive(ctx.session, recordLock('invoice', target.id), async () => {
    const before = await ctx.api.get(path)
    if (before.status === 404) ctx.skip(`${target.variable}: GET ${path} answered 404`)
    expectRecord(before, '§4.2')
    const invoice = before.body
    if (invoice.status === 'draft') ctx.skip(`invoice ${target.id} is a draft; set ${target.variable} to a sent invoice`)
    if (invoice.voidedAt != null) ctx.skip(`invoice ${target.id} is void; set ${target.variable} to a sent invoice`)
    const balance = invoice.totalSen - invoice.paidSen
    if (!(balance >= atLeastSen))
      ctx.skip(`invoice ${target.id} has ${balance} outstanding, this payment needs ${atLeastSen}; set ${target.variable} to a sent invoice with a balance`)
    return pay({ target, path, before, balance })
  })
}

/** The payment body the probes send: `amountSen` against the invoice, dated today, labelled with the run. */
export function paymentBody(ctx: CheckContext, invoice: Payable, amountSen: number, label: string, note: string): AnyRecord {
  return {
    invoiceId: invoice.target.id,
    amountSen,
    method: 'other',
    paidOn: dateIn(0),
    reference: runLabel(ctx, label),
    note: `crmconf conformance run: ${note}`,
  }
}

/** The invoice read again after a payment: the store may update it just after, so until paidSen moves, within its lag. */
export async function readAfterPayment(ctx: CheckContext, invoice: Payable): Promise<ApiResponse> {
  const { answer } = await readUntil(
    ctx,
    () => ctx.api.get(invoice.path),
    (r) => r.body?.paidSen !== invoice.before.body.paidSen,
    { lag: 'paidSenLagMs' },
  )
  return answer
}
