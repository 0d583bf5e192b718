// Lists and gets of the collections the explorer cannot write (articles, users: no create in §4.2; messages: a
// create goes out through the conversation's channel, §1.6, so it is never sent): a page of what the target holds
// is read and mirrored into the model under the target's ids (World.mirror), then both sides are walked with one
// of the collection's §4.3 filters valued from a mirrored record, and each record shown by id. Membership and
// order are compared on the mirrored records only (the model holds its own seed besides; the target, records past
// the page). Reads only, so drawn in every profile that explores.
import fc from 'fast-check'
import { itemPath, queryValueFor, RESOURCES, type AnyRecord, type FilterSpec, type Query } from '../../src/checks/index.ts'
import { instantOf, membershipVerdict, orderedPairs, orderVerdict, pagesVerdict, statusVerdict, type WalkRead } from './contract.ts'
import type { ExploreModel, World } from './world.ts'

type Cmd = fc.AsyncCommand<ExploreModel, World>

export const READ_ONLY = ['article', 'user', 'message'] as const
type ReadOnly = (typeof READ_ONLY)[number]

/** The page mirrored: the newest records, as many as one request shows. */
const MIRRORED_PAGE = 100
/** Pages a filtered walk may read on the target: a large workspace's list is judged only when it ends within them. */
const MAX_PAGES = 5

const idOf = (r: AnyRecord | undefined) => String(r?.id).toLowerCase()

export class MirroredRead implements Cmd {
  constructor(
    readonly resource: ReadOnly,
    readonly filter: number,
    readonly record: number,
    readonly sort: 'createdAt' | 'updatedAt' | undefined,
    readonly order: 'asc' | 'desc' | undefined,
    readonly limit: number | undefined,
  ) {}
  check = () => true

  async run(_m: ExploreModel, w: World): Promise<void> {
    if (w.exhausted) return
    const path = RESOURCES[this.resource].path
    w.step(`${this}`)
    const page = await w.read('target', path, { limit: MIRRORED_PAGE })
    const modelPage = await w.read('model', path, { limit: MIRRORED_PAGE })
    w.judge(statusVerdict(`list ${path}?limit=${MIRRORED_PAGE}`, page, modelPage), 'status')
    const shown: AnyRecord[] = page.status === 200 && Array.isArray(page.body?.data) ? (page.body.data as AnyRecord[]) : []
    if (shown.length === 0) return
    for (const record of shown) await w.mirror(this.resource, record)
    const picked = shown[this.record % shown.length]!
    if (!w.exhausted) {
      const [t, o] = [await w.read('target', itemPath(this.resource, String(picked.id))), await w.read('model', itemPath(this.resource, String(picked.id)))]
      w.judge(statusVerdict(`get ${this.resource} ${String(picked.id)} (listed)`, t, o), 'status')
    }
    // The drawn filter, else the next one the picked record holds a value for (a null categoryId asks nothing).
    const filters = RESOURCES[this.resource].filters
    for (let k = 0; k < filters.length; k++) {
      const filter = filters[(this.filter + k) % filters.length]!
      const value = queryValue(filter, picked)
      if (value === undefined) continue
      if (!w.exhausted) await this.walkBoth(w, shown, filter, value)
      return
    }
  }

  private async walkBoth(w: World, shown: AnyRecord[], filter: FilterSpec, value: string): Promise<void> {
    const path = RESOURCES[this.resource].path
    // A user has no updatedAt (§2): what a sort by it orders is not shown, so the order is not compared there.
    const sortKey = this.sort ?? 'createdAt'
    const query: Query = { [filter.param]: value, sort: this.sort, order: this.order, limit: this.limit }
    const what = `list ${path}?${filter.param}=${value}${this.sort ? `&sort=${this.sort}` : ''}${this.order ? `&order=${this.order}` : ''}${this.limit ? `&limit=${this.limit}` : ''}`
    const model = await w.walk('model', this.resource, query, MAX_PAGES * 20)
    const target = await w.walk('target', this.resource, query, MAX_PAGES)
    w.judge(statusVerdict(what, { status: target.status, body: target.body }, { status: model.status, body: model.body }), 'status')
    if (target.status !== 200 || model.status !== 200) return
    w.judge(pagesVerdict(what, this.limit, target, sortKey), 'pages')
    if (!target.complete || !model.complete) return
    const index = new Map(shown.map((r, i) => [idOf(r), i]))
    const mirrored = (walk: WalkRead) => walk.pages.flat().flatMap((r) => (index.has(idOf(r)) ? [index.get(idOf(r))!] : []))
    const listed = mirrored(target)
    const expected = mirrored(model)
    // A record another client changed since the page was read may move in or out of the filter: read it again, and
    // leave its membership open when its filtered field no longer holds what was mirrored.
    const open = new Set<number>()
    const differing = [...new Set([...listed.filter((i) => !expected.includes(i)), ...expected.filter((i) => !listed.includes(i))])]
    for (const i of differing) {
      // Within the budget: a server that differs on a whole page costs no more than its budget allows.
      if (w.exhausted) {
        open.add(i)
        continue
      }
      const again = await w.read('target', itemPath(this.resource, String(shown[i]!.id)))
      if (again.status !== 200 || JSON.stringify(again.body?.[filter.field]) !== JSON.stringify(shown[i]![filter.field])) open.add(i)
    }
    w.compared('list-membership')
    w.judge(membershipVerdict(what, listed, expected, open))
    if (this.resource === 'user' && sortKey === 'updatedAt') return
    const at = (i: number) => instantOf(shown[i]![sortKey])
    if (orderedPairs(listed, expected, at) > 0) {
      w.compared('list-order')
      w.judge(orderVerdict(what, listed, expected, at))
    }
  }

  toString = () =>
    `read a page of ${this.resource}s, mirror it, and walk them by filter ${this.filter} of record ${this.record} ${JSON.stringify({ sort: this.sort, order: this.order, limit: this.limit })}`
}

/** The filter's value for a mirrored record: a uuid as shown, text in the form §4.3 asks. */
function queryValue(filter: FilterSpec, record: AnyRecord): string | undefined {
  const field = record[filter.field]
  if (filter.kind === 'uuid') return typeof field === 'string' && field !== '' ? field : undefined
  return queryValueFor(filter, field)
}

export function mirroredReadArbitrary(): fc.Arbitrary<Cmd> {
  return fc
    .tuple(
      fc.constantFrom(...READ_ONLY),
      fc.nat({ max: 20 }),
      fc.nat({ max: 1000 }),
      fc.option(fc.constantFrom<'createdAt' | 'updatedAt'>('createdAt', 'updatedAt'), { nil: undefined }),
      fc.option(fc.constantFrom<'asc' | 'desc'>('asc', 'desc'), { nil: undefined }),
      fc.option(fc.oneof(fc.integer({ min: 1, max: 3 }), fc.constant(100)), { nil: undefined }),
    )
    .map(([resource, filter, record, sort, order, limit]) => new MirroredRead(resource, filter, record, sort, order, limit))
}

/** Runs the command a sequence drew before, then a mirrored read in one sequence of four. */
class Then implements Cmd {
  constructor(
    readonly before: Cmd | undefined,
    readonly read: Cmd | undefined,
  ) {}
  check = () => true
  async run(m: ExploreModel, w: World): Promise<void> {
    await this.before?.run(m, w)
    await this.read?.run(m, w)
  }
  toString = () => [this.before, this.read].filter(Boolean).join('; ')
}

/**
 * The one line commands-more.ts adds, outermost: what the sequence drew before is drawn first and so stays as it
 * was (fast-check draws a tuple's parts in order); a mirrored read follows in one sequence of four.
 */
export function withMirroredReads(before: fc.Arbitrary<Cmd | undefined>): fc.Arbitrary<Cmd | undefined> {
  const read = fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: mirroredReadArbitrary(), weight: 1 })
  return fc.tuple(before, read).map(([b, r]) => (r === undefined ? b : new Then(b, r)))
}
