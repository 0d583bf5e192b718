// §3: quotations and invoices are created as drafts, and a draft can be replaced (§3.1). The judgements the two
// resources' checks share; what differs (the bodies, how a draft is found) stays with each resource's checks.
import { itemPath, notCreatedAsDraft, replaceRecord } from '../../src/checks/index.ts'
import type { AnyRecord, ApiResponse, CheckContext, DraftResource } from '../../src/checks/index.ts'

/** §3 "created as a draft": fails unless the record just created is one. */
export function expectCreatedDraft(ctx: CheckContext, resource: DraftResource, record: AnyRecord): void {
  const problem = notCreatedAsDraft(resource, record.status)
  if (problem) ctx.fail(problem.message, { expected: problem.expected })
}

/**
 * §3.1, §4.2: replaces the draft `id` with `body` (titled `title`, paymentTermsDays 14) and fails unless the
 * replace is accepted, answers the replaced record, and a read shows it. Returns the read.
 */
export async function expectDraftReplaced(ctx: CheckContext, resource: DraftResource, id: string, title: string, body: AnyRecord): Promise<ApiResponse> {
  const res = await replaceRecord(ctx, resource, id, body)
  if (!res.ok)
    ctx.fail(`replace of a draft ${resource}: status is ${res.status}, expected a 2xx (§3.1, §4.2)`, {
      expected: `a draft ${resource} can be replaced`,
      exchanges: [res.exchange],
    })
  if (res.body?.title !== title)
    ctx.fail(`replace answered ${res.status} but the returned title is ${JSON.stringify(res.body?.title)} (§4.2)`, {
      expected: 'the replaced record, with the title sent',
      exchanges: [res.exchange],
    })
  const after = await ctx.api.get(itemPath(resource, id))
  if (after.body?.title !== title || after.body?.paymentTermsDays !== 14) {
    ctx.fail(`after the replace, GET shows title ${JSON.stringify(after.body?.title)} and paymentTermsDays ${after.body?.paymentTermsDays} (§3.1)`, {
      expected: `title ${JSON.stringify(title)}, paymentTermsDays 14`,
      exchanges: [res.exchange, after.exchange],
    })
  }
  return after
}
