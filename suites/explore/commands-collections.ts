// The plain commands on the collections with update and delete beyond accounts, contacts and tasks: cases, leads
// and opportunities (§4.2). A collection run creates a few records of one of them, then takes a few of the plain
// commands (commands.ts) on those records: get, update and its read, delete and its read, list walks with filters,
// pairs, sort, order, since bounds, limits and cursors, an idempotent create, a walk with writes between its
// pages, a read with every configured key kind. It is drawn from a random stream of its own (commands-more.ts),
// after the sequence's combined command: the plain commands a seed draws stay the same, and so do the catalogue
// faults they catch at the CI budget. Every record is deletable, so it runs in the safe profile; cases carry the
// run tag and leads and deals the run label (sweepable in values.ts), and the ledger deletes them at the end.
import fc from 'fast-check'
import type { AnyRecord } from '../../src/checks/index.ts'
import { KeyRead } from './commands-keys.ts'
import { InterleavedWalk, type MidWalkWrite } from './commands-walks.ts'
import { Create, CreateMany, Delete, Get, IdempotentCreate, List, listShape, Update, UPDATABLE, type ListShape } from './commands.ts'
import { createBody, updateBody } from './values.ts'
import type { ExploreModel, World } from './world.ts'

type Cmd = fc.AsyncCommand<ExploreModel, World>
type Updatable = (typeof UPDATABLE)[number]

/** One step of a collection run: a plain command on the run's collection, its record picked when it runs. */
type Step =
  | { op: 'create'; body: AnyRecord; ref: number }
  | { op: 'idempotent'; body: AnyRecord; other?: AnyRecord }
  | { op: 'get'; pick: number }
  | { op: 'update'; pick: number; body: AnyRecord }
  | { op: 'delete'; pick: number }
  | { op: 'list'; shape: ListShape }
  | { op: 'walk-writes'; shape: ListShape; writes: MidWalkWrite[] }
  | { op: 'key-read'; pick: number; list: boolean }

/** The index among all own records of the collection's record a pick names (live ones first asked for by reads with other keys). */
function recordOf(m: ExploreModel, resource: Updatable, pick: number): number | undefined {
  const mine = m.own.flatMap((o, i) => (o.resource === resource ? [i] : []))
  return mine.length === 0 ? undefined : mine[pick % mine.length]
}

export class CollectionRun implements Cmd {
  constructor(
    readonly resource: Updatable,
    readonly bodies: AnyRecord[],
    readonly steps: Step[],
  ) {}
  /** Its own copy for fast-check, which otherwise re-maps a copy of what it was drawn from when it shrinks a sequence. */
  readonly [fc.cloneMethod] = () => new CollectionRun(this.resource, this.bodies, this.steps)
  check = () => true
  async run(m: ExploreModel, w: World): Promise<void> {
    await new CreateMany(this.resource, this.bodies).run(m, w)
    for (const step of this.steps) {
      if (w.exhausted) return
      await this.command(step, m)?.run(m, w)
    }
  }

  /** The plain command a step is, on the run's collection; undefined when it has no record to work on. */
  private command(step: Step, m: ExploreModel): Cmd | undefined {
    const r = this.resource
    switch (step.op) {
      case 'create':
        return new Create(r, step.body, step.ref)
      case 'idempotent':
        return new IdempotentCreate(r, step.body, step.other)
      case 'list':
        return new List({ ...step.shape, resource: r })
      case 'walk-writes':
        return new InterleavedWalk({ ...step.shape, resource: r }, step.writes)
      case 'key-read': {
        // KeyRead picks among live own records: the position of one of this collection's.
        const alive = m.own.flatMap((o, i) => (o.alive ? [i] : []))
        const mine = alive.flatMap((i, at) => (m.own[i]!.resource === r ? [at] : []))
        return mine.length === 0 ? undefined : new KeyRead(mine[step.pick % mine.length]!, step.list)
      }
      default: {
        const index = recordOf(m, r, step.pick)
        if (index === undefined) return undefined
        if (step.op === 'get') return new Get(index)
        if (step.op === 'delete') return new Delete(index)
        return new Update(index, { [r]: step.body })
      }
    }
  }
  toString = () => `on ${this.resource}s: create ${this.bodies.length} ${JSON.stringify(this.bodies)}, then ${this.steps.map(describe).join(', ')}`
}

function describe(step: Step): string {
  switch (step.op) {
    case 'create':
      return `create ${JSON.stringify(step.body)}`
    case 'idempotent':
      return `create with an Idempotency-Key ${step.other ? 'then another body' : 'three times'}`
    case 'list':
      return `list ${JSON.stringify(step.shape)}`
    case 'walk-writes':
      return `walk with writes ${JSON.stringify(step.shape)} ${JSON.stringify(step.writes.map(({ after, op, pick }) => ({ after, op, pick })))}`
    case 'key-read':
      return `${step.list ? 'list' : 'get'} record ${step.pick} with every configured key kind`
    case 'update':
      return `update record ${step.pick} ${JSON.stringify(step.body)}`
    default:
      return `${step.op} record ${step.pick}`
  }
}

const pickArb = fc.nat({ max: 1000 })

/** A shape drawn for any collection, walked on the run's: its filters are indexes into the collection's §4.3 table. */
const shapeArb = listShape()

function stepArbitrary(r: Updatable): fc.Arbitrary<Step> {
  const write = (op: MidWalkWrite['op']) =>
    fc.record({
      after: fc.integer({ min: 1, max: 2 }),
      op: fc.constant(op),
      pick: pickArb,
      bodies: (op === 'create' ? createBody(r) : op === 'update' ? updateBody(r) : fc.constant({})).map((body) => ({ [r]: body })),
    }) as fc.Arbitrary<MidWalkWrite>
  const steps: fc.WeightedArbitrary<Step>[] = [
    { arbitrary: fc.record({ op: fc.constant('create' as const), body: createBody(r), ref: pickArb }), weight: 1 },
    {
      arbitrary: fc.record(
        { op: fc.constant('idempotent' as const), body: createBody(r), other: fc.option(createBody(r), { nil: undefined, freq: 4 }) },
        { requiredKeys: ['op', 'body'] },
      ),
      weight: 1,
    },
    { arbitrary: fc.record({ op: fc.constant('get' as const), pick: pickArb }), weight: 1 },
    { arbitrary: fc.record({ op: fc.constant('update' as const), pick: pickArb, body: updateBody(r) }), weight: 3 },
    { arbitrary: fc.record({ op: fc.constant('delete' as const), pick: pickArb }), weight: 2 },
    { arbitrary: fc.record({ op: fc.constant('list' as const), shape: shapeArb }), weight: 4 },
    {
      arbitrary: fc.record({
        op: fc.constant('walk-writes' as const),
        // Small pages: a walk then has pages to write between.
        shape: shapeArb.map((s) => ({ ...s, limit: s.limit === 100 || s.limit === undefined ? 1 : s.limit })),
        writes: fc.array(
          fc.constantFrom<MidWalkWrite['op']>('delete', 'create', 'update').chain((op) => write(op)),
          { minLength: 1, maxLength: 2 },
        ),
      }),
      weight: 1,
    },
    { arbitrary: fc.record({ op: fc.constant('key-read' as const), pick: pickArb, list: fc.boolean() }), weight: 2 },
  ]
  return fc.oneof(...steps)
}

/** An update of one field only: its read then shows whether the update left every other field as it was. */
function oneFieldUpdate(r: Updatable): fc.Arbitrary<Step> {
  return fc
    .tuple(pickArb, updateBody(r))
    .chain(([pick, body]) => fc.constantFrom(...Object.keys(body)).map((field) => ({ op: 'update' as const, pick, body: { [field]: body[field] } })))
}

/**
 * A run on one of the collections: two or three records, two updates of one field each (what these collections
 * have beyond a create: a write, then a read of what it should have left alone), then two to five steps on them.
 */
export function collectionRunArbitrary(): fc.Arbitrary<CollectionRun> {
  return fc
    .constantFrom<Updatable>(...UPDATABLE)
    .chain((r) =>
      fc.tuple(
        fc.constant(r),
        fc.array(createBody(r), { minLength: 2, maxLength: 3 }),
        fc.array(oneFieldUpdate(r), { minLength: 2, maxLength: 2 }),
        fc.array(stepArbitrary(r), { minLength: 2, maxLength: 5 }),
      ),
    )
    .map(([r, bodies, updates, steps]) => new CollectionRun(r, bodies, [...updates, ...steps]))
}

/**
 * The combined command of a sequence, followed in one sequence of two by a collection run drawn after it: the
 * combined draw (and every plain command) stays what it was.
 */
export function withCollectionRun(combined: fc.Arbitrary<Cmd | undefined>): fc.Arbitrary<Cmd | undefined> {
  const run = fc.oneof({ arbitrary: fc.constant(undefined), weight: 1 }, { arbitrary: collectionRunArbitrary(), weight: 1 })
  return fc.tuple(combined, run).map(([first, then]) => (first && then ? new Both(first, then) : (first ?? then)))
}

/** Two commands in a row. */
class Both implements Cmd {
  constructor(
    readonly first: Cmd,
    readonly then: Cmd,
  ) {}
  readonly [fc.cloneMethod] = () => new Both(fc.cloneIfNeeded(this.first), fc.cloneIfNeeded(this.then))
  check = () => true
  async run(m: ExploreModel, w: World): Promise<void> {
    if (this.first.check(m)) await this.first.run(m, w)
    if (this.then.check(m)) await this.then.run(m, w)
  }
  toString = () => `${this.first}; ${this.then}`
}
