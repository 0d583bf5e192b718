// A list page judged against the query that asked for it (§4.1, §4.3, §8): page size, filters, order and the
// since-bounds. The pagination and filters areas judge their own pages with the functions these build on
// (order.ts, filter-match.ts, precision.ts); the traffic rules judge every page they see.
import { LIMITS, LIST_PARAMETERS, type FilterSpec, type ResourceSpec } from '../spec/resources.ts'
import { recordMatches } from './filter-match.ts'
import { firstMisordered, type Order, type SortKey } from './order.ts'
import { shownPrecision } from './precision.ts'
import { counted } from '../text/counted.ts'

type AnyRecord = Record<string, any>

/** The page size a `limit` value asks for: the number, `default` when absent, undefined when it is no integer of 1–100. */
export function requestedPageSize(limit: string | undefined): number | undefined {
  if (limit === undefined) return LIMITS.pageSizeDefault
  if (!/^\s*\d+\s*$/.test(limit)) return undefined
  const n = Number(limit)
  return n >= LIMITS.pageSizeMin && n <= LIMITS.pageSizeMax ? n : undefined
}

/**
 * Why a page of `count` records does not answer `limit` (§4.1 "page size 1–100, default 25", §8), or undefined.
 * `more`: records are known to follow the page (its nextCursor led to a page with records); only then is a short
 * page wrong, and only against the default, as pagination.limit.default judges it (the last page's size is free).
 */
export function pageSizeProblem(limit: string | undefined, count: number, more: boolean): string | undefined {
  if (count > LIMITS.pageSizeMax) return `${count} records on one page, more than ${LIMITS.pageSizeMax} (§8)`
  const size = requestedPageSize(limit)
  if (size === undefined) return undefined
  const asked = limit === undefined ? `no limit (default ${LIMITS.pageSizeDefault})` : `limit=${size}`
  if (count > size) return `${counted(count, 'record')} for ${asked} (§4.1)`
  if (more && limit === undefined && count !== size) return `${counted(count, 'record')} for ${asked} although more records follow (§4.1, §8)`
  if (more && count === 0) return `an empty page for ${asked} although more records follow (§4.1)`
  return undefined
}

/** The filters of §4.3 a query names, with the value asked; enum filters with a value outside their list are left out (§3.3: refused, not matched). */
export function filtersAsked(resource: ResourceSpec, query: Record<string, string>): { filter: FilterSpec; value: string }[] {
  const out: { filter: FilterSpec; value: string }[] = []
  for (const filter of resource.filters) {
    const value = query[filter.param]
    if (value === undefined) continue
    if (filter.kind === 'enum' && !filter.values?.includes(value)) continue
    out.push({ filter, value })
  }
  return out
}

/** The first record that a filter of the query does not match (§4.3, case rules included), or undefined. */
export function firstUnmatched(
  resource: ResourceSpec,
  query: Record<string, string>,
  records: AnyRecord[],
): { filter: FilterSpec; value: string; record: AnyRecord } | undefined {
  for (const { filter, value } of filtersAsked(resource, query)) {
    for (const record of records) if (!recordMatches(filter, record, value)) return { filter, value, record }
  }
  return undefined
}

/** The sort and order a query asks for, defaults applied (§4.1); undefined when either is not a listed value. */
export function sortAsked(query: Record<string, string>): { sort: SortKey; order: Order } | undefined {
  const sort = query.sort ?? LIST_PARAMETERS.sort.default
  const order = query.order ?? LIST_PARAMETERS.order.default
  if (!(LIST_PARAMETERS.sort.values as readonly string[]).includes(sort) || !(LIST_PARAMETERS.order.values as readonly string[]).includes(order))
    return undefined
  return { sort: sort as SortKey, order: order as Order }
}

export type SinceParam = 'createdSince' | 'updatedSince'
export const SINCE_FIELD: Record<SinceParam, SortKey> = { createdSince: 'createdAt', updatedSince: 'updatedAt' }

/** The records of a since-list on each side of its bound, by the field the parameter names; undefined when the bound is no date-time. */
export interface SinceSides {
  before: AnyRecord[]
  atBound: AnyRecord[]
  after: AnyRecord[]
}

/**
 * §4.1 "only records created (changed) after this time": `records` parted by their `createdAt` (`updatedAt`)
 * against the bound, in their order; a record whose time is no date-time is on no side.
 */
export function sinceSides(param: SinceParam, bound: string, records: readonly AnyRecord[]): SinceSides | undefined {
  const at = Date.parse(bound)
  if (Number.isNaN(at)) return undefined
  const field = SINCE_FIELD[param]
  const sides: SinceSides = { before: [], atBound: [], after: [] }
  for (const record of records) {
    const t = Date.parse(record[field])
    if (Number.isNaN(t)) continue
    ;(t < at ? sides.before : t === at ? sides.atBound : sides.after).push(record)
  }
  return sides
}

/**
 * The fractional digits the records' timestamps show. A record shown exactly at a since bound is proven not after
 * it only where they are `uniform`: a server that shows fewer digits than it keeps may hold a later instant behind
 * a value equal to the bound.
 */
export function timestampPrecision(records: readonly AnyRecord[]): { digits: number[]; uniform: boolean } {
  return shownPrecision(records.flatMap((r) => [r.createdAt, r.updatedAt]))
}

/**
 * §4.1 on one since-list page: the first record shown before the bound (`before`), or else the first shown exactly
 * at it where the page's timestamps show one precision (`at`, see timestampPrecision); undefined when neither.
 */
export function sinceViolation(param: SinceParam, bound: string, records: AnyRecord[]): { kind: 'before' | 'at'; record: AnyRecord } | undefined {
  const sides = sinceSides(param, bound, records)
  if (sides === undefined) return undefined
  if (sides.before.length > 0) return { kind: 'before', record: sides.before[0]! }
  if (sides.atBound.length > 0 && timestampPrecision(records).uniform) return { kind: 'at', record: sides.atBound[0]! }
  return undefined
}

export { firstMisordered }

/**
 * §4.1 "limit: page size 1–100": a page that records follow (its cursor led to more) holds exactly the size asked,
 * not fewer (a server capping pages below 100) nor more. Undefined when it does, or when no page size was asked.
 */
export function shortOfLimit(limit: number, count: number, more: boolean): string | undefined {
  if (count > limit) return `${count} records for limit=${limit} (§4.1)`
  if (more && count < limit) return `${counted(count, 'record')} for limit=${limit} although more records follow (§4.1: the page size is the limit)`
  return undefined
}

/**
 * A record listed twice by one walk (§9.2: each record once), or undefined. A record shown again with another
 * `sortKey` value changed while the walk ran, and an incremental sync rightly sees it again: not a repeat.
 */
export function firstRepeated(pages: AnyRecord[][], sortKey?: SortKey): { id: string; first: number; again: number } | undefined {
  const seen = new Map<string, { page: number; at: unknown }>()
  for (let p = 0; p < pages.length; p++) {
    for (const record of pages[p]!) {
      const id = String(record?.id).toLowerCase()
      const before = seen.get(id)
      if (before && (sortKey === undefined || before.at === record?.[sortKey])) return { id: String(record?.id), first: before.page, again: p }
      seen.set(id, { page: p, at: sortKey === undefined ? undefined : record?.[sortKey] })
    }
  }
  return undefined
}

/**
 * The instant of a date-time as shown (`2026-01-02T03:04:05.678Z`) written at another zone offset (minutes east of
 * UTC) with `digits` fractional digits: the shown digits are kept and padded with zeros, never rounded, so that the
 * text names exactly the same instant (§4.1 createdSince/updatedSince: a date-time, ISO 8601 in any of its forms).
 * Undefined when the value is no date-time with a zone, or more digits are shown than asked.
 */
export function sameInstantAt(shown: string, offsetMinutes: number, digits: number): string | undefined {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/i.exec(shown)
  if (!m) return undefined
  const fraction = m[2] ?? ''
  if (fraction.length > digits) return undefined
  const whole = Date.parse(`${m[1]}${m[3]!.toUpperCase()}`)
  if (Number.isNaN(whole)) return undefined
  const wall = new Date(whole + offsetMinutes * 60_000).toISOString().slice(0, 19)
  const sign = offsetMinutes < 0 ? '-' : '+'
  const abs = Math.abs(offsetMinutes)
  const zone = offsetMinutes === 0 ? 'Z' : `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
  return `${wall}${digits > 0 ? `.${fraction.padEnd(digits, '0')}` : ''}${zone}`
}
