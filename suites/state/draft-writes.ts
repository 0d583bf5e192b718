// §3: quotations and invoices are created as drafts, and a draft can be replaced (§3.1). The two checks each draft
// resource takes are defined once here; each resource's list declares them (`defineCheck(createdDraft(…))`), so
// every check is still declared where its resource's checks are listed. What differs by resource is data: the
// bodies (shared/drafts.ts), the profile a create needs (invoices cannot be deleted, §4.2).
import { itemPath, notCreatedAsDraft, replaceRecord, runLabel } from '../../src/checks/index.ts'
import type { AnyRecord, ApiResponse, CheckContext, CheckDefinition, DraftResource } from '../../src/checks/index.ts'
import { createNeeds } from '../shared/bodies.ts'
import { REPLACE_BODIES, sharedDraft, sharedDraftOrSkip } from '../shared/drafts.ts'

const area = 'state'

/** §3 "created as a draft": the run's shared draft of `resource` is one. */
export function createdDraft(resource: DraftResource): CheckDefinition {
  return {
    id: `state.${resource}.created-draft`,
    clauses: ['§3', '§4.2'],
    level: 'MUST',
    area,
    title: `A created ${resource} has status draft`,
    writes: createNeeds(resource),
    async run(ctx) {
      const problem = notCreatedAsDraft(resource, (await sharedDraft(ctx, resource)).status)
      if (problem) ctx.fail(problem.message, { expected: problem.expected })
    },
  }
}

/**
 * §3.1, §4.2: the shared draft replaced (a new title, paymentTermsDays 14) is accepted, answered with the replaced
 * record, and read back so. `observe` reports what a resource shows of the replaced record beyond the verdict.
 */
export function replaceDraft(resource: DraftResource, observe?: (ctx: CheckContext, draft: AnyRecord, after: ApiResponse) => void): CheckDefinition {
  return {
    id: `state.${resource}.replace-draft`,
    clauses: ['§3.1', '§4.2'],
    level: 'MUST',
    area,
    title: `Replacing a draft ${resource} succeeds and returns the replaced record`,
    writes: createNeeds(resource),
    async run(ctx) {
      const draft = await sharedDraftOrSkip(ctx, resource)
      const after = await expectDraftReplaced(ctx, resource, draft)
      observe?.(ctx, draft, after)
    },
  }
}

/** Replaces `draft` and fails unless the replace is accepted, answers the replaced record, and a read shows it. */
async function expectDraftReplaced(ctx: CheckContext, resource: DraftResource, draft: AnyRecord): Promise<ApiResponse> {
  const title = runLabel(ctx, `${resource} replaced`)
  const res = await replaceRecord(ctx, resource, draft.id, REPLACE_BODIES[resource](draft, { title, terms: 'crmconf replaced terms', paymentTermsDays: 14 }))
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
  const after = await ctx.api.get(itemPath(resource, draft.id))
  if (after.body?.title !== title || after.body?.paymentTermsDays !== 14) {
    ctx.fail(`after the replace, GET shows title ${JSON.stringify(after.body?.title)} and paymentTermsDays ${after.body?.paymentTermsDays} (§3.1)`, {
      expected: `title ${JSON.stringify(title)}, paymentTermsDays 14`,
      exchanges: [res.exchange, after.exchange],
    })
  }
  return after
}
