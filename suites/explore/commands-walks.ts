// A list walk interleaved with writes: between its pages the explorer creates, updates or deletes one of its own
// records of the walked collection, on both sides, then walks on with the cursor each side handed out. The
// contract (interleavedVerdict in contract.ts) compares what the spec fixes for such a walk and leaves the rest.
import fc from 'fast-check'
import { RESOURCES, type AnyRecord } from '../../src/checks/index.ts'
import { Create, Delete, EXPLORED, focus, List, listShape, Update, type Explorable, type ListShape } from './commands.ts'
import { interleavedVerdict, pageSizeVerdict, statusVerdict, type Answer } from './contract.ts'
import { createBody, updateBody } from './values.ts'
import type { ExploreModel, World } from './world.ts'

/** Pages at most per walk, as the plain walks (commands.ts). */
const MAX_PAGES = 30

type Explored = (typeof EXPLORED)[number]

/** One write between two pages: after page `after` (1 = after the first), on a record the walk already showed when it can. */
export interface MidWalkWrite {
  after: number
  op: 'create' | 'update' | 'delete'
  pick: number
  /** Bodies for every collection it may walk: the walked one is known only when the command runs. */
  bodies: Partial<Record<Explorable, AnyRecord>>
}

interface Side {
  pages: AnyRecord[][]
  cursor?: string
  done: boolean
  status: number
  body?: unknown
}

export class InterleavedWalk implements fc.AsyncCommand<ExploreModel, World> {
  constructor(
    readonly shape: ListShape,
    readonly writes: MidWalkWrite[],
  ) {}
  check = (m: Readonly<ExploreModel>) => m.own.length > 0
  async run(m: ExploreModel, w: World): Promise<void> {
    if (w.exhausted) return
    const resource = focus(m, this.shape.resource)
    const queries = new List(this.shape).queries(m, resource)
    if (!queries) return
    const [tq, mq, open] = queries
    const path = RESOURCES[resource].path
    w.step(`${this}`)
    const what = `walk ${path} with writes between pages ${JSON.stringify({ ...this.shape, resource })}`
    // Present before the walk, of its collection, not at a since bound's very instant, and shown by a plain read of
    // the same list just before (a list may show a write late, CRM_CONSISTENCY_WINDOW_MS): the records it judges.
    const listed = await w.walk('target', resource, { ...tq, limit: 100 }, MAX_PAGES)
    if (listed.status !== 200 || !listed.complete) return
    const indexed = new Set(listed.pages.flat().map((r) => String(r?.id).toLowerCase()))
    const before = m.own.flatMap((o, i) => (o.alive && o.resource === resource && !open.has(i) && indexed.has(o.t.toLowerCase()) ? [i] : []))
    const touched = new Set<number>()
    const t: Side = { pages: [], done: false, status: 200 }
    const o: Side = { pages: [], done: false, status: 200 }
    for (let page = 0; page < MAX_PAGES && !(t.done && o.done); page++) {
      if (page > 0) {
        for (const write of this.writes.filter((x) => x.after === page)) await this.write(write, m, w, resource, t, touched)
        w.step(`${what}, page ${page + 1}`)
      }
      const [ta, oa] = [t.done ? undefined : await this.next(w, 'target', path, tq, t), o.done ? undefined : await this.next(w, 'model', path, mq, o)]
      // A side already at its last page is judged against the model's every-page answer: 200.
      if (ta) w.judge(statusVerdict(`${what}, page ${page + 1}`, ta, oa ?? { status: 200, body: undefined }), 'status')
      if (ta?.status === 200) w.judge(pageSizeVerdict(`${what}, page ${page + 1}`, this.shape.limit, t.pages.at(-1)!.length), 'pages')
    }
    if (!t.done || !o.done || t.status !== 200 || o.status !== 200) return
    const shown = (side: Side, id: (i: number) => string) => {
      const ids = side.pages.flat().map((r) => String(r?.id).toLowerCase())
      return (i: number) => ids.filter((x) => x === id(i).toLowerCase()).length
    }
    const [tCount, mCount] = [shown(t, (i) => m.own[i]!.t), shown(o, (i) => m.own[i]!.m)]
    // Where the model's walk shows the record once; a record the model leaves out is the plain walks' to judge.
    const counts = before.filter((i) => !touched.has(i) && mCount(i) === 1).map((index) => ({ index, target: tCount(index), model: mCount(index) }))
    w.judge(interleavedVerdict(what, counts), counts.length > 0 ? 'walk-writes' : undefined)
  }

  /** The next page of one side's walk; marks the side done on its last page or a refusal. */
  private async next(w: World, side: 'target' | 'model', path: string, query: Record<string, unknown>, s: Side): Promise<Answer> {
    const answer = await w.read(side, path, { ...query, ...(s.cursor === undefined ? {} : { cursor: s.cursor }) } as never)
    s.status = answer.status
    if (answer.status !== 200 || !Array.isArray(answer.body?.data)) {
      s.done = true
      s.body = answer.body
      return answer
    }
    const data = answer.body.data as AnyRecord[]
    s.pages.push(data)
    const next = answer.body.nextCursor
    if (typeof next !== 'string' || next === '' || data.length === 0) s.done = true
    else s.cursor = next
    return answer
  }

  /** One write between pages, through the plain commands (each judges its own write and read-back). */
  private async write(write: MidWalkWrite, m: ExploreModel, w: World, resource: Explorable, t: Side, touched: Set<number>): Promise<void> {
    const body = write.bodies[resource]
    // A walk moved to another collection than the one its bodies were drawn for writes nothing but deletes.
    if (body === undefined && write.op !== 'delete') return
    if (write.op === 'create') {
      await new Create(resource, body!, write.pick).run(m, w)
      return
    }
    // A record the walk already showed: a delete then shifts what an offset would count.
    const seen = new Set(t.pages.flat().map((r) => String(r?.id).toLowerCase()))
    const candidates = m.own.flatMap((own, i) => (own.alive && own.resource === resource ? [i] : []))
    const shownOnes = candidates.filter((i) => seen.has(m.own[i]!.t.toLowerCase()))
    const pool = shownOnes.length > 0 ? shownOnes : candidates
    if (pool.length === 0) return
    const index = pool[write.pick % pool.length]!
    touched.add(index)
    if (write.op === 'delete') await new Delete(index).run(m, w)
    else await new Update(index, { [resource]: body }).run(m, w)
  }
  toString = () =>
    `walk with writes between pages ${JSON.stringify(this.shape)} ${JSON.stringify(this.writes.map(({ after, op, pick }) => ({ after, op, pick })))}`
}

function midWalkWrite(): fc.Arbitrary<MidWalkWrite> {
  return fc.constantFrom<MidWalkWrite['op']>('delete', 'create', 'update').chain((op) =>
    fc.record({
      after: fc.integer({ min: 1, max: 2 }),
      op: fc.constant(op),
      pick: fc.nat({ max: 1000 }),
      bodies: fc.record(
        Object.fromEntries(EXPLORED.map((r) => [r, op === 'create' ? createBody(r) : op === 'update' ? updateBody(r) : fc.constant({})])) as Record<
          Explored,
          fc.Arbitrary<AnyRecord>
        >,
      ),
    }),
  )
}

/** A walk of small pages (it then has pages to write between) with one or two writes between them. */
export function interleavedWalkArbitrary(): fc.Arbitrary<InterleavedWalk> {
  return fc
    .tuple(
      listShape().map((shape) => ({ ...shape, limit: shape.limit === 100 || shape.limit === undefined ? 1 : shape.limit })),
      fc.array(midWalkWrite(), { minLength: 1, maxLength: 2 }),
    )
    .map(([shape, writes]) => new InterleavedWalk(shape, writes))
}
