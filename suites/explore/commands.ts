// The explorer's operations as fast-check commands (model-based testing): each is sent to the target and to the
// model, and judged through the comparison contract (contract.ts). A command names the records it works on by
// an index into the explorer's own records, drawn before the sequence runs and resolved when it runs.
import fc from 'fast-check'
import { queryValueFor, recordMatches, RESOURCES, type AnyRecord, type FilterSpec, type Query, type ResourceName } from '../../src/checks/index.ts'
import { instantOf, statusVerdict, written, writtenVerdict, type Answer } from './contract.ts'
import { createBody, freshAddresses, inOffset, OFFSETS, sweepable, updateBody } from './values.ts'
import { before, judgeOwnWalk, readBack, remember, retriedTwice } from './own-judges.ts'
import type { ExploreModel, Own, World } from './world.ts'

/** The collections explored: every §4.2 operation but replace on each, tags or a deletable record for clean-up. */
export const EXPLORED = ['account', 'contact', 'task'] as const satisfies readonly ResourceName[]
type Explored = (typeof EXPLORED)[number]

/**
 * The collections with update and delete the collection runs explore (commands-collections.ts), drawn from a
 * stream of their own so that the plain commands above draw what they drew before.
 */
export const UPDATABLE = ['case', 'lead', 'opportunity'] as const satisfies readonly ResourceName[]
/** Every collection a plain command may work on. */
export type Explorable = Explored | (typeof UPDATABLE)[number]

/** Own records a reference field may name (a child account's parent, a contact's primary account, a case's or deal's account and contact). */
const REFERENCES: Partial<Record<Explorable, Record<string, Explorable>>> = {
  account: { parentId: 'account' },
  contact: { accountId: 'account' },
  case: { accountId: 'account', contactId: 'contact' },
  opportunity: { accountId: 'account', contactId: 'contact' },
}

type Cmd = fc.AsyncCommand<ExploreModel, World>

const alive = (m: Readonly<ExploreModel>, resource?: ResourceName) => m.own.filter((o) => o.alive && (resource === undefined || o.resource === resource))
const pick = <T>(items: readonly T[], n: number): T | undefined => (items.length === 0 ? undefined : items[n % items.length])
const okStatus = (a: Answer) => a.status >= 200 && a.status < 300

/** Creates one record on both sides; answers its own record, or undefined when either side did not make it. */
async function createOne(m: ExploreModel, w: World, resource: Explorable, body: AnyRecord, refPick: number): Promise<Own | undefined> {
  const tBody: AnyRecord = sweepable(w.ctx, resource, freshAddresses(resource, body), 'create')
  const mBody: AnyRecord = { ...tBody }
  // One reference at most: an account and a contact of its own in one case or deal need not belong together, and an
  // application may refuse the pair (§1.1).
  const references = Object.entries(REFERENCES[resource] ?? {})
  const chosen = references[Math.floor(refPick / 2) % Math.max(1, references.length)]
  if (chosen && refPick % 2 === 0) {
    const [field, of] = chosen
    const target = pick(alive(m, of), refPick)
    if (target) [tBody[field], mBody[field]] = [target.t, target.m]
  }
  const [t, o] = await w.create(resource, tBody, mBody)
  const what = `create ${resource} #${m.own.length}`
  w.judge(statusVerdict(what, t, o), 'status')
  if (!okStatus(t) || typeof t.body?.id !== 'string' || typeof o.body?.id !== 'string') return undefined
  const own: Own = {
    resource,
    t: t.body.id,
    m: o.body.id,
    alive: true,
    written: { t: written(resource, undefined, tBody), m: written(resource, undefined, mBody) },
    tLast: t.body,
    mLast: o.body,
  }
  m.own.push(own)
  w.judge(writtenVerdict(what, resource, own.written, t.body, o.body), 'written')
  return own
}

/** Several records of one collection in a row: lists then have pages, an order and filters to tell apart. */
export class CreateMany implements Cmd {
  constructor(
    readonly resource: Explorable,
    readonly bodies: AnyRecord[],
  ) {}
  check = () => true
  async run(m: ExploreModel, w: World): Promise<void> {
    w.step(`${this}`)
    for (const [i, body] of this.bodies.entries()) {
      if (w.exhausted) return
      await createOne(m, w, this.resource, body, i)
    }
  }
  toString = () => `create ${this.bodies.length} ${this.resource}s ${JSON.stringify(this.bodies)}`
}

export class Create implements Cmd {
  constructor(
    readonly resource: Explorable,
    readonly body: AnyRecord,
    readonly refPick: number,
  ) {}
  check = () => true
  async run(m: ExploreModel, w: World): Promise<void> {
    if (w.exhausted) return
    w.step(`${this}`)
    await createOne(m, w, this.resource, this.body, this.refPick)
  }
  toString = () => `create ${this.resource} ${JSON.stringify(this.body)}`
}

/**
 * A create sent with an Idempotency-Key, then again with the same key and body, and a third time (§4.1: the first
 * response, no duplicate); sometimes the second try carries another body under the same key, which §4.1 leaves open.
 */
export class IdempotentCreate implements Cmd {
  constructor(
    readonly resource: Explorable,
    readonly body: AnyRecord,
    readonly otherBody: AnyRecord | undefined,
  ) {}
  check = () => true
  async run(m: ExploreModel, w: World): Promise<void> {
    if (w.exhausted) return
    const key = `crmconf-explore-${w.ctx.runId}-${Math.random().toString(36).slice(2, 10)}`
    const body: AnyRecord = sweepable(w.ctx, this.resource, freshAddresses(this.resource, this.body), 'create')
    w.step(`${this}`)
    const what = `create ${this.resource} #${m.own.length} with an Idempotency-Key`
    const [t, o] = await w.create(this.resource, body, body, key)
    w.judge(statusVerdict(what, t, o), 'status')
    if (!okStatus(t) || typeof t.body?.id !== 'string' || typeof o.body?.id !== 'string') return
    const own: Own = {
      resource: this.resource,
      t: t.body.id,
      m: o.body.id,
      alive: true,
      written: { t: written(this.resource, undefined, body), m: written(this.resource, undefined, body) },
      tLast: t.body,
      mLast: o.body,
    }
    m.own.push(own)
    if (this.otherBody) {
      const other = sweepable(w.ctx, this.resource, freshAddresses(this.resource, this.otherBody), 'create')
      const [t2, o2] = await w.create(this.resource, other, other, key)
      // §4.1 "not shown": a refusal, the first response or another record are all legal; only a server error is not.
      const label = `${what}, again with another body`
      if (t2.status >= 500) w.judge(statusVerdict(label, t2, o2))
      else if (okStatus(t2) !== okStatus(o2)) w.judge({ unplaced: `${label}: ${t2.status}, the model ${o2.status} (§4.1: not shown)` })
      return
    }
    await retriedTwice(w, what, own, () => w.create(this.resource, body, body, key))
  }
  toString = () =>
    `create ${this.resource} with an Idempotency-Key, ${this.otherBody ? 'then another body under it' : 'three times'} ${JSON.stringify(this.body)}`
}

/** The own record a command's number points at, and how its verdicts name the operation on it. */
function recordAt(m: Readonly<ExploreModel>, n: number, op: string): { own: Own; what: string } {
  const index = n % m.own.length
  const own = m.own[index]!
  return { own, what: `${op} ${own.resource} #${index}${own.alive ? '' : ' (deleted)'}` }
}

export class Get implements Cmd {
  constructor(readonly n: number) {}
  check = (m: Readonly<ExploreModel>) => m.own.length > 0
  async run(m: ExploreModel, w: World): Promise<void> {
    if (w.exhausted) return
    const { own, what } = recordAt(m, this.n, 'get')
    w.step(`${this}`)
    await readBack(w, own, what)
  }
  toString = () => `get record ${this.n}`
}

export class Update implements Cmd {
  constructor(
    readonly n: number,
    readonly body: AnyRecord,
  ) {}
  check = (m: Readonly<ExploreModel>) => m.own.length > 0
  async run(m: ExploreModel, w: World): Promise<void> {
    if (w.exhausted) return
    const { own, what } = recordAt(m, this.n, 'update')
    const body = sweepable(w.ctx, own.resource, freshAddresses(own.resource, this.bodyFor(own)), 'update')
    w.step(`${this}`)
    const [t, o] = await w.update(own, body, body)
    w.judge(
      stateRefusal(own, body, t, o) ? { unplaced: `${what}: ${t.status}, the model ${o.status} (§3: transitions not shown)` } : statusVerdict(what, t, o),
      'status',
    )
    if (!okStatus(t) || !okStatus(o)) return
    own.written = { t: written(own.resource, own.written.t, body), m: written(own.resource, own.written.m, body) }
    remember(own, t, o)
    w.judge(writtenVerdict(what, own.resource, own.written, t.body, o.body), 'written')
    // The update persisted: a read shows what the answer showed (§4.2).
    await readBack(w, own, `get after ${what}`)
  }
  private bodyFor(own: Own): AnyRecord {
    // A body drawn for one collection: the explorer's records are of several, so each takes its own fields only.
    const fields = RESOURCES[own.resource].update?.fields ?? {}
    return Object.fromEntries(Object.entries(this.body[own.resource] ?? {}).filter(([field]) => field in fields))
  }
  toString = () => `update record ${this.n} ${JSON.stringify(this.body)}`
}

/** State fields an update body may set (§4.4) from a state §3 names no transitions for: a lead's status. */
const STATE_FIELDS: Partial<Record<ResourceName, string>> = { lead: 'status' }

/** A refusal (4xx) of an update that sets a state field, where the model took it: the target's current state may not allow it (§3). */
function stateRefusal(own: Own, body: AnyRecord, t: Answer, o: Answer): boolean {
  const field = STATE_FIELDS[own.resource]
  return field !== undefined && field in body && t.status >= 400 && t.status < 500 && okStatus(o)
}

export class Delete implements Cmd {
  constructor(readonly n: number) {}
  check = (m: Readonly<ExploreModel>) => m.own.length > 0
  async run(m: ExploreModel, w: World): Promise<void> {
    if (w.exhausted) return
    const { own, what } = recordAt(m, this.n, 'delete')
    w.step(`${this}`)
    const [t, o] = await w.delete(own)
    w.judge(statusVerdict(what, t, o), 'status')
    if (okStatus(o)) own.alive = false
    // The state after the transition: gone from reads (§4.2, §7.6).
    const [tr, or] = await w.get(own)
    const verdict = statusVerdict(`get after ${what}`, tr, or)
    w.judge(verdict && 'aspect' in verdict ? { ...verdict, aspect: 'unchanged' } : verdict, 'unchanged')
  }
  toString = () => `delete record ${this.n}`
}

/** The shape of one list query, resolved against the own records when it runs. */
export interface ListShape {
  resource: Explorable
  /** Indexes into the resource's §4.3 filters (none, one or a pair), each with the record whose value it asks. */
  filters: { filter: number; record: number }[]
  sort?: 'createdAt' | 'updatedAt'
  order?: 'asc' | 'desc'
  limit?: number
  /** A since bound at an own record's time (else the exploration's own scope: just before its first record). */
  since?: { param: 'createdSince' | 'updatedSince'; record: number }
}

/**
 * A since bound at a record's shown time; every other draw written in a UTC offset, the same instant to the
 * millisecond (§2: an ISO 8601 timestamp; a bound may carry any offset).
 */
function sinceBound(shown: unknown, n: number): Query[string] {
  const t = instantOf(shown)
  // A time shown without its zone is sent back as shown: it names no instant to write otherwise.
  if (t === undefined || !/(Z|[+-]\d{2}:?\d{2})$/i.test(String(shown)) || Math.floor(n / 2) % 2 === 0) return shown as Query[string]
  return inOffset(new Date(t).toISOString(), OFFSETS[n % OFFSETS.length]!)
}

export class List implements Cmd {
  constructor(readonly shape: ListShape) {}
  check = (m: Readonly<ExploreModel>) => m.own.length > 0
  async run(m: ExploreModel, w: World): Promise<void> {
    if (w.exhausted) return
    const resource = focus(m, this.shape.resource)
    const queries = this.queries(m, resource)
    if (!queries) return
    const [tq, mq, open] = queries
    w.step(`${this}`)
    const what = `list ${RESOURCES[resource].path}?${new URLSearchParams(mq as Record<string, string>).toString().replace(/createdSince=[^&]*/, 'createdSince=…')}`
    await judgeOwnWalk(w, { resource, records: m.own, tq, mq, open, what, limit: this.shape.limit, sort: this.shape.sort })
  }

  /** The target's query, the model's, and the records whose membership is open; undefined when a filter has no value to ask. */
  queries(m: ExploreModel, resource: Explorable): [Query, Query, Set<number>] | undefined {
    const { sort, order, limit, since } = this.shape
    const first = m.own[0]!
    // The collection runs' walks write their scope in a UTC offset east or west (never +00:00): the same instant.
    const scope = (shown: unknown) => {
      const bound = before(shown)
      return bound === undefined || !(UPDATABLE as readonly string[]).includes(resource) ? bound : inOffset(bound, OFFSETS[1 + (m.own.length % 5)]!)
    }
    const tq: Query = { createdSince: scope(first.tLast.createdAt) }
    const mq: Query = { createdSince: scope(first.mLast.createdAt) }
    const open = new Set<number>()
    if (tq.createdSince === undefined || mq.createdSince === undefined) return undefined
    for (const q of [tq, mq]) Object.assign(q, { sort, order, limit })
    if (since) {
      const index = since.record % m.own.length
      const own = m.own[index]!
      const field = since.param === 'createdSince' ? 'createdAt' : 'updatedAt'
      tq[since.param] = sinceBound(own.tLast[field], since.record)
      mq[since.param] = sinceBound(own.mLast[field], since.record)
      // "after this time": a record the target shows at the bound's very instant (its precision) is open.
      const bound = instantOf(own.tLast[field])
      m.own.forEach((o, i) => {
        if (instantOf(o.tLast[field]) === bound) open.add(i)
      })
    }
    const filters = RESOURCES[resource].filters
    const mine = m.own.filter((o) => o.resource === resource)
    for (const { filter: f, record } of this.shape.filters) {
      const filter = filters[f % filters.length]!
      const own = pick(mine, record)
      const values = own && filterValues(filter, own, m)
      // A filter with no value among the explorer's records of this collection is left out.
      if (!values) continue
      tq[filter.param] = values[0]
      mq[filter.param] = values[1]
      // A value each side chose (a case's status after routing): a record the two sides' values sort differently is open.
      if (filter.kind !== 'uuid' && serverChosen(own, filter.field))
        m.own.forEach((o, i) => {
          if (o.resource === resource && recordMatches(filter, o.tLast, values[0]) !== recordMatches(filter, o.mLast, values[1])) open.add(i)
        })
    }
    return [tq, mq, open]
  }
  toString = () => `list ${JSON.stringify(this.shape)}`
}

/** The collection a list reads: the one drawn, unless it holds fewer than two own records and another holds more (an order needs two). */
export function focus(m: ExploreModel, drawn: Explorable): Explorable {
  const count = (r: Explorable) => m.own.filter((o) => o.resource === r && o.alive).length
  if (count(drawn) >= 2) return drawn
  return EXPLORED.reduce<Explorable>((best, r) => (count(r) > count(best) ? r : best), drawn)
}

/**
 * A field of an own record the explorer never wrote a value to (a case's status or priority, a lead's status, a
 * deal's stage or status): what each side holds is its own choice (§1.6 routing, §3, §4.4 names no default).
 */
function serverChosen(own: Own, field: string): boolean {
  const { create, updates } = own.written.m
  const value = field in updates ? updates[field] : create[field]
  return value === undefined || value === null
}

/**
 * The value a filter asks on each side for an own record's field: what the explorer wrote to it, or where each
 * side chose it, what that side shows; a uuid only when it names an own record.
 */
function filterValues(filter: FilterSpec, own: Own, m: ExploreModel): [string, string] | undefined {
  const mValue = own.mLast[filter.field]
  if (filter.kind !== 'uuid') {
    const value = queryValueFor(filter, mValue)
    const tValue = serverChosen(own, filter.field) ? queryValueFor(filter, own.tLast[filter.field]) : value
    return value === undefined || tValue === undefined ? undefined : [tValue, value]
  }
  const named = m.own.find((o) => typeof mValue === 'string' && o.m.toLowerCase() === mValue.toLowerCase())
  return named ? [named.t, named.m] : undefined
}

const explored = fc.constantFrom<Explored>(...EXPLORED)
const recordPick = fc.nat({ max: 1000 })

export function listShape(): fc.Arbitrary<ListShape> {
  return explored.chain((resource) =>
    fc.record(
      {
        resource: fc.constant(resource),
        filters: fc.array(fc.record({ filter: fc.nat({ max: 20 }), record: recordPick }), { maxLength: 2 }),
        sort: fc.option(fc.constantFrom<'createdAt' | 'updatedAt'>('createdAt', 'updatedAt'), { nil: undefined }),
        order: fc.option(fc.constantFrom<'asc' | 'desc'>('asc', 'desc'), { nil: undefined }),
        // Small pages most often: a walk over a few records then crosses page boundaries.
        limit: fc.option(fc.oneof({ arbitrary: fc.integer({ min: 1, max: 2 }), weight: 4 }, { arbitrary: fc.constant(100), weight: 1 }), { nil: undefined }),
        // A bound at one of its records a third of the time: most walks then cover every record of the sequence.
        since: fc.oneof(
          { arbitrary: fc.constant(undefined), weight: 2 },
          { arbitrary: fc.record({ param: fc.constantFrom<'createdSince' | 'updatedSince'>('createdSince', 'updatedSince'), record: recordPick }), weight: 1 },
        ),
      },
      { requiredKeys: ['resource', 'filters'] },
    ),
  )
}

/** Update bodies for every explored collection at once: the record a command lands on decides which is sent. */
const updateBodies = fc.record(Object.fromEntries(EXPLORED.map((r) => [r, updateBody(r)])) as Record<Explored, fc.Arbitrary<AnyRecord>>)

/**
 * The idempotent create an exploration always makes once, at the start of its first sequence: the only command a
 * small budget might otherwise never draw, and three requests.
 */
export function idempotencyProbe(opening: Cmd): Cmd | undefined {
  return opening instanceof CreateMany && opening.bodies[0] ? new IdempotentCreate(opening.resource, opening.bodies[0], undefined) : undefined
}

/** Waited when the target showed a batch at one instant (§2 leaves a date-time's precision open: whole seconds). */
const CLOCK_STEP_MS = 1_100

/**
 * After an exploration's first opening batch, a walk by createdAt over it: the list aspects are then compared on
 * every seed, however few lists the budget draws (rule 3: never skipped against a conformant server). A target
 * that showed every record of the batch at one instant (a store in whole seconds) gives no order to judge (ties
 * are open): one more record a clock step later gives the walk two to order.
 */
class ClockStep implements Cmd {
  constructor(
    readonly resource: Explorable,
    readonly body: AnyRecord,
  ) {}
  check = () => true
  async run(m: ExploreModel, w: World): Promise<void> {
    const mine = alive(m, this.resource)
    if (w.exhausted || mine.length === 0) return
    if (new Set(mine.map((o) => instantOf(o.tLast.createdAt))).size === 1) {
      w.step(`wait ${CLOCK_STEP_MS} ms (the ${this.resource}s shared one createdAt) and create one more`)
      await new Promise((resolve) => setTimeout(resolve, CLOCK_STEP_MS))
      if (!(await createOne(m, w, this.resource, this.body, 0))) return
    }
    await new List({ resource: this.resource, filters: [], sort: 'createdAt', order: 'asc' }).run(m, w)
  }
  toString = () => `list the ${this.resource}s by createdAt, one more created a clock step later if they share one createdAt`
}

/** The clock step an exploration takes once, after the opening batch of its first sequence. */
export function clockStepProbe(opening: Cmd): Cmd | undefined {
  return opening instanceof CreateMany && opening.bodies[0] ? new ClockStep(opening.resource, opening.bodies[0]) : undefined
}

/** Every sequence opens with a batch of one collection, so that its lists have pages, an order and filters to tell apart. */
export function openingArbitrary(): fc.Arbitrary<Cmd> {
  return explored
    .chain((r) => fc.tuple(fc.constant(r), fc.array(createBody(r), { minLength: 3, maxLength: 4 })))
    .map(([r, bodies]) => new CreateMany(r, bodies))
}

let arbitraries: fc.Arbitrary<Cmd>[] | undefined

/** The command arbitraries, weighted: creates and lists most, since every other command needs a record. Built once. */
export function commandArbitraries(): fc.Arbitrary<Cmd>[] {
  return (arbitraries ??= [
    explored.chain((r) => fc.tuple(fc.constant(r), createBody(r), fc.nat({ max: 1000 }))).map(([r, body, ref]) => new Create(r, body, ref)),
    explored.chain((r) => fc.tuple(fc.constant(r), fc.array(createBody(r), { minLength: 2, maxLength: 4 }))).map(([r, bodies]) => new CreateMany(r, bodies)),
    explored
      .chain((r) => fc.tuple(fc.constant(r), createBody(r), fc.option(createBody(r), { nil: undefined, freq: 4 })))
      .map(([r, body, other]) => new IdempotentCreate(r, body, other)),
    explored
      .chain((r) => fc.tuple(fc.constant(r), createBody(r), fc.option(createBody(r), { nil: undefined, freq: 4 })))
      .map(([r, body, other]) => new IdempotentCreate(r, body, other)),
    recordPick.map((n) => new Get(n)),
    fc.tuple(recordPick, updateBodies).map(([n, body]) => new Update(n, body)),
    recordPick.map((n) => new Delete(n)),
    recordPick.map((n) => new Delete(n)),
    listShape().map((shape) => new List(shape)),
    listShape().map((shape) => new List(shape)),
    listShape().map((shape) => new List(shape)),
  ])
}
