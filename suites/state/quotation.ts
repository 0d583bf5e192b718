// §3: a quotation is created as a draft, and can be replaced or deleted only while it is one (§3.1).
import { defineCheck, createRecord, deleteRecord, itemPath, replaceRecord } from '../../src/checks/index.ts'
import type { CheckContext, CheckDefinition } from '../../src/checks/index.ts'
import { draftOrSkip, newQuotationBody, quotationReplaceBody } from '../shared/drafts.ts'
import type { Found } from '../shared/fixtures.ts'
import { oneOfEachState } from '../shared/states.ts'
import { createdAsDraft } from './created-status.ts'
import { createdDraft, replaceDraft } from './draft-writes.ts'
import { expectRefusedInEveryState, type RefusedWrite } from './refused-write.ts'

const area = 'state'

/**
 * §3.1: `write` (a replace or a delete), sent to a quotation of each non-draft state (sent and accepted from the
 * fixtures, others, declined…, as listed), is refused and leaves the quotation as it was.
 */
async function expectRefusedUnlessDraft(ctx: CheckContext, write: (target: Found) => Omit<RefusedWrite, 'resource' | 'target' | 'clause'>): Promise<void> {
  const targets = await oneOfEachState(ctx, 'quotation', ['sentQuotationId', 'acceptedQuotationId'])
  await expectRefusedInEveryState(ctx, 'quotation', targets, (target) => ({ clause: '§3.1', ...write(target) }))
}

/** The order checks create the accepted quotation's order, which may move the quotation on (§3 transitions not shown). */
const AFTER_ORDER = ['state.order.from-accepted', 'state.order.second-refused', 'state.order.follows-quotation', 'idempotency.order.replays']

export const quotationChecks: CheckDefinition[] = [
  defineCheck(createdDraft('quotation')),
  defineCheck(
    replaceDraft('quotation', (ctx, draft, after) => {
      // A quotation carries a version (§2): whether the replace moved it is reported, with the status it left.
      ctx.observe('versionBeforeAndAfter', [draft.version, after.body?.version])
      ctx.observe('statusAfterReplace', after.body?.status)
    }),
  ),
  defineCheck({
    id: 'state.quotation.delete-draft',
    clauses: ['§3.1', '§4.2'],
    level: 'MUST',
    area,
    title: 'Deleting a draft quotation succeeds, and the quotation is gone (404)',
    writes: 'safe',
    async run(ctx) {
      const { record: created } = await createRecord(ctx, 'quotation', newQuotationBody(ctx), { validate: false })
      const record = draftOrSkip(ctx, 'quotation', created)
      const res = await deleteRecord(ctx, 'quotation', record.id)
      if (!res.ok)
        ctx.fail(`delete of a draft quotation: status is ${res.status}, expected a 2xx (§3.1, §4.2)`, {
          expected: 'a draft quotation can be deleted',
          exchanges: [res.exchange],
        })
      const after = await ctx.api.get(itemPath('quotation', record.id))
      if (after.status !== 404 && after.status !== 410) {
        ctx.fail(`after the delete, GET answers ${after.status}, expected 404 (§7.6)`, {
          expected: 'a deleted record does not exist (§7.6)',
          exchanges: [res.exchange, after.exchange],
        })
      }
      ctx.observe('deleteStatus', res.status)
    },
  }),
  defineCheck({
    id: 'state.quotation.replace-non-draft',
    clauses: ['§3.1'],
    level: 'MUST',
    area,
    title: 'Replacing a quotation that is not a draft (sent, accepted and each other state found) is refused (4xx) and leaves it unchanged',
    writes: 'safe',
    after: AFTER_ORDER,
    async run(ctx) {
      await expectRefusedUnlessDraft(ctx, (target) => ({
        op: 'replace',
        // The record's own values: a server that wrongly accepts changes as little as the API lets us.
        body: (before) => quotationReplaceBody(before),
        send: (body) => replaceRecord(ctx, 'quotation', target.id, body!),
      }))
    },
  }),
  defineCheck({
    id: 'state.quotation.delete-non-draft',
    clauses: ['§3.1'],
    level: 'MUST',
    area,
    title: 'Deleting a quotation that is not a draft (sent, accepted and each other state found) is refused (4xx) and leaves it in place, unchanged',
    writes: 'safe',
    after: AFTER_ORDER,
    async run(ctx) {
      await expectRefusedUnlessDraft(ctx, (target) => ({
        op: 'delete',
        send: () => deleteRecord(ctx, 'quotation', target.id),
      }))
    },
  }),
  defineCheck({
    id: 'state.quotation.create-status-ignored',
    clauses: ['§3', '§4.2', '§4.4'],
    level: 'MUST',
    area,
    title: 'A quotation created with status "sent" or "accepted" in its body is a draft all the same (or the body is refused)',
    writes: 'safe',
    async run(ctx) {
      await createdAsDraft(ctx, 'quotation', ['sent', 'accepted'], () => newQuotationBody(ctx))
    },
  }),
]
