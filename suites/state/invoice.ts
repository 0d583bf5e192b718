// §3: an invoice is created as a draft and can be replaced only while it is one (§3.1). Invoices cannot be
// deleted (§4.2), so creating one needs the full profile.
import { defineCheck, notCreatedAsDraft, itemPath, replaceRecord, runLabel } from '../../src/checks/index.ts'
import type { CheckDefinition, AnyRecord } from '../../src/checks/index.ts'
import { invoiceReplaceBody, newInvoiceBody, sharedDraftInvoice } from '../shared/drafts.ts'
import { oneOfEachState } from '../shared/states.ts'
import { createdAsDraft } from './created-status.ts'
import { expectRefusedInEveryState } from './refused-write.ts'

const area = 'state'

/** Fields a payment recorded meanwhile (by another check) legitimately moves (§2 invoice paidSen, paidAt). */
export function paymentMoved(before: AnyRecord, after: AnyRecord): string[] {
  return typeof before?.paidSen === 'number' && typeof after?.paidSen === 'number' && after.paidSen > before.paidSen
    ? ['paidSen', 'paidAt', 'status', 'updatedAt']
    : []
}

export const invoiceChecks: CheckDefinition[] = [
  defineCheck({
    id: 'state.invoice.created-draft',
    clauses: ['§3', '§4.2'],
    level: 'MUST',
    area,
    title: 'A created invoice has status draft',
    writes: 'full',
    async run(ctx) {
      const draft = await sharedDraftInvoice(ctx)
      const problem = notCreatedAsDraft('invoice', draft.status)
      if (problem) ctx.fail(problem.message, { expected: problem.expected })
    },
  }),
  defineCheck({
    id: 'state.invoice.replace-draft',
    clauses: ['§3.1', '§4.2'],
    level: 'MUST',
    area,
    title: 'Replacing a draft invoice succeeds and returns the replaced record',
    writes: 'full',
    async run(ctx) {
      const draft = await sharedDraftInvoice(ctx)
      if (draft.status !== 'draft') ctx.skip(`the created invoice has status ${JSON.stringify(draft.status)}, not draft (see state.invoice.created-draft)`)
      const title = runLabel(ctx, 'invoice replaced')
      const res = await replaceRecord(ctx, 'invoice', draft.id, invoiceReplaceBody(draft, { title, paymentTermsDays: 14, terms: 'crmconf replaced terms' }))
      if (!res.ok)
        ctx.fail(`replace of a draft invoice: status is ${res.status}, expected a 2xx (§3.1, §4.2)`, {
          expected: 'a draft invoice can be replaced',
          exchanges: [res.exchange],
        })
      if (res.body?.title !== title)
        ctx.fail(`replace answered ${res.status} but the returned title is ${JSON.stringify(res.body?.title)} (§4.2)`, {
          expected: 'the replaced record, with the title sent',
          exchanges: [res.exchange],
        })
      const after = await ctx.api.get(itemPath('invoice', draft.id))
      if (after.body?.title !== title || after.body?.paymentTermsDays !== 14) {
        ctx.fail(`after the replace, GET shows title ${JSON.stringify(after.body?.title)} and paymentTermsDays ${after.body?.paymentTermsDays} (§3.1)`, {
          expected: `title ${JSON.stringify(title)}, paymentTermsDays 14`,
          exchanges: [res.exchange, after.exchange],
        })
      }
    },
  }),
  defineCheck({
    id: 'state.invoice.replace-non-draft',
    clauses: ['§3.1'],
    level: 'MUST',
    area,
    title: 'Replacing an invoice that is not a draft (sent, paid and each other state found) is refused (4xx) and leaves it unchanged',
    writes: 'safe',
    async run(ctx) {
      await expectRefusedInEveryState(ctx, 'invoice', await oneOfEachState(ctx, 'invoice', ['sentInvoiceId']), (target) => ({
        resource: 'invoice',
        target,
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
