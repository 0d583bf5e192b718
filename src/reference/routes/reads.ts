// Reads: the list of a collection (§4.1 pagination and §4.3 filters, pagination.ts) and a record by id.

import type { ResourceSpec } from '../../spec/resources.ts'
import { notFound } from '../api-error.ts'
import type { FaultId, SwitchesOf } from '../faults.ts'
import { listPage, parseListQuery } from '../pagination.ts'
import type { Json } from '../store.ts'
import type { AppState, Ctx } from './context.ts'
import type { RequestReader } from './request.ts'
import type { Responses } from './responses.ts'

/** The faults this module plays (faults.ts): the only switches its code can read. */
export const READ_FAULTS = [
  'records.list-index-lag',
  'filters.index-not-backfilled',
  'filters.empty-result-404',
  'read-only.unknown-id-200-null',
  'auth.filtered-list-any-workspace',
  'auth.list-any-workspace',
] as const satisfies readonly FaultId[]

export function readRoutes(state: AppState, { allow, find, parseId, missingParent }: RequestReader, { present }: Responses) {
  const { store, clock, variant } = state
  const faults: SwitchesOf<typeof READ_FAULTS> = state.faults
  /** When the server started: the `filters.index-not-backfilled` fault's search index holds only records written since. */
  const indexedSince = clock.now()

  const list = (spec: ResourceSpec) => (c: Ctx) => {
    const key = allow(c, spec, 'list')
    const q = parseListQuery(c.req.query(), spec, state.faults)
    const unknownParent = variant.unknownParentFilter404 ? missingParent(spec, key.workspace, c.req.query()) : undefined
    if (unknownParent) throw notFound(unknownParent)
    const page = listPage(state.lists, key.workspace, spec.name, q, variant, state.faults)
    // The fault: lists come from a search index refreshed every 10 s, so a record just written is missing.
    if (faults['records.list-index-lag']) page.data = page.data.filter((r) => clock.now() - r.createdAtMs > 10_000)
    // Faults: other workspaces' records in this key's lists, when filtered or when not.
    if (faults[q.filters.length > 0 ? 'auth.filtered-list-any-workspace' : 'auth.list-any-workspace']) {
      for (const ws of state.workspaces.keys()) if (ws !== key.workspace) page.data.push(...listPage(state.lists, ws, spec.name, q, variant, state.faults).data)
    }
    // The fault: filtered lists query a search index switched on at start-up and never backfilled, so a filter
    // never finds a record that existed before.
    if (faults['filters.index-not-backfilled'] && q.filters.length > 0) page.data = page.data.filter((r) => r.createdAtMs >= indexedSince)
    if (faults['filters.empty-result-404'] && q.filters.length > 0 && page.data.length === 0) throw notFound(spec.name)
    const body: Json = { data: page.data.map((r) => present(spec, r.record)) }
    if (page.nextCursor !== undefined) body.nextCursor = page.nextCursor
    // The variant's own field beside those §4.1 lists.
    if (variant.extraFields) body.hasMore = typeof page.nextCursor === 'string' && page.nextCursor !== ''
    return c.json(body)
  }

  const get = (spec: ResourceSpec) => (c: Ctx) => {
    const key = allow(c, spec, 'get')
    // The fault: the ORM's null for a missing row is sent as is.
    if (faults['read-only.unknown-id-200-null'] && !store.get(key.workspace, spec.name, parseId(spec, c.req.param('id') ?? ''))) return c.json(null)
    return c.json(present(spec, find(c, spec).record))
  }

  return { list, get }
}
