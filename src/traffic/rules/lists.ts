// Rules on each list page (server side): page size, filters, order, since-bounds; and across the pages of one
// walk: nothing visible repeated, the order kept across the page boundary, and the page size proven by the
// records that follow.
import { recordMatches } from '../../judge/filter-match.ts'
import {
  filtersAsked,
  firstMisordered,
  firstUnmatched,
  pageSizeProblem,
  requestedPageSize,
  sinceViolation,
  sortAsked,
  SINCE_FIELD,
  type SinceParam,
} from '../../judge/lists.ts'
import { RESOURCES, type ResourceName } from '../../spec/resources.ts'
import type { ResolvedOperation, RuleContext, TrafficExchange, TrafficRule } from '../types.ts'
import {
  BoundedMap,
  LIST_PAGES,
  WriteClock,
  acrossExchanges,
  answerOf,
  endedBefore,
  isObject,
  isSuccess,
  isVerdictOnInput,
  keyOf,
  perExchange,
  timeOf,
  querySignature,
  resourceOf,
  type AnyRecord,
  type RuleMeta,
} from './kit.ts'

export interface Page {
  resource: ResourceName
  operation: ResolvedOperation
  records: AnyRecord[]
  /** The nextCursor, when it is a non-empty string (the last page's value is not shown, §4.1). */
  next?: string
}

/** Pages already read, per exchange: six rules read the same page. */
const pages = new WeakMap<TrafficExchange, Page | null>()

/** A list answered 200 with a data array, seen whole. */
export function pageOf(exchange: TrafficExchange, operation: ResolvedOperation): Page | undefined {
  const known = pages.get(exchange)
  if (known !== undefined) return known ?? undefined
  const page = readPage(exchange, operation)
  pages.set(exchange, page ?? null)
  return page
}

/** A rule on each page by itself: `judge` sees only lists answered 200 with a data array, seen whole. */
function perPage(meta: RuleMeta, judge: (page: Page, exchange: TrafficExchange, ctx: RuleContext) => void): TrafficRule {
  return perExchange(meta, (exchange, ctx) => {
    const page = pageOf(exchange, ctx.operation)
    if (page) judge(page, exchange, ctx)
  })
}

function readPage(exchange: TrafficExchange, operation: ResolvedOperation): Page | undefined {
  const answer = answerOf(LIST_PAGES, exchange, operation)
  const body = answer?.body
  if (!answer || !isObject(body) || !Array.isArray(body.data)) return undefined
  const next = typeof body.nextCursor === 'string' && body.nextCursor !== '' ? body.nextCursor : undefined
  return { resource: answer.resource, operation: answer.operation, records: body.data.filter(isObject), ...(next !== undefined ? { next } : {}) }
}

const describe = (exchange: TrafficExchange, operation: ResolvedOperation) =>
  `GET ${operation.path}${exchange.request.url.includes('?') ? `?${exchange.request.url.split('?')[1]}` : ''}`

/** What the walk rule keeps of the previous page of each walk. */
interface Walked {
  exchange: TrafficExchange
  last?: AnyRecord
  /** Ids the walk showed so far, with the updatedAt each was shown with (bounded: the latest MAX_WALK_IDS). */
  ids: Map<string, unknown>
}

/** Bounds of the walk state: ids remembered per walk, and walks (open cursors) remembered at once. */
export const MAX_WALK_IDS = 500
const MAX_WALKS = 1_000

/**
 * Walks in progress, for the rules that judge a page against the one before it: what a rule keeps of each page
 * that handed out a nextCursor, by that cursor. The next page of the walk asks with it, for the same collection
 * and the same query (querySignature).
 */
export class OpenWalks<T> {
  // By collection and cursor: two collections handing out the same cursor (an offset) are two walks, whichever
  // partition (partition.ts) judges each collection.
  private readonly open = new BoundedMap<string, { signature: string; kept: T }>(MAX_WALKS)

  /** What was kept of the previous page of this page's walk (and `also` accepts), forgotten once followed. */
  follow(page: Page, also: (kept: T) => boolean = () => true): T | undefined {
    const cursor = page.operation.query.cursor
    if (cursor === undefined) return undefined
    const previous = this.open.peek(`${page.resource} ${cursor}`)
    if (!previous || previous.signature !== querySignature(page.operation) || !also(previous.kept)) return undefined
    this.open.delete(`${page.resource} ${cursor}`)
    return previous.kept
  }

  /** Keeps `kept` for the page's next page, when the page handed out a cursor. */
  hold(page: Page, kept: T): void {
    if (page.next !== undefined) this.open.set(`${page.resource} ${page.next}`, { signature: querySignature(page.operation), kept })
  }
}

export const pageSize: TrafficRule = acrossExchanges(
  {
    id: 'traffic.list.page-size',
    clauses: ['§4.1', '§8'],
    level: 'MUST',
    side: 'server',
    title: 'A page holds at most limit records (at most 100; 25 without limit), and exactly 25 without limit when records follow it',
  },
  'collection',
  () => {
    const walks = new OpenWalks<{ exchange: TrafficExchange; limit: string | undefined; count: number }>()
    const writes = new WriteClock()
    return {
      observe(exchange, ctx) {
        if (writes.note(exchange, ctx.operation)) return
        const page = pageOf(exchange, ctx.operation)
        if (!page) return
        ctx.exercised()
        const { query } = page.operation
        const problem = pageSizeProblem(query.limit, page.records.length, false)
        if (problem) ctx.violation({ message: `${describe(exchange, page.operation)}: ${problem}`, expected: 'limit: page size 1–100, default 25 (§4.1, §8)' })
        const previous = page.records.length > 0 ? walks.follow(page) : undefined
        if (previous) {
          const more = pageSizeProblem(previous.limit, previous.count, true)
          if (more && !problem && writes.quietSince(page.resource, previous.exchange))
            ctx.violation({
              message: `${describe(previous.exchange, page.operation)}: ${more}`,
              expected: 'limit: default 25 (§4.1); page size 1–100, default 25 (§8)',
              exchanges: [previous.exchange, exchange],
            })
        }
        walks.hold(page, { exchange, limit: query.limit, count: page.records.length })
      },
    }
  },
)

export const filtered: TrafficRule = perPage(
  {
    id: 'traffic.list.filter',
    clauses: ['§4.3'],
    level: 'MUST',
    side: 'server',
    title: 'Every record of a filtered list satisfies each §4.3 filter asked, with its case rule (lower case, upper case, E.164)',
  },
  (page, exchange, ctx) => {
    const spec = RESOURCES[page.resource]
    if (!spec.filters.some((f) => page.operation.query[f.param] !== undefined)) return
    ctx.exercised()
    const miss = firstUnmatched(spec, page.operation.query, page.records)
    if (miss) {
      ctx.violation({
        message: `${describe(exchange, page.operation)} returned ${page.resource} ${JSON.stringify(miss.record.id ?? null)} whose ${miss.filter.field} is ${JSON.stringify(miss.record[miss.filter.field] ?? null)} (§4.3 ${miss.filter.param}: ${miss.filter.meaning || 'exact value'})`,
        expected: `every record's ${miss.filter.field} matches ${miss.filter.param}=${miss.value} (§4.3)`,
      })
    }
  },
)

export const ordered: TrafficRule = perPage(
  {
    id: 'traffic.list.order',
    clauses: ['§4.1'],
    level: 'MUST',
    side: 'server',
    title: 'A page is in the order sort and order ask for (createdAt, desc by default), ties allowed',
  },
  (page, exchange, ctx) => {
    const asked = sortAsked(page.operation.query)
    if (!asked || page.records.length < 2) return
    ctx.exercised()
    const wrong = firstMisordered(page.records, asked.sort, asked.order)
    if (wrong) {
      ctx.violation({
        message: `${describe(exchange, page.operation)}: ${wrong.later.id} (${asked.sort} ${wrong.later[asked.sort]}) follows ${wrong.earlier.id} (${asked.sort} ${wrong.earlier[asked.sort]}), not ${asked.order === 'asc' ? 'ascending' : 'descending'} (§4.1)`,
        expected: `sort=${asked.sort} order=${asked.order} (defaults createdAt, desc: §4.1)`,
      })
    }
  },
)

function sinceRule(kind: 'before' | 'at'): TrafficRule {
  const before = kind === 'before'
  return perPage(
    before
      ? {
          id: 'traffic.list.since',
          clauses: ['§4.1', '§9.2'],
          level: 'MUST',
          side: 'server',
          title: 'createdSince and updatedSince return no record created or changed before the bound',
        }
      : {
          id: 'traffic.list.since-excludes-bound',
          clauses: ['§4.1'],
          level: 'SHOULD',
          side: 'server',
          title: 'createdSince and updatedSince leave out a record shown exactly at the bound, where every timestamp shows the same precision',
        },
    (page, exchange, ctx) => {
      for (const param of ['createdSince', 'updatedSince'] as SinceParam[]) {
        const bound = page.operation.query[param]
        if (bound === undefined || Number.isNaN(Date.parse(bound)) || page.records.length === 0) continue
        ctx.exercised()
        const found = sinceViolation(param, bound, page.records)
        if (found?.kind === kind) {
          const field = SINCE_FIELD[param]
          ctx.violation({
            message: `${describe(exchange, page.operation)} returned ${found.record.id}, whose ${field} ${found.record[field]} is ${before ? 'before' : 'the bound itself'} (§4.1)`,
            expected: `§4.1 ${param}: only records ${field === 'createdAt' ? 'created' : 'changed'} after this time`,
          })
          return
        }
      }
    },
  )
}

export const since = sinceRule('before')
export const sinceExcludesBound = sinceRule('at')

/**
 * The pages of one walk (the same query, each asking with the cursor the previous one returned) repeat no record
 * and keep the order across the page boundary. A record shown again with another updatedAt was changed during the
 * walk (under sort=updatedAt it moves): not a repeat. Writes seen to the collection between the two pages make the
 * boundary unprovable (an offset cursor shifts), so that pair is not judged.
 */
export const walk: TrafficRule = acrossExchanges(
  {
    id: 'traffic.list.walk',
    clauses: ['§4.1', '§9.2'],
    level: 'MUST',
    side: 'server',
    title: 'Consecutive pages of one query repeat no record and stay in order across the page boundary',
  },
  'collection',
  () => {
    const walks = new OpenWalks<Walked>()
    const writes = new WriteClock()
    return {
      observe(exchange, ctx: RuleContext) {
        if (writes.note(exchange, ctx.operation)) return
        const page = pageOf(exchange, ctx.operation)
        if (!page) return
        const previous = walks.follow(page)
        let ids = new Map<string, unknown>()
        if (previous) {
          ids = previous.ids
          if (writes.quietSince(page.resource, previous.exchange) && page.records.length > 0) {
            ctx.exercised()
            const repeated = page.records.find((r) => ids.has(String(r.id)) && ids.get(String(r.id)) === r.updatedAt)
            if (repeated) {
              ctx.violation({
                message: `${describe(exchange, page.operation)} shows ${repeated.id} again, already on an earlier page of the same walk (§4.1)`,
                expected: 'each record once in a walk by nextCursor (§4.1, §9.2)',
                exchanges: [previous.exchange, exchange],
              })
            } else {
              const asked = sortAsked(page.operation.query)
              const wrong = asked && previous.last ? firstMisordered([previous.last, page.records[0]!], asked.sort, asked.order) : undefined
              if (asked && wrong) {
                ctx.violation({
                  message: `${describe(exchange, page.operation)} starts with ${wrong.later.id} (${asked.sort} ${wrong.later[asked.sort]}), out of order after the previous page's last ${wrong.earlier.id} (${asked.sort} ${wrong.earlier[asked.sort]}) (§4.1)`,
                  expected: `the walk stays in sort=${asked.sort} order=${asked.order}`,
                  exchanges: [previous.exchange, exchange],
                })
              }
            }
          }
        }
        if (page.next === undefined) return
        for (const r of page.records) {
          ids.set(String(r.id), r.updatedAt)
          if (ids.size > MAX_WALK_IDS) ids.delete(ids.keys().next().value as string)
        }
        walks.hold(page, { exchange, ...(page.records.length > 0 ? { last: page.records.at(-1)! } : {}), ids })
      },
    }
  },
)

/** How long a complete listing is taken to show the collection: past it, a change no traffic showed may explain a difference. */
export const COMPLETE_LISTING_WINDOW_MS = 30_000

const LIST_SHAPING = new Set(['limit', 'sort', 'order'])

/** A complete listing: the whole collection as the key sees it on one page (no filter, no cursor, no nextCursor). */
export function isCompleteListing(page: Page): boolean {
  return page.next === undefined && Object.keys(page.operation.query).every((p) => LIST_SHAPING.has(p))
}

/** The last complete listing of each key's collection (at most 100 kept): what a later page of it is compared with. */
export class CompleteListings {
  private readonly seen = new BoundedMap<string, { exchange: TrafficExchange; records: AnyRecord[] }>(100)

  /** Keeps the page when it is a complete listing. */
  note(key: string, page: Page, exchange: TrafficExchange): void {
    if (isCompleteListing(page)) this.seen.set(`${key} ${page.resource}`, { exchange, records: page.records })
  }

  /**
   * The key's listing of the collection that still shows it when `exchange` is sent: answered before `follower`
   * was sent, at most COMPLETE_LISTING_WINDOW_MS before `exchange`, and no write to the collection seen since.
   */
  justBefore(
    key: string,
    resource: ResourceName,
    writes: WriteClock,
    follower: TrafficExchange,
    exchange: TrafficExchange,
  ): { exchange: TrafficExchange; records: AnyRecord[] } | undefined {
    const listing = this.seen.peek(`${key} ${resource}`)
    if (!listing || !endedBefore(listing.exchange, follower) || !writes.quietSince(resource, listing.exchange)) return undefined
    return timeOf(exchange.startedAt) - timeOf(listing.exchange.endedAt) <= COMPLETE_LISTING_WINDOW_MS ? listing : undefined
  }
}

/**
 * §4.3 filters are complete, not only sound: a filtered list leaves out no record that a complete listing of the
 * collection (one page, no filter, no cursor, no nextCursor) showed satisfying the filter, when the same key asked
 * both, no write to the collection was seen since, and the filtered page had room for every such record. This is
 * where a filter compared with the wrong case, or one whose index misses records, shows in passive traffic.
 */
export const filterComplete: TrafficRule = acrossExchanges(
  {
    id: 'traffic.list.filter-complete',
    clauses: ['§4.3', '§4.1'],
    level: 'MUST',
    side: 'server',
    title: 'A filtered list shows every record a complete listing just showed satisfying the filter (same key, no write between, room on the page)',
  },
  'collection',
  () => {
    const listings = new CompleteListings()
    const writes = new WriteClock()
    return {
      observe(exchange, ctx) {
        if (writes.note(exchange, ctx.operation)) return
        const resource = resourceOf(ctx.operation)
        const key = keyOf(exchange)
        if (!resource || ctx.operation.op !== 'list' || key === undefined) return
        const query = ctx.operation.query
        const spec = RESOURCES[resource]
        const asked = filtersAsked(spec, query)
        const params = Object.keys(query)
        const page = pageOf(exchange, ctx.operation)
        if (asked.length === 0) {
          if (page) listings.note(key, page, exchange)
          return
        }
        if (!page || !params.every((p) => LIST_SHAPING.has(p) || asked.some((a) => a.filter.param === p))) return
        const listing = listings.justBefore(key, resource, writes, exchange, exchange)
        if (!listing) return
        const size = requestedPageSize(query.limit)
        const expected = listing.records.filter((r) => typeof r.id === 'string' && asked.every((a) => recordMatches(a.filter, r, a.value)))
        if (size === undefined || expected.length > size) return
        ctx.exercised()
        const shown = new Set(page.records.map((r) => r.id))
        const missing = expected.find((r) => !shown.has(r.id))
        if (missing) {
          const field = asked[0]!.filter.field
          ctx.violation({
            message: `${describe(exchange, ctx.operation)} left out ${resource} ${JSON.stringify(missing.id)} (${field} ${JSON.stringify(missing[field] ?? null)}), which the complete listing just before showed satisfying it (§4.3 ${asked.map((a) => `${a.filter.param}: ${a.filter.meaning || 'exact value'}`).join('; ')})`,
            expected: `every record satisfying the filter: ${expected.length} shown by the complete listing (§4.3)`,
            exchanges: [listing.exchange, exchange],
          })
        }
      },
    }
  },
)

/** A limit the suite sends as out of range (an integer outside 1–100, or no number at all); other odd forms are not judged. */
function limitOutOfRange(limit: string | undefined): boolean {
  if (limit === undefined) return false
  if (/^-?\d+$/.test(limit.trim())) return requestedPageSize(limit) === undefined
  return !/\d/.test(limit)
}

export const badParameterRefused: TrafficRule = perExchange(
  {
    id: 'traffic.list.bad-parameter-refused',
    clauses: ['§4.1', '§8', '§3.3', '§7.3'],
    level: 'SHOULD',
    side: 'server',
    title: 'A list asking a limit outside 1–100, or an enumerated filter value not listed, is refused with 400 (invalid_request for the limit)',
  },
  (exchange, ctx) => {
    const resource = resourceOf(ctx.operation)
    const response = exchange.response
    if (!resource || ctx.operation.op !== 'list' || !response || response.truncated) return
    const query = ctx.operation.query
    const badLimit = limitOutOfRange(query.limit)
    // Not in the list whatever the case: a server reading `OPEN` as `open` is not judged (the suite sends neither).
    const unlisted = RESOURCES[resource].filters.find(
      (f) => f.kind === 'enum' && query[f.param] !== undefined && !(f.values ?? []).some((v) => v.toLowerCase() === query[f.param]!.toLowerCase()),
    )
    if (!badLimit && !unlisted) return
    if (!isVerdictOnInput(response.status)) return
    ctx.exercised()
    const asked = badLimit ? `limit=${query.limit}` : `${unlisted!.param}=${query[unlisted!.param]}`
    if (isSuccess(response.status)) {
      ctx.violation({
        message: `${describe(exchange, ctx.operation)} was answered ${response.status}: ${asked} is ${badLimit ? 'outside page size 1–100' : `not one of ${unlisted!.values!.join(', ')}`}`,
        expected: '400 with the error envelope (§7.3; pagination.limit.rejects-*, filters.*.rejects-unlisted)',
      })
      return
    }
    // pagination.params.invalid-request-code judges the code for list parameters; the filters' checks only observe it.
    const body = response.body
    const code = isObject(body) && isObject(body.error) ? body.error.code : undefined
    if (badLimit && code !== 'invalid_request')
      ctx.violation({
        message: `${describe(exchange, ctx.operation)}: the 400 for ${asked} has code ${JSON.stringify(code ?? null)}`,
        expected: 'code invalid_request (§7.3; pagination.params.invalid-request-code)',
      })
  },
)

export const LIST_RULES: TrafficRule[] = [pageSize, filtered, ordered, since, sinceExcludesBound, walk, filterComplete, badParameterRefused]
