// Two rules of §4.1/§4.3/§9 at once, judged on the run's own child set (fixtures.ts): a filter that holds on every
// page of a walk, two filters that narrow together, and a sort=updatedAt walk of an incremental sync (§9.2) that
// keeps its order across pages; and limit=100 on the run's own list bigger than a page, made at the run's end.
import {
  defineCheck,
  walkListPages,
  readUntil,
  LIMITS,
  RESOURCES,
  firstMisordered,
  firstRepeated,
  firstUnmatched,
  shortOfLimit,
  sinceViolation,
} from '../../src/checks/index.ts'
import type { CheckContext, CheckDefinition, AnyRecord } from '../../src/checks/index.ts'
import { childSet, hasTier, overPageList, probeCollections, type ChildSet } from './fixtures.ts'
import { expectLaterPage, ids, listPage, moreAfter } from './pages.ts'

const area = 'pagination'
const ACCOUNTS = RESOURCES.account.path
type Walk = Awaited<ReturnType<typeof walkListPages>>

/** The page size of a walk over `count` records that takes at least three pages (first, middle, last). */
export const walkLimit = (count: number) => Math.max(2, Math.ceil(count / 3) - 1)

/**
 * The page size of a complete walk over `size` records: about four pages, and below the default page size, so
 * that a server ignoring limit (pages of 25) shows it.
 */
export const childWalkLimit = (size: number) => (size <= 10 ? 3 : Math.min(Math.ceil(size / 4), LIMITS.pageSizeDefault - 1))

/** Enough pages for `count` records at `limit`, and two more: a walk that goes on is the server's fault. */
const pagesFor = (count: number, limit: number) => Math.ceil(count / limit) + 2

/** Records a createdSince walk expects after its bound: more than a page of two, so that a later page is read. */
const AFTER_BOUND = 3

/**
 * The walk of the child set by its parentId filter that pagination.cursor.walk-complete judges for completeness,
 * made once and judged here for the filter on every page: one walk, two judgements, no extra request.
 */
export function childWalk(ctx: CheckContext, set: ChildSet, limit: number, maxPages: number): Promise<Walk> {
  return ctx.session.memo(`pagination.child-walk:${limit}`, () => walkListPages(ctx.api, ACCOUNTS, { ...set.query, limit }, maxPages))
}

/** The children the list does not show (by id), quoted in a failure. */
const missingFrom = (expected: AnyRecord[], listed: AnyRecord[]) => {
  const seen = new Set(listed.map((r) => String(r?.id).toLowerCase()))
  return expected.filter((r) => !seen.has(String(r.id).toLowerCase())).map((r) => String(r.id))
}

/**
 * Fails when records the walk must list never appear: `of` names them for the message ("12 children"), the first
 * three missing ids are quoted, the last two pages are the evidence (the walk stopped short there).
 */
function expectNoneMissing(
  ctx: CheckContext,
  walk: Walk,
  expected: AnyRecord[],
  words: { what: string; of: string; clauses: string; expected: string },
  data?: (missing: string[]) => Record<string, unknown>,
): void {
  const missing = missingFrom(expected, walk.records)
  if (missing.length > 0) {
    ctx.fail(`${words.what}: ${missing.length} of ${words.of} never appear: ${missing.slice(0, 3).join(', ')} (${words.clauses})`, {
      expected: words.expected,
      exchanges: walk.pages.slice(-2).map((p) => p.exchange),
      ...(data && { data: data(missing) }),
    })
  }
}

const pageNote = (walk: Walk, index: number) => `page ${index + 1} of ${walk.pages.length}${index === walk.pages.length - 1 ? ' (the last)' : ''}`

/** Fails on the first record of any page that a filter of the query does not match (§4.3 on every page). */
function expectFilteredEveryPage(ctx: CheckContext, walk: Walk, query: Record<string, string>, what: string): void {
  walk.pages.forEach((page, i) => {
    const wrong = firstUnmatched(RESOURCES.account, query, page.body.data)
    if (wrong) {
      ctx.fail(
        `${what}: ${pageNote(walk, i)} lists account ${wrong.record.id}, whose ${wrong.filter.field} is ${JSON.stringify(wrong.record[wrong.filter.field])}, not ${wrong.value} (§4.3, §4.1)`,
        {
          expected: `every page of the walk holds only records the query's filters match: a cursor carries the list on, not a new list (§4.1 cursor, §4.3)`,
          exchanges: [walk.pages[0]!.exchange, page.exchange],
        },
      )
    }
  })
  const repeated = firstRepeated(walk.pages.map((p) => p.body.data))
  if (repeated) {
    ctx.fail(`${what}: account ${repeated.id} is listed on page ${repeated.first + 1} and again on page ${repeated.again + 1} (§9.2)`, {
      expected: 'each record once across the pages of a walk',
      exchanges: [walk.pages[repeated.first]!.exchange, walk.pages[repeated.again]!.exchange],
    })
  }
}

const hundredFull = defineCheck({
  id: 'pagination.limit.hundred-full',
  clauses: ['§4.1', '§8'],
  level: 'MUST',
  area,
  writes: 'if-allowed',
  title: 'limit=100 on a list of more than 100 records returns a page of exactly 100, and its nextCursor leads to the rest',
  // The list of more than 100 is made of every account the run still holds at its end (fixtures.ts overPageList).
  phase: 'last',
  async run(ctx) {
    const { probes, over100: over } = await probeCollections(ctx)
    if (over) {
      ctx.observe('collection', over.path)
      return
    }
    // A probe that saw fewer than 100 with more to follow is judged by the child set below, when it may be written.
    if (ctx.profile === 'read-only') {
      const short = probes.find((p) => p.count < LIMITS.pageSizeMax && moreAfter(p.response))
      if (short) ctx.observe('shortPageWithCursor', `${short.path}: ${short.count}`)
      ctx.skip(`no collection holds more than ${LIMITS.pageSizeMax} records and the read-only profile creates none`)
    }
    const list = await overPageList(ctx)
    ctx.observe('collection', `${ACCOUNTS} (at least ${list.own} records of the run's own)`)
    const first = await listPage(ctx, ACCOUNTS, { limit: LIMITS.pageSizeMax })
    const n = first.body.data.length
    const more = moreAfter(first)
    const next = more ? await listPage(ctx, ACCOUNTS, { limit: LIMITS.pageSizeMax, cursor: first.body.nextCursor as string }) : undefined
    const following = next?.body.data.length ?? 0
    const problem = shortOfLimit(LIMITS.pageSizeMax, n, following > 0) ?? (n === LIMITS.pageSizeMax && following === 0 ? 'the rest never follows' : undefined)
    if (problem !== undefined) {
      ctx.fail(
        `limit=${LIMITS.pageSizeMax} on a list of at least ${list.own} accounts returned ${n} records${more ? `, and the next page ${following}` : ' and no nextCursor to the rest'}: ${problem}`,
        {
          expected: `limit: page size 1–100 (§4.1): a page of 100, then a page with the remaining ${list.own - LIMITS.pageSizeMax} or more`,
          exchanges: [first.exchange, ...(next ? [next.exchange] : [])],
        },
      )
    }
  },
})

const filterEveryPage = defineCheck({
  id: 'pagination.cursor.filter-every-page',
  clauses: ['§4.1', '§4.3', '§9.2'],
  level: 'MUST',
  area,
  writes: 'safe',
  title: 'A filtered list walked by nextCursor keeps the filter on every page, the last one too, and lists each matching record once',
  async run(ctx) {
    const set = await childSet(ctx)
    const size = set.records.length
    const limit = childWalkLimit(size)
    const walk = await childWalk(ctx, set, limit, pagesFor(size, limit))
    ctx.observe('pages', walk.pages.length)
    const what = `GET ${ACCOUNTS}?parentId=${set.parentId}&limit=${limit} walked by nextCursor`
    expectFilteredEveryPage(ctx, walk, set.query, what)
    expectNoneMissing(ctx, walk, set.records, { what, of: `${size} children`, clauses: '§4.3, §9.2', expected: 'every child account once across the pages' })
    expectLaterPage(ctx, walk, what)
  },
})

const filterPair = defineCheck({
  id: 'pagination.filters.pair-narrows',
  clauses: ['§4.3', '§4.1'],
  level: 'MUST',
  area,
  writes: 'safe',
  title:
    'Two filters given together both hold on every record of every page (parentId and tier): the parent holding the tier and the children without it are left out',
  async run(ctx) {
    const set = await childSet(ctx)
    const query = { ...set.query, tier: set.tier }
    const expected = set.records.filter((_, i) => hasTier(i))
    const limit = walkLimit(expected.length)
    const what = `GET ${ACCOUNTS}?parentId=${set.parentId}&tier=${set.tier}&limit=${limit} walked by nextCursor`
    // Judged on every read; a list that lags behind a filter it indexes apart is read again until it shows them all.
    const { answer: walk } = await readUntil(
      ctx,
      async () => {
        const walk = await walkListPages(ctx.api, ACCOUNTS, { ...query, limit }, pagesFor(set.records.length + 1, limit))
        expectFilteredEveryPage(ctx, walk, query, what)
        return walk
      },
      (walk) => missingFrom(expected, walk.records).length === 0,
    )
    ctx.observe('pages', walk.pages.length)
    expectNoneMissing(ctx, walk, expected, {
      what,
      of: `the ${expected.length} children holding the tier`,
      clauses: '§4.3',
      expected: 'every record both filters match',
    })
    expectLaterPage(ctx, walk, what)
  },
})

const updatedAtWalk = defineCheck({
  id: 'pagination.sort.updatedAt-walk',
  clauses: ['§9.2', '§4.1'],
  level: 'MUST',
  area,
  writes: 'safe',
  title:
    'An incremental sync (updatedSince with sort=updatedAt&order=asc) walked by nextCursor keeps updatedAt order across pages and lists every record changed after the bound once',
  async run(ctx) {
    const set = await childSet(ctx)
    const known = [...set.records].sort((a, b) => Date.parse(a.updatedAt) - Date.parse(b.updatedAt))
    const since = String(known[Math.floor(known.length / 4)]!.updatedAt)
    const bound = Date.parse(since)
    // Records changed by another check meanwhile only move later: each one known to be after the bound stays so.
    const expected = known.filter((r) => Date.parse(r.updatedAt) > bound)
    const limit = walkLimit(expected.length)
    const walk = await walkListPages(
      ctx.api,
      ACCOUNTS,
      { ...set.query, updatedSince: since, sort: 'updatedAt', order: 'asc', limit },
      pagesFor(known.length, limit),
    )
    ctx.observe('pages', walk.pages.length)
    const what = `GET ${ACCOUNTS}?parentId=…&updatedSince=${since}&sort=updatedAt&order=asc&limit=${limit} walked by nextCursor`
    const ex = (i: number) => walk.pages[i]!.exchange
    walk.pages.forEach((page, i) => {
      const early = sinceViolation('updatedSince', since, page.body.data)
      if (early?.kind === 'before') {
        ctx.fail(`${what}: ${pageNote(walk, i)} lists ${early.record.id}, changed before the bound (${early.record.updatedAt}) (§4.1, §9.2)`, {
          expected: '§4.1 updatedSince: only records changed after this time, on every page',
          exchanges: [ex(0), ex(i)],
        })
      }
    })
    const wrong = firstMisordered(walk.records, 'updatedAt', 'asc')
    if (wrong) {
      const pageOf = (r: AnyRecord) => walk.pages.findIndex((p) => p.body.data.includes(r))
      ctx.fail(
        `${what}: ${wrong.later.id} (updatedAt ${wrong.later.updatedAt}, page ${pageOf(wrong.later) + 1}) follows ${wrong.earlier.id} (${wrong.earlier.updatedAt}, page ${pageOf(wrong.earlier) + 1}) (§4.1, §9.2)`,
        {
          expected: 'updatedAt non-decreasing down the pages: the cursor carries the sort it was issued for',
          exchanges: [...new Set([ex(pageOf(wrong.earlier)), ex(pageOf(wrong.later))])],
        },
      )
    }
    const repeated = firstRepeated(
      walk.pages.map((p) => p.body.data),
      'updatedAt',
    )
    if (repeated) {
      ctx.fail(`${what}: ${repeated.id} is listed on page ${repeated.first + 1} and again, unchanged, on page ${repeated.again + 1} (§9.2)`, {
        expected: 'each change once across the pages of a sync',
        exchanges: [ex(repeated.first), ex(repeated.again)],
      })
    }
    expectNoneMissing(
      ctx,
      walk,
      expected,
      {
        what,
        of: `${expected.length} accounts changed after the bound`,
        clauses: '§9.2',
        expected: '§9.2: incremental sync with updatedSince and sort=updatedAt returns every change after the bound',
      },
      (missing) => ({ missing, listed: ids(walk.records).length }),
    )
    expectLaterPage(ctx, walk, what)
  },
})

const createdSinceWalk = defineCheck({
  id: 'pagination.createdSince.walk',
  clauses: ['§4.1', '§9.2'],
  level: 'MUST',
  area,
  writes: 'safe',
  title: 'A createdSince list walked by nextCursor (limit=2, newest first) keeps the bound on every page and lists every record created after it once',
  async run(ctx) {
    const set = await childSet(ctx)
    const known = [...set.records].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt))
    const after = (bound: AnyRecord) => known.filter((r) => Date.parse(r.createdAt) > Date.parse(bound.createdAt))
    // The latest bound with enough records after it: the first page is the newest, the later ones come up to the bound.
    const bound = known.findLast((r) => after(r).length >= AFTER_BOUND)
    if (!bound) return ctx.skip(`fewer than ${AFTER_BOUND} of the ${known.length} isolated accounts have distinct createdAt: no bound leaves a later page`)
    const since = String(bound.createdAt)
    const expected = after(bound)
    const limit = 2
    const walk = await walkListPages(ctx.api, ACCOUNTS, { ...set.query, createdSince: since, limit }, pagesFor(expected.length, limit))
    ctx.observe('pages', walk.pages.length)
    const what = `GET ${ACCOUNTS}?parentId=…&createdSince=${since}&limit=${limit} walked by nextCursor`
    walk.pages.forEach((page, i) => {
      const early = sinceViolation('createdSince', since, page.body.data)
      if (early?.kind === 'before') {
        ctx.fail(`${what}: ${pageNote(walk, i)} lists ${early.record.id}, created before the bound (${early.record.createdAt}) (§4.1)`, {
          expected: '§4.1 createdSince: only records created after this time, on every page: the cursor carries the bound on',
          exchanges: [walk.pages[0]!.exchange, page.exchange],
        })
      }
    })
    const repeated = firstRepeated(walk.pages.map((p) => p.body.data))
    if (repeated) {
      ctx.fail(`${what}: ${repeated.id} is listed on page ${repeated.first + 1} and again on page ${repeated.again + 1} (§9.2)`, {
        expected: 'each record once across the pages of a walk',
        exchanges: [walk.pages[repeated.first]!.exchange, walk.pages[repeated.again]!.exchange],
      })
    }
    expectNoneMissing(ctx, walk, expected, {
      what,
      of: `${expected.length} accounts created after the bound`,
      clauses: '§4.1',
      expected: '§4.1 createdSince: every record created after this time, across the pages',
    })
    expectLaterPage(ctx, walk, what)
  },
})

export const walkChecks: CheckDefinition[] = [hundredFull, filterEveryPage, filterPair, updatedAtWalk, createdSinceWalk]
