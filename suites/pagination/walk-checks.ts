// §4.1 and §9.2, the walk and the order of one list: a complete walk by nextCursor (every record once, a string
// nextCursor on every page but the last) and sort/order on createdAt and updatedAt, with the default order. The
// walks of the run's own child set are in walks.ts; the other pagination checks, and their order, in checks.ts.
import { defineCheck, observeWalkEnd, walkAllPages, walkListPages, LIMITS, distinctInstants, firstMisordered, firstRepeated } from '../../src/checks/index.ts'
import type { CheckContext, CheckDefinition, ApiResponse, AnyRecord, Exchange, Order, SortKey } from '../../src/checks/index.ts'
import { childSet, listSource, type ListSource } from './fixtures.ts'
import { expectLaterPage, ids, listPage } from './pages.ts'
import { childWalk, childWalkLimit } from './walks.ts'

const area = 'pagination'
type Walk = Awaited<ReturnType<typeof walkAllPages>>

/** Pages walked at most when the collection is larger than a page of 100 (no complete list to compare with). */
const OPEN_WALK_PAGES = 4

/** The records a walk of `src` expects: all it lists when they are known, else a page of 100 (there are more). */
const sizeOf = (src: ListSource): number => src.records?.length ?? LIMITS.pageSizeMax

/** The pages a walk of `src` by `limit` takes before it is judged endless (§9.2): all of them and two more, when known. */
const maxPagesOf = (src: ListSource, limit: number): number => (src.records ? Math.ceil(sizeOf(src) / limit) + 2 : OPEN_WALK_PAGES)

export const walkComplete = defineCheck({
  id: 'pagination.cursor.walk-complete',
  clauses: ['§4.1', '§9.2'],
  level: 'MUST',
  area,
  writes: 'if-allowed',
  title: 'Following nextCursor with a small limit visits every record of a list exactly once',
  async run(ctx) {
    const src = await listSource(ctx)
    const known = src.records
    const size = sizeOf(src)
    const limit = childWalkLimit(size)
    const maxPages = maxPagesOf(src, limit)
    // The run's own set is walked once for this check and pagination.cursor.filter-every-page.
    const walk = src.own
      ? await childWalk(ctx, await childSet(ctx), limit, maxPages)
      : await walkListPages(ctx.api, src.path, { ...src.query, limit }, maxPages)
    observeWalkEnd(ctx, walk)
    ctx.observe('lastPage', walk.end)
    ctx.observe('pages', walk.pages.length)
    const evidence = walk.pages.slice(0, 4).map((p) => p.exchange)
    if (walk.end === 'max-pages' && known)
      ctx.fail(`the walk of ${size} records with limit=${limit} did not end after ${walk.pages.length} pages (§9.2)`, { exchanges: evidence })
    const big = walk.pages.findIndex((p) => p.body.data.length > limit)
    if (big >= 0)
      ctx.fail(`page ${big + 1} holds ${walk.pages[big]!.body.data.length} records with limit=${limit} (§4.1)`, { exchanges: [walk.pages[big]!.exchange] })
    const seen = new Map<string, number>()
    walk.pages.forEach((page, i) => {
      for (const id of ids(page.body.data)) {
        if (seen.has(id)) {
          ctx.fail(`record ${id} appears on page ${seen.get(id)! + 1} and again on page ${i + 1} (§9.2)`, {
            expected: 'each record exactly once across the pages of a walk',
            exchanges: [walk.pages[seen.get(id)!]!.exchange, page.exchange],
          })
        }
        seen.set(id, i)
      }
    })
    if (known) await expectNoneMissingOf(ctx, src, known, seen, evidence)
    expectLaterPage(ctx, walk, `the walk of ${src.path} with limit=${limit}`)
  },
})

/** Each record of a list known whole appears in its walk (`seen`, by id); one that is gone meanwhile is no gap. */
async function expectNoneMissingOf(ctx: CheckContext, src: ListSource, known: AnyRecord[], seen: Map<string, number>, evidence: Exchange[]): Promise<void> {
  const size = known.length
  let missing = ids(known).filter((id) => !seen.has(id))
  // A collection of the server's own may lose a record meanwhile: one that is gone is no gap.
  if (!src.own) {
    const gone = new Set<string>()
    for (const id of missing.slice(0, 3)) if ((await ctx.api.get(`${src.path}/${encodeURIComponent(id)}`)).status === 404) gone.add(id)
    missing = missing.filter((id) => !gone.has(id))
  }
  if (missing.length > 0) {
    ctx.fail(`${missing.length} of ${size} records never appear in the walk: ${missing.slice(0, 3).join(', ')} (§9.2)`, {
      expected: 'each record exactly once across the pages of a walk',
      exchanges: evidence,
      data: { missing },
    })
  }
}

export const cursorOnEveryPage = defineCheck({
  id: 'pagination.cursor.string-on-every-page',
  clauses: ['§2', '§4.1'],
  level: 'MUST',
  area,
  writes: 'if-allowed',
  title: 'Every page of a list carries nextCursor as a string, the last page too ("" or any other string)',
  async run(ctx) {
    const src = await listSource(ctx)
    const limit = Math.max(2, Math.ceil(sizeOf(src) / 3))
    const walk = await walkAllPages(ctx.api, src.path, { ...src.query, limit }, maxPagesOf(src, limit))
    ctx.observe('pages', walk.pages.length)
    ctx.observe('lastPage', walk.end)
    // §4.1 leaves the last page's value open, not its type: §2 and §4.1 give the envelope as { data, nextCursor: string }.
    const bad = walk.pages.findIndex((p) => typeof p.body?.nextCursor !== 'string')
    if (bad >= 0) {
      const page = walk.pages[bad]!
      const shown = 'nextCursor' in page.body ? JSON.stringify(page.body.nextCursor) : 'absent'
      ctx.fail(
        `page ${bad + 1} of ${walk.pages.length}${bad === walk.pages.length - 1 ? ' (the last)' : ''} of ${src.path} with limit=${limit}: nextCursor is ${shown}, expected a string (§2, §4.1)`,
        {
          expected: '{ data: record[], nextCursor: string } on every page; only the value on the last page is not shown, e.g. ""',
          exchanges: [page.exchange],
        },
      )
    }
    if (walk.pages.length < 2) ctx.skip(`the walk of ${src.path} with limit=${limit} ended on its first page: no later page's nextCursor was seen`)
  },
})

/** The source listed in one order; skips when its timestamps cannot show an order. */
async function orderedList(ctx: CheckContext, key: SortKey, query: Record<string, string>): Promise<ApiResponse & { body: { data: AnyRecord[] } }> {
  const src = await listSource(ctx, 2)
  const res = await listPage(ctx, src.path, { ...src.query, limit: LIMITS.pageSizeMax, ...query })
  if (distinctInstants(res.body.data, key) < 2) ctx.skip(`the ${res.body.data.length} records listed share one ${key}: no order can be seen`)
  return res
}

/** The walk past the first page: limit=2 for three pages (§4.1 "sort", "order" hold for the list, not a page). */
const WALK_LIMIT = 2
const WALK_PAGES = 3

/** sort=updatedAt&order=asc is walked across pages by pagination.sort.updatedAt-walk (an incremental sync, §9.2). */
const walkedHere = (key: SortKey, order: Order) => !(key === 'updatedAt' && order === 'asc')

/** Whether `a` comes strictly before `b` in the order asked (ties are in any order). */
const before = (a: AnyRecord, b: AnyRecord, key: SortKey, order: Order) =>
  order === 'asc' ? Date.parse(a[key]) < Date.parse(b[key]) : Date.parse(a[key]) > Date.parse(b[key])

/**
 * The same list walked by nextCursor with limit=2: the records of the pages, in turn, keep the order, none comes
 * twice, and (createdAt never changes; the run's own set loses no record) none of the whole list that comes before
 * the walk's last record is left out. A server that sorts each page alone, or reads a later page in another
 * order, breaks it on the second or third page.
 */
async function expectOrderAcrossPages(ctx: CheckContext, key: SortKey, order: Order, whole: ApiResponse & { body: { data: AnyRecord[] } }): Promise<void> {
  const src = await listSource(ctx, 2)
  const walk = await walkListPages(ctx.api, src.path, { ...src.query, sort: key, order, limit: WALK_LIMIT }, WALK_PAGES)
  ctx.observe('walkPages', walk.pages.length)
  const what = `sort=${key}&order=${order}&limit=${WALK_LIMIT} walked by nextCursor`
  const pageOf = (r: AnyRecord) => walk.pages.findIndex((p) => p.body.data.includes(r)) + 1
  const wrong = firstMisordered(walk.records, key, order)
  if (wrong) {
    ctx.fail(
      `${what}: ${wrong.later.id} (${key} ${wrong.later[key]}, page ${pageOf(wrong.later)}) follows ${wrong.earlier.id} (${wrong.earlier[key]}, page ${pageOf(wrong.earlier)}) (§4.1)`,
      {
        expected: `${key} ${order === 'asc' ? 'non-decreasing' : 'non-increasing'} down the pages: the list is sorted, not each page`,
        exchanges: walk.pages.map((p) => p.exchange),
      },
    )
  }
  const repeated = firstRepeated(
    walk.pages.map((p) => p.body.data),
    key,
  )
  if (repeated) {
    ctx.fail(`${what}: ${repeated.id} is listed on page ${repeated.first + 1} and again on page ${repeated.again + 1} (§4.1, §9.2)`, {
      expected: 'each record once across the pages of a walk',
      exchanges: walk.pages.map((p) => p.exchange),
    })
  }
  const last = walk.records.at(-1)
  if (src.own && key === 'createdAt' && last) expectNoneSkipped(ctx, what, whole, walk, last, key, order)
  expectLaterPage(ctx, walk, what)
}

/** No record of the whole list that comes before the walk's last record is left out of its pages. */
function expectNoneSkipped(
  ctx: CheckContext,
  what: string,
  whole: ApiResponse & { body: { data: AnyRecord[] } },
  walk: Walk,
  last: AnyRecord,
  key: SortKey,
  order: Order,
): void {
  const pageOf = (r: AnyRecord) => walk.pages.findIndex((p) => p.body.data.includes(r)) + 1
  const walked = new Set(ids(walk.records))
  const skipped = whole.body.data.find((r: AnyRecord) => before(r, last, key, order) && !walked.has(String(r.id)))
  if (skipped) {
    ctx.fail(
      `${what}: ${skipped.id} (${key} ${skipped[key]}) comes before ${last.id} (${last[key]}, page ${pageOf(last)}) in the list, and no page holds it (§4.1)`,
      {
        expected: `the pages hold the list's records in its ${key} order, none left out`,
        exchanges: [whole.exchange, ...walk.pages.map((p) => p.exchange)],
      },
    )
  }
}

export function sortOrder(key: SortKey, order: Order): CheckDefinition {
  const walks = walkedHere(key, order)
  return defineCheck({
    id: `pagination.sort.${key}-${order}`,
    clauses: ['§4.1'],
    level: 'MUST',
    area,
    writes: 'if-allowed',
    title: `sort=${key}&order=${order} lists records ${order === 'asc' ? 'oldest' : 'newest'} ${key} first (ties in any order)${walks ? `, on the first page and across the pages of a walk by nextCursor (limit=${WALK_LIMIT})` : ''}`,
    async run(ctx) {
      const res = await orderedList(ctx, key, { sort: key, order })
      const wrong = firstMisordered(res.body.data, key, order)
      if (wrong) {
        ctx.fail(`with sort=${key}&order=${order}, ${wrong.later.id} (${key} ${wrong.later[key]}) follows ${wrong.earlier.id} (${wrong.earlier[key]}) (§4.1)`, {
          expected: `${key} ${order === 'asc' ? 'non-decreasing' : 'non-increasing'} down the page`,
          exchanges: [res.exchange],
        })
      }
      if (walks) await expectOrderAcrossPages(ctx, key, order, res)
    },
  })
}

export const sortDefault = defineCheck({
  id: 'pagination.sort.default',
  clauses: ['§4.1'],
  level: 'MUST',
  area,
  writes: 'if-allowed',
  title: 'Without sort and order, lists are newest createdAt first (sort default createdAt, order default desc)',
  async run(ctx) {
    const res = await orderedList(ctx, 'createdAt', {})
    const wrong = firstMisordered(res.body.data, 'createdAt', 'desc')
    if (wrong) {
      ctx.fail(
        `without sort and order, ${wrong.later.id} (createdAt ${wrong.later.createdAt}) follows ${wrong.earlier.id} (createdAt ${wrong.earlier.createdAt}) (§4.1)`,
        {
          expected: 'sort default createdAt, order default desc (§4.1)',
          exchanges: [res.exchange],
        },
      )
    }
  },
})
