// What the write-method probes are sent to. A probe that a broken server accepts must do no harm, yet a probe
// must be able to fail: so, in order of preference, a record this run created (full profile), then for PATCH and
// PUT an existing record with a body that rewrites its own values (for DELETE: in the full profile only), then a
// well-formed id no record has (whose 404 cannot tell a missing method from a missing record: inconclusive, a skip).
import { createRecord, itemPath, recordsNotInUse, RESOURCES } from '../../src/checks/index.ts'
import type { CheckContext, ApiResponse, AnyRecord, ResourceName } from '../../src/checks/index.ts'
import { randomUUID } from 'node:crypto'
import { MissingReference, validCreateBody } from '../shared/bodies.ts'

/** The newest records of a collection: one GET per run, shared by this area's checks. */
export function listed(ctx: CheckContext, resource: ResourceName): Promise<ApiResponse> {
  return ctx.session.memo(`read-only.list:${resource}`, () => ctx.api.get(RESOURCES[resource].path, { limit: 5 }))
}

export function listedRecords(response: ApiResponse): AnyRecord[] {
  return response.status === 200 && Array.isArray(response.body?.data) ? (response.body.data as AnyRecord[]).filter((r) => typeof r?.id === 'string') : []
}

/** Records the API cannot delete that this area may create for itself (full profile), with no outward effect. */
const OWN_MADE: ReadonlySet<ResourceName> = new Set(['comment', 'activity', 'product', 'invoice'])

/**
 * A record this area made for its probes (full profile), never one another check owns: a server that wrongly
 * accepts a probe changes only this one.
 */
export async function ownRecordId(ctx: CheckContext, resource: ResourceName): Promise<string | undefined> {
  if (ctx.profile !== 'full' || !OWN_MADE.has(resource)) return undefined
  return ctx.session.memo(`read-only.own:${resource}`, async () => {
    const valid = await validCreateBody(ctx, resource, `read-only probe ${resource}`).catch((error: unknown) => {
      if (error instanceof MissingReference) return undefined
      throw error
    })
    return valid && String((await createRecord(ctx, resource, valid.body, { validate: false })).record.id)
  })
}

export interface Target {
  id: string
  /** The record as last read, for bodies that rewrite its own values; none for an unknown id. */
  record?: AnyRecord
  kind: 'own' | 'existing' | 'unknown'
}

/**
 * DELETE: the run's own record; else, in the full profile (which already leaves records the API cannot delete),
 * the newest existing one no check owns: a server that answers 404 for a method it does not route (a legal
 * choice) can then be told from one that does not know the id, and only a server that breaks §4.2 deletes it.
 * Else (safe and read-only profiles never risk another's record) an unknown id.
 */
export async function deleteTarget(ctx: CheckContext, resource: ResourceName): Promise<Target> {
  const own = await ownRecordId(ctx, resource)
  if (own) return { id: own, kind: 'own' }
  if (ctx.profile === 'full') {
    const [existing] = await recordsNotInUse(ctx, listedRecords(await listed(ctx, resource)))
    if (existing) return { id: existing.id, record: existing, kind: 'existing' }
  }
  return { id: randomUUID(), kind: 'unknown' }
}

/** PATCH and PUT: the area's own record, else the newest existing one no check owns (rewritten with its own values), else an unknown id. */
export async function rewriteTarget(ctx: CheckContext, resource: ResourceName): Promise<Target> {
  const own = await ownRecordId(ctx, resource)
  if (own) {
    const res = await ctx.api.get(itemPath(resource, own))
    if (res.ok && typeof res.body === 'object' && res.body !== null) return { id: own, record: res.body, kind: 'own' }
  }
  const [existing] = await recordsNotInUse(ctx, listedRecords(await listed(ctx, resource)))
  return existing ? { id: existing.id, record: existing, kind: 'existing' } : { id: randomUUID(), kind: 'unknown' }
}

/** Fields a PATCH may carry unchanged, most harmless first. */
const REWRITABLE = ['title', 'displayName', 'slug', 'body', 'note', 'reference']

/** PATCH: one field set to the value it already has. */
export function patchBody(target: Target): AnyRecord {
  const field = REWRITABLE.find((f) => typeof target.record?.[f] === 'string')
  return field ? { [field]: target.record![field] } : { title: 'crmconf' }
}

/** PUT: the record as read, every field at its current value. */
export function putBody(target: Target): AnyRecord {
  if (!target.record) return { title: 'crmconf' }
  const { id: _id, createdAt: _c, updatedAt: _u, ...rest } = target.record
  return rest
}
