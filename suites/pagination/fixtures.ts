// Shared data of the pagination area, made once per run: a collection known to hold more than one default page
// (found by listing), and a set of the run's own accounts isolated by the §4.3 parentId filter (children of one
// parent account), so that walks, orders and time bounds can be judged record by record; and at the run's end, a
// list of more than 100 of the run's own accounts (overPageList).
import { createRecord, runLabel, updateRecord, readUntil, walkAllPages, LIMITS, RESOURCES } from '../../src/checks/index.ts'
import { randomUUID } from 'node:crypto'
import type { CheckContext, ApiResponse, AnyRecord, ResourceName } from '../../src/checks/index.ts'

/** Collections probed for one holding more than a default page, most likely first (§4.2: users always exist). */
const PROBED: ResourceName[] = ['user', 'contact', 'account', 'case', 'activity']

/** More than a default page, with room for a record or two deleted meanwhile by another check. */
export const LARGE = LIMITS.pageSizeDefault + 2

export interface Probe {
  path: string
  /** Records on the first page of `limit=100`. */
  count: number
  /** A full page of 100 whose cursor leads to more records. */
  over100: boolean
  response: ApiResponse
}

export interface Probed {
  /** Every collection listed, in order, until one of more than 100 records was found. */
  probes: Probe[]
  /** The first collection with at least LARGE records, if any. */
  large?: Probe
  /** The first collection with more than 100 records, if any: where it exists, the run creates no list that big. */
  over100?: Probe
}

const nextCursorOf = (res: ApiResponse): string | undefined =>
  typeof res.body?.nextCursor === 'string' && res.body.nextCursor !== '' ? res.body.nextCursor : undefined

/** Lists collections with limit=100 until one holds more than a page of 100 (noting the first larger than a default page). Read only. */
export function probeCollections(ctx: CheckContext): Promise<Probed> {
  return ctx.session.memo('pagination.probe', async () => {
    const probes: Probe[] = []
    for (const name of PROBED) {
      const path = RESOURCES[name].path
      const response = await ctx.api.get(path, { limit: LIMITS.pageSizeMax })
      if (response.status !== 200 || !Array.isArray(response.body?.data)) continue
      const count = response.body.data.length as number
      let over100 = false
      const cursor = nextCursorOf(response)
      if (count === LIMITS.pageSizeMax && cursor !== undefined) {
        const next = await ctx.api.get(path, { limit: LIMITS.pageSizeMax, cursor })
        over100 = next.status === 200 && Array.isArray(next.body?.data) && next.body.data.length > 0
      }
      const probe = { path, count, over100, response }
      probes.push(probe)
      if (over100) return { probes, large: probes.find((p) => p.count >= LARGE), over100: probe }
    }
    return { probes, large: probes.find((p) => p.count >= LARGE) }
  })
}

export interface ChildSet {
  parentId: string
  /** A tier of the run's own, held by the parent and every third child: a second filter that narrows (§4.3). */
  tier: string
  /** The children as created, oldest first. */
  records: AnyRecord[]
  /** The query that lists exactly them (§4.3 accounts parentId: "child accounts of this account"). */
  query: { parentId: string }
}

/** Children created when a collection of more than a default page exists elsewhere. */
const FEW = 7

/**
 * The run's own accounts the over-page list holds at least: more than a page of 100, so that limit=100 and 101 are
 * judged on a list bigger than it (§4.1, §8), with room for a record another client deletes meanwhile.
 */
export const OVER_PAGE = LIMITS.pageSizeMax + 5

/** Whether a child carries the set's tier. */
export const hasTier = (index: number) => index % 3 === 0

/**
 * A parent account and its children, created one after the other (distinct createdAt). The second child is then
 * updated, so that updatedAt order differs from createdAt order and a server sorting by the wrong one is seen.
 */
export function childSet(ctx: CheckContext): Promise<ChildSet> {
  return ctx.session.memo('pagination.children', async () => {
    // More than a default page, for pagination.limit.default, unless a collection already holds one. The list of
    // more than 100 is made at the run's end (overPageList), out of every account the run still holds then.
    const { large } = await probeCollections(ctx)
    const size = large ? FEW : LARGE
    const tier = `crmconf-pg-${randomUUID().replace(/-/g, '').slice(0, 10)}`
    // The parent holds the tier but is no child of itself: only a query that applies both filters leaves it out.
    const { record: parent } = await createRecord(ctx, 'account', { name: runLabel(ctx, 'pagination parent'), tier })
    const records: AnyRecord[] = []
    for (let i = 0; i < size; i++) {
      if (i === Math.floor(size / 2)) await pastSharedTime(records)
      const body = { name: runLabel(ctx, `pagination child ${i + 1}`), parentId: parent.id, ...(hasTier(i) ? { tier } : {}) }
      records.push((await createRecord(ctx, 'account', body)).record)
    }
    await pastSharedTime(records)
    const touched = await updateRecord(ctx, 'account', records[1]!.id, { legalName: runLabel(ctx, 'pagination touched') })
    if (touched.ok && touched.body?.id === records[1]!.id) records[1] = touched.body
    await settled(ctx, parent.id, records)
    return { parentId: parent.id, tier, records, query: { parentId: parent.id } }
  })
}

/** Waited when a server's clock is coarser than the writes (§2 leaves a date-time's precision open: whole seconds). */
const CLOCK_STEP_MS = 1_100

/**
 * Records made within one tick of a coarse clock share one createdAt, and no order or bound can be seen among
 * them: when the last ones made share theirs, the next writes wait for the clock to move on.
 */
async function pastSharedTime(records: AnyRecord[]): Promise<void> {
  const [a, b] = records.slice(-2)
  if (a && b && Date.parse(a.createdAt) === Date.parse(b.createdAt)) await new Promise((r) => setTimeout(r, CLOCK_STEP_MS))
}

/**
 * Waits until the list shows every child as last written: lists fed by a search index may lag a write by a
 * moment, and the order and walk checks must judge the list, not the lag. A server that shows writes at once
 * pays one request; one that never shows them is left to the checks to judge.
 */
async function settled(ctx: CheckContext, parentId: string, records: AnyRecord[]): Promise<void> {
  // Pages of the default size at most: a server that ignores limit is judged by the checks, not waited for here.
  const pages = Math.ceil(records.length / LIMITS.pageSizeDefault) + 1
  // A walk the server refuses ends the wait: the checks judge that answer themselves.
  const read = () => walkAllPages(ctx.api, RESOURCES.account.path, { parentId, limit: LIMITS.pageSizeMax }, pages).catch(() => undefined)
  const showsAll = (walk: { records: AnyRecord[] } | undefined) =>
    walk === undefined || records.every((r) => walk.records.some((l) => l?.id === r.id && l?.updatedAt === r.updatedAt))
  await readUntil(ctx, read, showsAll)
}

export interface ListSource {
  path: string
  query: Record<string, string>
  /** Every record the query lists, as far as known; undefined when the collection is larger than a page of 100. */
  records?: AnyRecord[]
  /** The run's own records (isolated and still), or a collection of the server's as found (read-only profile). */
  own: boolean
}

/**
 * Where order and walk checks look: the run's own child set when the profile allows writing it; in the read-only
 * profile, the largest collection the probe listed (its first page of 100, when that was the whole collection).
 * Declared `writes: 'if-allowed'`, such checks write only through this, and never in the read-only profile.
 */
export async function listSource(ctx: CheckContext, minimum = 3): Promise<ListSource> {
  if (ctx.profile !== 'read-only') {
    const set = await childSet(ctx)
    return { path: RESOURCES.account.path, query: set.query, records: set.records, own: true }
  }
  const { probes } = await probeCollections(ctx)
  const largest = probes.reduce<Probe | undefined>((m, p) => (m === undefined || p.count > m.count ? p : m), undefined)
  if (!largest || largest.count < minimum) {
    ctx.skip(`no collection lists ${minimum} records or more (${probes.map((p) => `${p.path}: ${p.count}`).join(', ')}) and the read-only profile creates none`)
  }
  const first = largest!.response
  const cursor = nextCursorOf(first)
  // §4.1: the last page's cursor is not shown; one that leads to an empty page also ends the list.
  let whole = cursor === undefined
  if (!whole && first.body.data.length < LIMITS.pageSizeMax) {
    const next = await ctx.api.get(largest!.path, { limit: LIMITS.pageSizeMax, cursor })
    whole = next.status === 200 && Array.isArray(next.body?.data) && next.body.data.length === 0
  }
  return { path: largest!.path, query: {}, records: whole ? first.body.data : undefined, own: false }
}

/** Pages of 100 read to count the run's own accounts in the collection (more than OVER_PAGE, and room for others). */
const COUNTED_PAGES = 20

/**
 * GET /accounts, unfiltered, made to hold more than a page of 100 of the run's own accounts. Asked for at the end
 * of a run (phase `last`): every account the run's checks made and still hold counts, the child set included, and
 * only the rest is created here (about 35 creates and deletes in a full run, instead of 95 more children). At the
 * run's end no other check deletes an account; cleanup comes after.
 */
export function overPageList(ctx: CheckContext): Promise<{ path: string; own: number }> {
  return ctx.session.memo('pagination.over-page', async () => {
    const path = RESOURCES.account.path
    const ownListed = async () => {
      const walk = await walkAllPages(ctx.api, path, { limit: LIMITS.pageSizeMax }, COUNTED_PAGES)
      return walk.records.filter((r) => typeof r?.id === 'string' && ctx.session.ledger.created(r.id)).length
    }
    const listed = await ownListed()
    const made = Math.max(0, OVER_PAGE - listed)
    for (let i = 0; i < made; i++) await createRecord(ctx, 'account', { name: runLabel(ctx, `pagination over-page ${i + 1}`) })
    if (made === 0) return { path, own: listed }
    // A list that shows writes late is waited for, within the consistency window, like the child set.
    const { answer } = await readUntil(ctx, ownListed, (n) => n >= OVER_PAGE)
    return { path, own: answer }
  })
}
