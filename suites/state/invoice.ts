// §3: an invoice is created as a draft and can be replaced only while it is one (§3.1). Invoices cannot be
// deleted (§4.2), so creating one needs the full profile.
import { defineCheck, replaceRecord } from '../../src/checks/index.ts'
import type { CheckDefinition, AnyRecord } from '../../src/checks/index.ts'
import { invoiceReplaceBody, newInvoiceBody } from '../shared/drafts.ts'
import { oneOfEachState } from '../shared/states.ts'
import { createdAsDraft } from './created-status.ts'
import { createdDraft, replaceDraft } from './draft-writes.ts'
import { expectRefusedInEveryState } from './refused-write.ts'

const area = 'state'

/** Fields a payment recorded meanwhile (by another check) legitimately moves (§2 invoice paidSen, paidAt). */
export function paymentMoved(before: AnyRecord, after: AnyRecord): string[] {
  return typeof before?.paidSen === 'number' && typeof after?.paidSen === 'number' && after.paidSen > before.paidSen
    ? ['paidSen', 'paidAt', 'status', 'updatedAt']
    : []
}

export const invoiceChecks: CheckDefinition[] = [
  defineCheck(createdDraft('invoice')),
  defineCheck(replaceDraft('invoice')),
  defineCheck({
    id: 'state.invoice.replace-non-draft',
    clauses: ['§3.1'],
    level: 'MUST',
    area,
    title: 'Replacing an invoice that is not a draft (sent, paid and each other state found) is refused (4xx) and leaves it unchanged',
    writes: 'safe',
    async run(ctx) {
      await expectRefusedInEveryState(ctx, 'invoice', await oneOfEachState(ctx, 'invoice', ['sentInvoiceId']), (target) => ({
        op: 'replace',
        clause: '§3.1',
        body: (before) => invoiceReplaceBody(before),
        send: (body) => replaceRecord(ctx, 'invoice', target.id, body!),
        tolerate: paymentMoved,
      }))
    },
  }),
  defineCheck({
    id: 'state.invoice.create-status-ignored',
    clauses: ['§3', '§4.2', '§4.4'],
    level: 'MUST',
    area,
    title: 'An invoice created with status "paid" in its body is a draft all the same (or the body is refused)',
    // Invoices cannot be deleted (§4.2): one per run, full profile.
    writes: 'full',
    async run(ctx) {
      await createdAsDraft(ctx, 'invoice', ['paid'], () => newInvoiceBody(ctx))
    },
  }),
]
