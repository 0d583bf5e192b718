// §4.1, §4.3, §8: list parameters, filters and the opaque cursor. Records are walked in (sort key, id) order
// and the cursor holds the last position, so paging never repeats or skips a record however the data changes.

import { LIMITS, type FilterSpec, type ResourceSpec } from '../spec/resources.ts'
import { ApiError, INVALID_MESSAGE, invalidRequest, type ErrorDetail } from './api-error.ts'
import { parseDateTime } from './clock.ts'
import type { FaultId, SwitchesOf } from './faults.ts'
import type { Kind, ListSource, SortField, StoredRecord } from './store.ts'
import type { Variant } from './variants.ts'

/** The faults this module plays (faults.ts): the only switches its code can read. */
export const LIST_FAULTS = [
  'pagination.default-limit-20',
  'pagination.limit-uncapped',
  'pagination.limit-clamped',
  'pagination.limit-ignored',
  'pagination.bad-sort-ignored',
  'pagination.order-case-sensitive',
  'pagination.bad-cursor-restarts',
  'pagination.bad-since-ignored',
  'pagination.createdSince-ignored',
  'filters.email-ignored',
  'filters.unimplemented-ignored',
  'filters.mobile-plus-as-space',
  'filters.direction-system-refused',
  'filters.enum-last-value-refused',
  'filters.enum-unvalidated',
  'pagination.param-error-code',
  'pagination.sort-ignored',
  'pagination.order-ignored',
  'pagination.default-order-asc',
  'pagination.since-includes-bound',
  'pagination.updatedSince-reads-createdAt',
  'filters.email-case-sensitive',
  'filters.sku-lowercased',
  'filters.unknown-uuid-unfiltered',
  'pagination.repeat-boundary-record',
  'pagination.skip-boundary-record',
  'filters.first-match-dropped',
  'pagination.last-page-cursor-null',
  'pagination.last-page-cursor-absent',
  'filters.exact-substring',
  'filters.exact-case-insensitive',
  'pagination.limit-capped-50',
  'pagination.cursor-drops-filter',
  'pagination.cursor-ignores-sort',
  'pagination.since-offset-ignored',
  'filters.only-first-filter',
  'filters.only-last-filter',
  'filters.exact-like-wildcards',
  'filters.uuid-any-column',
  'pagination.limit-off-by-one',
  'filters.single-quoted-sql',
  'filters.double-quoted-sql',
  'pagination.cursor-drops-createdSince',
  'pagination.cursor-drops-order',
  'pagination.sort-per-page',
  'pagination.contacts-last-page-cursor-absent',
  'pagination.offset-cursor',
] as const satisfies readonly FaultId[]

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

interface Position {
  sort: SortField
  order: 'asc' | 'desc'
  /** The sort key (ms) and id of the last record of the previous page. */
  at: number
  id: string
}

export interface ListQuery {
  limit: number
  sort: SortField
  order: 'asc' | 'desc'
  after?: Position
  createdSince?: number
  updatedSince?: number
  filters: { spec: FilterSpec; value: string }[]
  /** sort or order was given in the query (read by the `pagination.sort-per-page` fault only). */
  sortAsked?: boolean
}

/** base64url, or (a variant's choice) standard padded base64, whose `+`, `/` and `=` a client must percent-encode. */
export function encodeCursor(p: Position, encoding: 'base64url' | 'base64' = 'base64url'): string {
  return Buffer.from(JSON.stringify({ s: p.sort, o: p.order, v: p.at, i: p.id })).toString(encoding)
}

function decodeCursor(cursor: string): Position | undefined {
  try {
    if (!/^[A-Za-z0-9_+/=-]+$/.test(cursor)) return undefined
    const raw: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
    if (typeof raw !== 'object' || raw === null) return undefined
    const { s, o, v, i } = raw as Record<string, unknown>
    if ((s !== 'createdAt' && s !== 'updatedAt') || (o !== 'asc' && o !== 'desc')) return undefined
    if (typeof v !== 'number' || !Number.isFinite(v) || typeof i !== 'string' || !UUID_PATTERN.test(i)) return undefined
    return { sort: s, order: o, at: v, id: i }
  } catch {
    return undefined
  }
}

/** Filters the `filters.unimplemented-ignored` fault leaves out, as a server that never wrote them would. */
const UNIMPLEMENTED_FILTERS: ReadonlySet<string> = new Set(['account.parentId', 'case.teamId', 'article.categoryId'])

/** Parses the common parameters and the resource's filters; every bad parameter is one detail of one 400. */
export function parseListQuery(params: Record<string, string>, spec: ResourceSpec, faults: SwitchesOf<typeof LIST_FAULTS>): ListQuery {
  const details: ErrorDetail[] = []
  const bad = (param: string, message: string) => details.push({ segments: [param], in: 'query', message })

  let limit: number = faults['pagination.default-limit-20'] ? 20 : LIMITS.pageSizeDefault
  if (params.limit !== undefined) {
    const n = /^\d{1,4}$/.test(params.limit) ? Number(params.limit) : NaN
    // The fault: the upper bound checked with <= 101.
    const upper = LIMITS.pageSizeMax + (faults['pagination.limit-off-by-one'] ? 1 : 0)
    // The fault: a size outside 1–100 is clamped into it, and one that does not parse keeps the default.
    // The fault: only the lower bound is checked, so limit=101 and above are served in full.
    if (faults['pagination.limit-uncapped'] && n > LIMITS.pageSizeMax) limit = n
    else if (faults['pagination.limit-clamped'] && !(n >= LIMITS.pageSizeMin && n <= LIMITS.pageSizeMax)) {
      if (!Number.isNaN(n)) limit = Math.min(Math.max(n, LIMITS.pageSizeMin), LIMITS.pageSizeMax)
    } else if (!(n >= LIMITS.pageSizeMin && n <= upper)) bad('limit', `limit must be an integer from ${LIMITS.pageSizeMin} to ${LIMITS.pageSizeMax}`)
    // The fault: limit is validated, then never applied.
    else if (!faults['pagination.limit-ignored']) limit = n
    // The fault: the ORM's own maximum page size of 50 caps what was asked.
    if (faults['pagination.limit-capped-50']) limit = Math.min(limit, 50)
  }

  let sort: SortField | undefined
  if (params.sort !== undefined) {
    if (params.sort === 'createdAt' || params.sort === 'updatedAt') sort = params.sort
    else if (!faults['pagination.bad-sort-ignored']) bad('sort', 'sort must be createdAt or updatedAt')
  }
  let order: 'asc' | 'desc' | undefined
  if (params.order !== undefined) {
    // The fault: the direction compared with the ORM's upper-case constant, so an explicit desc sorts ascending.
    if (faults['pagination.order-case-sensitive'] && /^(asc|desc)$/.test(params.order)) order = params.order === 'DESC' ? 'desc' : 'asc'
    else if (params.order === 'asc' || params.order === 'desc') order = params.order
    else if (!faults['pagination.bad-sort-ignored']) bad('order', 'order must be asc or desc')
  }

  let after: Position | undefined
  if (params.cursor !== undefined && params.cursor !== '') {
    after = decodeCursor(params.cursor)
    // The fault: a cursor that does not decode starts the list again from the top.
    if (!after) {
      if (!faults['pagination.bad-cursor-restarts']) bad('cursor', 'cursor is not a nextCursor of this API')
    }
    // A cursor belongs to one sort and order; the parameters may be repeated or left out, not changed.
    else if (!faults['pagination.cursor-ignores-sort'] && ((sort !== undefined && sort !== after.sort) || (order !== undefined && order !== after.order))) {
      bad('cursor', 'cursor was issued for another sort or order')
    }
  }

  const since = (param: 'createdSince' | 'updatedSince'): number | undefined => {
    const raw = params[param]
    if (raw === undefined) return undefined
    // The fault: the zone offset cut off, the wall time read as UTC.
    const ms = parseDateTime(faults['pagination.since-offset-ignored'] ? raw.replace(/[+-]\d{2}:?\d{2}$/, 'Z') : raw)
    if (ms === undefined && !faults['pagination.bad-since-ignored']) bad(param, `${param} must be an ISO 8601 date-time with a zone`)
    return ms
  }
  // The fault: createdSince is validated, then never passed on to the query.
  const createdSince = faults['pagination.createdSince-ignored'] ? (since('createdSince'), undefined) : since('createdSince')
  const updatedSince = since('updatedSince')

  const filters: ListQuery['filters'] = []
  for (const f of spec.filters) {
    let value = params[f.param]
    if (value === undefined) continue
    if (f.param === 'email' && faults['filters.email-ignored']) continue
    if (faults['filters.unimplemented-ignored'] && UNIMPLEMENTED_FILTERS.has(`${spec.name}.${f.param}`)) continue
    // The fault: '+' read as a form-encoded space, then trimmed away.
    if (f.match === 'e164' && faults['filters.mobile-plus-as-space']) value = value.replace(/\+/g, ' ').trim()
    // The faults: direction's system refused; every enum's allow-list sliced with an off-by-one end, losing its last value.
    const listed =
      faults['filters.direction-system-refused'] && f.param === 'direction'
        ? f.values?.filter((v) => v !== 'system')
        : faults['filters.enum-last-value-refused']
          ? f.values?.slice(0, -1)
          : f.values
    if (f.kind === 'uuid' && !UUID_PATTERN.test(value)) bad(f.param, `${f.param} must be a uuid`)
    else if (f.kind === 'enum' && !faults['filters.enum-unvalidated'] && !listed?.includes(value))
      bad(f.param, `${f.param} must be one of ${listed?.join(', ')}`)
    else filters.push({ spec: f, value })
  }

  // The faults: a string filter's value pasted into an SQL string literal quoted with ' or with ": a value whose
  // quote ends the literal is a syntax error (500), or, where the rest reads `OR 'a'='a`, a condition every record meets.
  const quote = faults['filters.single-quoted-sql'] ? "'" : faults['filters.double-quoted-sql'] ? '"' : undefined
  if (quote !== undefined) {
    const pasted = filters.map(({ spec, value }) => (spec.kind === 'string' ? pastedInto(quote, value) : undefined))
    if (pasted.includes('error')) throw new ApiError(500, 'internal_error', 'Internal error.')
    filters.splice(0, filters.length, ...filters.filter((_, i) => pasted[i] !== 'every'))
  }

  // The faults: of several filters, only the first or only the last reaches the query.
  if (faults['filters.only-first-filter']) filters.splice(1)
  if (faults['filters.only-last-filter']) filters.splice(0, filters.length - 1)

  if (details.length > 0) {
    // The fault: list parameters get their own error code.
    if (faults['pagination.param-error-code']) throw new ApiError(400, 'bad_parameter', INVALID_MESSAGE, details)
    throw invalidRequest(details)
  }
  return {
    limit,
    // The faults: sort or order validated but not applied; no order means oldest first.
    // The fault: a later page is read in createdAt order, whatever sort its cursor was issued for.
    sort: faults['pagination.sort-ignored'] || (faults['pagination.cursor-ignores-sort'] && after) ? 'createdAt' : (sort ?? after?.sort ?? 'createdAt'),
    // The fault: the cursor is read for its sort and position, its direction dropped: a later page goes newest first.
    order:
      faults['pagination.order-ignored'] || (faults['pagination.cursor-drops-order'] && after)
        ? 'desc'
        : (order ?? after?.order ?? (faults['pagination.default-order-asc'] ? 'asc' : 'desc')),
    after,
    // The fault: a later page is rebuilt from its cursor, which does not hold the createdSince bound.
    createdSince: faults['pagination.cursor-drops-createdSince'] && after ? undefined : createdSince,
    updatedSince,
    filters,
    sortAsked: sort !== undefined || order !== undefined,
  }
}

/** How SQL reads `value` pasted between two `quote`s: undefined when no quote ends the literal. */
function pastedInto(quote: string, value: string): 'error' | 'every' | undefined {
  const at = value.indexOf(quote)
  if (at < 0) return undefined
  const tail = new RegExp(`^ OR ${quote}([^${quote}]*)${quote}=${quote}\\1$`, 'i')
  return tail.test(value.slice(at + 1)) ? 'every' : 'error'
}

/** A phone number in E.164 form, read through the usual separators (`+60 12-345 6701`); undefined if it is not one. */
function e164Of(value: string): string | undefined {
  const compact = value.replace(/[\s().-]/g, '')
  return /^\+[1-9]\d{1,14}$/.test(compact) ? compact : undefined
}

/**
 * The faults of exact string filters (§4.3), undefined when none applies: matched as a substring of the field in
 * the filter's folded form (a `LIKE '%v%'`), or an exact key compared ignoring case (an `ILIKE` without wildcards).
 */
function looseMatch(spec: FilterSpec, field: string, value: string, faults: SwitchesOf<typeof LIST_FAULTS>): boolean | undefined {
  if (spec.kind !== 'string') return undefined
  if (faults['filters.exact-like-wildcards']) return likeMatch(field, value, spec.match === 'lowercase' || spec.match === 'uppercase')
  if (faults['filters.exact-substring']) {
    const fold = (s: string) => (spec.match === 'e164' ? (e164Of(s) ?? s) : spec.match === 'exact' ? s : s.toLowerCase())
    return fold(field).includes(fold(value))
  }
  if (faults['filters.exact-case-insensitive'] && spec.match === 'exact') return field.toLowerCase() === value.toLowerCase()
  return undefined
}

/** SQL `LIKE value` (ILIKE when `folded`) with the value unescaped: `%` any text, `_` any character; `*` read as `%`. */
function likeMatch(field: string, value: string, folded: boolean): boolean {
  const pattern = [...value].map((ch) => (ch === '%' || ch === '*' ? '.*' : ch === '_' ? '.' : ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('')
  return new RegExp(`^${pattern}$`, folded ? 'is' : 's').test(field)
}

function matches(rec: StoredRecord, q: ListQuery, faults: SwitchesOf<typeof LIST_FAULTS>): boolean {
  // The fault: the since-filters compare with >=, so the record at the bound itself is listed.
  const after = (ms: number, bound: number) => (faults['pagination.since-includes-bound'] ? ms >= bound : ms > bound)
  if (q.createdSince !== undefined && !after(rec.createdAtMs, q.createdSince)) return false
  // The fault: updatedSince read against createdAt.
  if (q.updatedSince !== undefined && !after(faults['pagination.updatedSince-reads-createdAt'] ? rec.createdAtMs : rec.updatedAtMs, q.updatedSince))
    return false
  for (const { spec, value } of q.filters) {
    // The fault: the id searched in every id column of the record.
    if (faults['filters.uuid-any-column'] && spec.kind === 'uuid') {
      if (!Object.values(rec.record).some((v) => v === value.toLowerCase())) return false
      continue
    }
    const field = rec.record[spec.field]
    if (typeof field !== 'string') return false
    const loose = looseMatch(spec, field, value, faults)
    if (loose !== undefined) {
      if (!loose) return false
      continue
    }
    switch (spec.match) {
      case 'lowercase':
        // The fault: the address compared as stored.
        if (faults['filters.email-case-sensitive'] ? field !== value : field.toLowerCase() !== value.toLowerCase()) return false
        break
      case 'uppercase':
        // The fault: the SKU lower-cased like an email address, then compared as stored.
        if (faults['filters.sku-lowercased'] ? field !== value.toLowerCase() : field.toUpperCase() !== value.toUpperCase()) return false
        break
      case 'e164':
        if (e164Of(field) === undefined || e164Of(field) !== e164Of(value)) return false
        break
      default:
        if (spec.kind === 'uuid' ? field !== value.toLowerCase() : field !== value) return false
    }
  }
  return true
}

/** Index of the first record strictly after `at` in ascending (key, id) order. */
function firstAfter(records: readonly StoredRecord[], key: 'createdAtMs' | 'updatedAtMs', at: number, id: string): number {
  let lo = 0
  let hi = records.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    const r = records[mid]
    if (r[key] < at || (r[key] === at && r.id <= id)) lo = mid + 1
    else hi = mid
  }
  return lo
}

export interface Page {
  data: StoredRecord[]
  /** `undefined` = leave the field out (only a fault does). */
  nextCursor: string | null | undefined
}

/** The `filters.unknown-uuid-unfiltered` fault: a uuid condition that finds no record reaches the ORM as undefined, which drops it. */
function unknownUuidsDropped(records: readonly StoredRecord[], q: ListQuery): ListQuery {
  const found = ({ spec, value }: ListQuery['filters'][number]) => spec.kind !== 'uuid' || records.some((r) => r.record[spec.field] === value.toLowerCase())
  return { ...q, filters: q.filters.filter(found) }
}

/**
 * The `pagination.sort-per-page` fault: the first page of an asked sort is right, and its cursor holds an offset; a
 * later page is cut at that offset from the unsorted scan (the order records were stored in) and sorted in memory.
 * Each page is in order, the list is not.
 */
function sortedPerPage(lists: ListSource, workspace: string, kind: Kind, q: ListQuery, variant: Variant, faults: SwitchesOf<typeof LIST_FAULTS>): Page {
  const scan = lists.sorted(workspace, kind, 'createdAt').filter((r) => matches(r, q, faults))
  const offset = q.after?.at ?? 0
  const key = q.sort === 'createdAt' ? 'createdAtMs' : 'updatedAtMs'
  const data = scan.slice(offset, offset + q.limit).sort((a, b) => (q.order === 'asc' ? a[key] - b[key] : b[key] - a[key]))
  const last = data[data.length - 1]
  const more = offset + q.limit < scan.length
  const cursor = last && more ? encodeCursor({ sort: q.sort, order: q.order, at: offset + data.length, id: last.id }, variant.cursorEncoding) : ''
  return { data, nextCursor: cursor }
}

/**
 * The `pagination.offset-cursor` fault: the cursor holds how many matching records earlier pages showed, and a
 * later page starts that far into the list as it is now. Right while nothing changes; a delete of a record already
 * shown skips the next one, a create ahead of the cursor shows one twice.
 */
function offsetPage(lists: ListSource, workspace: string, kind: Kind, q: ListQuery, variant: Variant, faults: SwitchesOf<typeof LIST_FAULTS>): Page {
  const sorted = lists.sorted(workspace, kind, q.sort).filter((r) => matches(r, q, faults))
  const all = q.order === 'asc' ? sorted : [...sorted].reverse()
  const offset = q.after?.at ?? 0
  const data = all.slice(offset, offset + q.limit)
  const last = data[data.length - 1]
  const more = offset + q.limit < all.length
  const nextCursor = last && more ? encodeCursor({ sort: q.sort, order: q.order, at: offset + data.length, id: last.id }, variant.cursorEncoding) : ''
  return { data, nextCursor }
}

export function listPage(lists: ListSource, workspace: string, kind: Kind, query: ListQuery, variant: Variant, faults: SwitchesOf<typeof LIST_FAULTS>): Page {
  if (faults['pagination.offset-cursor']) return offsetPage(lists, workspace, kind, query, variant, faults)
  const perPage = faults['pagination.sort-per-page'] && query.sortAsked === true
  if (perPage && query.after) return sortedPerPage(lists, workspace, kind, query, variant, faults)
  const records = lists.sorted(workspace, kind, query.sort)
  const kept = faults['filters.unknown-uuid-unfiltered'] ? unknownUuidsDropped(records, query) : query
  // The fault: a later page is read from the cursor's position alone, without the query's filters.
  const q = faults['pagination.cursor-drops-filter'] && kept.after ? { ...kept, filters: [] } : kept
  const key = q.sort === 'createdAt' ? 'createdAtMs' : 'updatedAtMs'
  const asc = q.order === 'asc'
  let i: number
  if (!q.after) i = asc ? 0 : records.length - 1
  else {
    const next = firstAfter(records, key, q.after.at, q.after.id)
    // Descending: the first record strictly before the position. The fault restarts on the boundary record.
    const boundary = next > 0 && records[next - 1].id === q.after.id && records[next - 1][key] === q.after.at
    // The skip fault steps one record too far past the boundary.
    const repeat = (faults['pagination.repeat-boundary-record'] && boundary ? 1 : 0) - (faults['pagination.skip-boundary-record'] ? 1 : 0)
    i = asc ? next - repeat : (boundary ? next - 2 : next - 1) + repeat
  }
  const data: StoredRecord[] = []
  let more = false
  // The fault: the filtered query's offset is counted from 1, so the first page of a filtered list drops its first match.
  let dropped = faults['filters.first-match-dropped'] && q.filters.length > 0 && !q.after ? 1 : 0
  for (; asc ? i < records.length : i >= 0; asc ? i++ : i--) {
    const r = records[i]
    if (!matches(r, q, faults)) continue
    if (dropped > 0) {
      dropped--
      continue
    }
    if (data.length === q.limit) {
      more = true
      break
    }
    data.push(r)
  }
  const last = data[data.length - 1]
  const cursor = last ? encodeCursor({ sort: q.sort, order: q.order, at: perPage ? data.length : last[key], id: last.id }, variant.cursorEncoding) : undefined
  let nextCursor: Page['nextCursor']
  if (more) nextCursor = cursor
  else if (variant.lastPage === 'empty-string') nextCursor = ''
  // An empty page ends the walk; 'cursor-kept-on-empty-page' hands back the position it was asked for, to poll later.
  else nextCursor = cursor ?? (variant.lastPage === 'cursor-kept-on-empty-page' && q.after ? encodeCursor(q.after, variant.cursorEncoding) : '')
  // The faults: the last page's cursor sent as null, or left out (§2, §4.1: a string on every page).
  if (!more && faults['pagination.last-page-cursor-null']) nextCursor = null
  if (!more && faults['pagination.last-page-cursor-absent']) nextCursor = undefined
  if (!more && kind === 'contact' && faults['pagination.contacts-last-page-cursor-absent']) nextCursor = undefined
  return { data, nextCursor }
}

export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value)
}
