// Filtered list queries and the judgements on them: every returned record matches (soundness), a record known to
// match is returned (completeness). Queries ask for limit=100 and walks are bounded (frugal, rule 5).
import { expectListEnvelope, itemPath, walkListPages, readUntil, RESOURCES, recordMatches } from '../../src/checks/index.ts'
import type { CheckContext, ApiResponse, AnyRecord, FilterSpec, ResourceName } from '../../src/checks/index.ts'

export const PAGE = 100
/** Pages a completeness walk may follow before giving up as "could not verify". */
const MAX_PAGES = 5
/** Offending records quoted in a failure. */
const QUOTED = 5

export function describeQuery(resource: ResourceName, filter: FilterSpec, value: string): string {
  return `GET ${RESOURCES[resource].path}?${filter.param}=${value}`
}

/**
 * GET the collection with one filter. `shared`: the same query of other checks of the run is sent once (the
 * values taken from existing records); queries about records the run just created are never shared, since an
 * earlier answer could predate them.
 */
export function filterQuery(ctx: CheckContext, resource: ResourceName, filter: FilterSpec, value: string, shared: boolean): Promise<ApiResponse> {
  const send = () => ctx.api.get(RESOURCES[resource].path, { [filter.param]: value, limit: PAGE })
  return shared ? ctx.session.memo(`filters.query:${resource}:${filter.param}=${value}`, send) : send()
}

/** A filtered list answers 200 with the list envelope (§2, §4.1); anything else ends the check as failed. */
export function expectPage(ctx: CheckContext, res: ApiResponse, what: string, clause = '§4.3'): AnyRecord[] {
  if (res.status !== 200) {
    ctx.fail(`${what}: status is ${res.status}, expected 200 (${clause})`, {
      exchanges: [res.exchange],
      expected: '200 with { data, nextCursor } (§4.1)',
      data: res.body,
    })
  }
  if (!Array.isArray(res.body?.data)) ctx.fail(`${what}: the body has no data array (§4.1)`, { exchanges: [res.exchange], data: res.body })
  // A filtered page is most often the last one: its nextCursor is judged as on any page (§2, §4.1).
  expectListEnvelope(res, what)
  return res.body.data as AnyRecord[]
}

/** Every returned record matches the filter by its rule (§4.3). */
export function expectSound(ctx: CheckContext, res: ApiResponse, resource: ResourceName, filter: FilterSpec, value: string, why = ''): void {
  const what = describeQuery(resource, filter, value)
  const data = expectPage(ctx, res, what)
  const offending = data.filter((r) => !recordMatches(filter, r, value))
  if (offending.length === 0) return
  const quoted = offending.slice(0, QUOTED).map((r) => ({ id: r?.id, [filter.field]: r?.[filter.field] }))
  ctx.fail(`${what} returned ${offending.length} of ${data.length} records whose ${filter.field} does not match${why} (§4.3)`, {
    expected: `only records whose ${filter.field} matches: ${filter.meaning || `exactly ${filter.param}`} (§4.3)`,
    exchanges: [res.exchange],
    data: { offending: quoted },
  })
}

function isLastPage(res: ApiResponse): boolean {
  const next = res.body?.nextCursor
  return next === null || next === undefined || next === '' || (res.body?.data?.length ?? 0) === 0
}

/** Whether the record is in the answer, looking beyond its first page with a bounded walk; skips past the bound. */
async function lookIn(
  ctx: CheckContext,
  resource: ResourceName,
  filter: FilterSpec,
  value: string,
  id: string,
  page: ApiResponse,
): Promise<{ found: boolean; last: ApiResponse }> {
  const what = describeQuery(resource, filter, value)
  const has = (data: AnyRecord[]) => data.some((r) => typeof r?.id === 'string' && r.id.toLowerCase() === id)
  if (has(expectPage(ctx, page, what))) return { found: true, last: page }
  if (isLastPage(page)) return { found: false, last: page }
  const walk = await walkListPages(ctx.api, RESOURCES[resource].path, { [filter.param]: value, limit: PAGE }, MAX_PAGES)
  if (has(walk.records)) return { found: true, last: page }
  if (walk.end === 'max-pages') ctx.skip(`${resource} ${id} is not within the first ${MAX_PAGES * PAGE} results of ${what}; could not verify`)
  return { found: false, last: walk.pages.at(-1) ?? page }
}

/**
 * The record is among the filter's results (§4.3). Not found in `first` (which may be an answer shared with other
 * checks, or come before a lagging list caught up), the query is sent again, fresh, within the consistency window. A record still not
 * found is fetched again, so that one removed or changed meanwhile (by another client of a shared server) is a
 * skip, not a failure.
 */
export async function expectFound(
  ctx: CheckContext,
  resource: ResourceName,
  filter: FilterSpec,
  value: string,
  record: AnyRecord,
  first: ApiResponse,
): Promise<void> {
  const what = describeQuery(resource, filter, value)
  const id = String(record.id).toLowerCase()
  const fresh = async () => lookIn(ctx, resource, filter, value, id, await filterQuery(ctx, resource, filter, value, false))
  const { answer: look, reads } = await readUntil(ctx, fresh, (l) => l.found, { first: await lookIn(ctx, resource, filter, value, id, first) })
  if (look.found) return
  const again = await ctx.api.get(itemPath(resource, record.id))
  if (again.status === 404) ctx.skip(`${resource} ${record.id} was removed during the run; could not verify`)
  if (again.ok && !recordMatches(filter, again.body, value))
    ctx.skip(`the ${filter.field} of ${resource} ${record.id} changed during the run; could not verify`)
  ctx.fail(
    `${what} does not return ${resource} ${record.id}, whose ${filter.field} is ${JSON.stringify(record[filter.field])}, in ${reads + 1} queries over ${ctx.config.consistencyWindowMs} ms (§4.3)`,
    {
      expected: `every ${resource} whose ${filter.field} matches: ${filter.meaning || `exactly ${filter.param}`} (§4.3)`,
      exchanges: [...new Set([first.exchange, look.last.exchange]), again.exchange],
    },
  )
}
