// §3: quotations and invoices are "created as a draft" (§4.2 "create (draft)"), whatever the body says: `status`
// is not a field of their §4.4 create bodies. A server may ignore it (the record is a draft) or refuse the body
// (a 4xx); it must never make the record in the state the body names.
import { itemPath, notCreatedAsDraft, trackCreated, RESOURCES } from '../../src/checks/index.ts'
import type { CheckContext, AnyRecord, DraftResource } from '../../src/checks/index.ts'
import { isStateRefusal, refusalOf } from '../shared/refusal.ts'

export async function createdAsDraft(ctx: CheckContext, resource: DraftResource, statuses: string[], body: () => AnyRecord): Promise<void> {
  const path = RESOURCES[resource].path
  for (const status of statuses) {
    const res = await ctx.api.post(path, { ...body(), status })
    if (!res.ok) {
      if (!isStateRefusal(res.status))
        ctx.fail(`POST ${path} with status ${JSON.stringify(status)} in the body: status is ${res.status}, expected a draft or a 4xx refusal (§3)`, {
          expected: 'a 2xx creating a draft, or a 4xx refusing the body (other than 401 and 429)',
          exchanges: [res.exchange],
        })
      ctx.observe(`refusal.${status}`, refusalOf(res))
      continue
    }
    if (typeof res.body?.id !== 'string') ctx.fail(`POST ${path} answered ${res.status} without the record's id (§4.2)`, { exchanges: [res.exchange] })
    trackCreated(ctx, resource, res.body.id)
    const read = await ctx.api.get(itemPath(resource, res.body.id))
    const states = [res.body.status, read.body?.status]
    const notDraft = states.findIndex((s) => notCreatedAsDraft(resource, s))
    if (notDraft >= 0) {
      ctx.fail(`the ${resource} created with status ${JSON.stringify(status)} in the body is ${JSON.stringify(states[notDraft])}, not a draft (§3)`, {
        expected: `a new ${resource} is a draft whatever the body says (§3 "created as a draft", §4.2 "create (draft)")`,
        exchanges: [res.exchange, read.exchange],
      })
    }
    ctx.observe(`accepted.${status}`, 'created as a draft')
  }
}
