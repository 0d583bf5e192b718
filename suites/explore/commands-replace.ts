// The collections whose change is a replace (quotations, invoices, products: §4.2 "send every field") and those
// that take a create only (activities, internal comments), explored as one scenario per draw: a few records made
// on both sides, then reads, replaces (some leaving a field out, which §4.2 refuses), deletes of drafts, list walks
// with the §4.3 filters of the collection and idempotent creates, each judged through the comparison contract.
// Their records are kept beside the explorer's own (no plain command picks them: they have no update) and go
// through the run's ledger like every create. Quotations can be deleted (safe profile); products, invoices,
// activities and comments cannot (§4.2), so they are drawn only in the full profile, whose footprint counts them
// (products are archived at clean-up, src/run/footprint.ts). Messages are never sent: a reply goes out through
// the conversation's channel (§1.6).
import fc from 'fast-check'
import {
  queryValueFor,
  RESOURCES,
  RUN_LABEL_FIELDS,
  runLabel,
  validBody,
  type AnyRecord,
  type CheckContext,
  type FilterSpec,
  type Query,
  type ResourceName,
} from '../../src/checks/index.ts'
import { runSku } from '../shared/bodies.ts'
import { derivedMoneyNote, instantOf, newDraftVerdict, replaced, statusVerdict, written, writtenVerdict, type Answer } from './contract.ts'
import { before, judgeOwnWalk, readBack, remember, retriedTwice } from './own-judges.ts'
import { inOffset, WIDE_TEXT } from './values.ts'
import type { Budget, ExploreModel, Own, World } from './world.ts'

type Cmd = fc.AsyncCommand<ExploreModel, World>

/** Collections with a replace (§4.2); quotations alone can be deleted. */
export const REPLACED = ['quotation', 'product', 'invoice'] as const satisfies readonly ResourceName[]
/** Collections with a create and no change at all (§4.2), explored here; messages are never sent (§1.6). */
export const CREATE_ONLY = ['activity', 'comment'] as const satisfies readonly ResourceName[]
type Replaced = (typeof REPLACED)[number]
type CreateOnly = (typeof CREATE_ONLY)[number]
type Explored = Replaced | CreateOnly

/** The references a create or replace body may name, taken from the explorer's live records (each side's id). */
const REFERENCES: Record<Explored, Record<string, ResourceName>> = {
  quotation: { accountId: 'account', contactId: 'contact', dealId: 'opportunity' },
  invoice: { accountId: 'account', contactId: 'contact' },
  product: {},
  activity: { accountId: 'account', contactId: 'contact' },
  comment: { caseId: 'case' },
}

const ok = (a: Answer) => a.status >= 200 && a.status < 300

/** The records of this family a sequence made, and the records they name (a deal, a case), beside its own records. */
interface Made {
  records: Own[]
  /** Parents made for these records (an opportunity a quotation names, the case comments are on). */
  parents: Own[]
}
const madeOf = new WeakMap<ExploreModel, Made>()
const made = (m: ExploreModel): Made => {
  let list = madeOf.get(m)
  if (!list) madeOf.set(m, (list = { records: [], parents: [] }))
  return list
}

/** The live records a reference may name: the explorer's own, then the parents this family made. */
const candidates = (m: ExploreModel, resource: ResourceName) =>
  [...m.own, ...made(m).parents].filter((o) => o.alive && o.resource === resource && typeof o.t === 'string')

/** Writes each reference field to one of the explorer's live records of its kind (by each side's id), or null. */
function withReferences(m: ExploreModel, resource: Explored, tBody: AnyRecord, mBody: AnyRecord, pick: number, required = false): void {
  let n = pick
  for (const [field, of] of Object.entries(REFERENCES[resource])) {
    const live = candidates(m, of)
    // Half the time a reference is named when one is live; a required one always.
    const target = (required || n % 2 === 0) && live.length > 0 ? live[Math.floor(n / 2) % live.length] : undefined
    n = Math.floor(n / 3) + 1
    if (target) [tBody[field], mBody[field]] = [target.t, target.m]
    else if (field in tBody) [tBody[field], mBody[field]] = [null, null]
  }
}

/**
 * The run's label where `sweep --run` and the footprint find the record again: a quotation's title (RUN_LABEL_FIELDS),
 * an invoice's and an activity's title (the footprint's `crmconf` label), a product's SKU (`CRMCONF-`), a comment's text.
 */
function labelled(ctx: CheckContext, resource: Explored, body: AnyRecord): AnyRecord {
  const out = { ...body }
  const label = runLabel(ctx, resource)
  if (resource === 'product') out.sku = runSku(ctx)
  else if (resource === 'comment') out.html = `<p>${label} ${String(body.html ?? '')}</p>`
  else out[RUN_LABEL_FIELDS[resource] ?? 'title'] = `${label} ${String(body.title ?? '')}`
  return out
}

/** A product's replace takes its unit and currency from the record each side shows: keyed values a workspace defines (§4.4). */
function keyedFrom(resource: Explored, body: AnyRecord, record: AnyRecord): AnyRecord {
  // A copy on each side: the references written into it are each side's own ids.
  if (resource !== 'product') return { ...body }
  return {
    ...body,
    unit: typeof record.unit === 'string' ? record.unit : body.unit,
    currency: typeof record.currency === 'string' ? record.currency : body.currency,
  }
}

function ownOf(resource: ResourceName, t: AnyRecord, m: AnyRecord, tBody: AnyRecord, mBody: AnyRecord): Own {
  return {
    resource,
    t: String(t.id),
    m: String(m.id),
    alive: true,
    written: { t: written(resource, undefined, tBody), m: written(resource, undefined, mBody) },
    tLast: t,
    mLast: m,
  }
}

/** The record answered by a write and what the spec fixes of it: the fields written, a new draft's state, the derived money as information. */
function judgeRecord(w: World, what: string, own: Own, t: Answer, o: Answer, created: boolean): void {
  w.judge(writtenVerdict(what, own.resource, own.written, t.body, o.body), 'written')
  if (created && (own.resource === 'quotation' || own.resource === 'invoice')) w.judge(newDraftVerdict(what, own.resource, t.body), 'written')
  w.judge(derivedMoneyNote(what, own.resource, t.body, o.body))
}

/** Makes one parent record on both sides (a deal a quotation names, the case comments are on), tracked by the ledger. */
async function makeParent(m: ExploreModel, w: World, resource: 'opportunity' | 'case'): Promise<Own | undefined> {
  const label = runLabel(w.ctx, resource)
  const body: AnyRecord = resource === 'case' ? { subject: label, tags: [w.ctx.session.runTag] } : { name: label }
  const [t, o] = await w.create(resource, body, body)
  w.judge(statusVerdict(`create ${resource} (a parent)`, t, o), 'status')
  if (!ok(t) || !ok(o) || typeof t.body?.id !== 'string' || typeof o.body?.id !== 'string') return undefined
  const own = ownOf(resource, t.body, o.body, body, body)
  made(m).parents.push(own)
  return own
}

/** One create of this family on both sides; its record, or undefined when either side did not make it. */
async function createOne(m: ExploreModel, w: World, resource: Explored, body: AnyRecord, pick: number, idempotencyKey?: string): Promise<Own | undefined> {
  const tBody = labelled(w.ctx, resource, body)
  const mBody = { ...tBody }
  withReferences(m, resource, tBody, mBody, pick, resource === 'comment')
  if (resource === 'comment' && typeof tBody.caseId !== 'string') return undefined
  const mine = made(m).records
  const what = `create ${resource} #${mine.length}${idempotencyKey ? ' with an Idempotency-Key' : ''}`
  const [t, o] = await w.create(resource, tBody, mBody, idempotencyKey)
  w.judge(statusVerdict(what, t, o), 'status')
  if (!ok(t) || !ok(o) || typeof t.body?.id !== 'string' || typeof o.body?.id !== 'string') return undefined
  const own = ownOf(resource, t.body, o.body, tBody, mBody)
  mine.push(own)
  judgeRecord(w, what, own, t, o, true)
  if (idempotencyKey) await retriedTwice(w, what, own, () => w.create(resource, tBody, mBody, idempotencyKey))
  return own
}

/** One step of a scenario, on the record its number points at when it needs one. */
export type ScenarioStep =
  | { op: 'get'; n: number }
  | { op: 'replace'; n: number; body: AnyRecord; pick: number; leaveOut?: number }
  | { op: 'delete'; n: number }
  | { op: 'list'; shape: Shape }
  | { op: 'create'; body: AnyRecord; pick: number }
  | { op: 'idempotent'; body: AnyRecord; pick: number }

/** A list query of the scenario's collection: filters (by index into §4.3's, valued from one of its records), sort, order, limit, a since bound. */
export interface Shape {
  filters: { filter: number; record: number }[]
  sort?: 'createdAt' | 'updatedAt'
  order?: 'asc' | 'desc'
  limit?: number
  since?: { param: 'createdSince' | 'updatedSince'; record: number }
}

export class Scenario implements Cmd {
  constructor(
    readonly resource: Explored,
    readonly bodies: AnyRecord[],
    readonly steps: ScenarioStep[],
    /** A quotation's scenario first makes a deal its quotations may name (§4.3 quotations dealId). */
    readonly withDeal = false,
  ) {}
  check = () => true
  async run(m: ExploreModel, w: World): Promise<void> {
    if (w.exhausted) return
    w.step(`${this}`)
    if (this.resource === 'comment' && candidates(m, 'case').length === 0 && !(await makeParent(m, w, 'case'))) return
    if (this.withDeal && this.resource === 'quotation') await makeParent(m, w, 'opportunity')
    for (const [i, body] of this.bodies.entries()) {
      if (w.exhausted) return
      await createOne(m, w, this.resource, body, i)
    }
    for (const step of this.steps) {
      if (w.exhausted) return
      w.step(`${this.resource}: ${JSON.stringify(step)}`)
      await this.take(step, m, w)
    }
  }

  private recordAt(m: ExploreModel, n: number): { own: Own; index: number; what: (op: string) => string } | undefined {
    const mine = made(m).records.filter((o) => o.resource === this.resource)
    if (mine.length === 0) return undefined
    const own = mine[n % mine.length]!
    const index = made(m).records.indexOf(own)
    return { own, index, what: (op) => `${op} ${own.resource} #${index}${own.alive ? '' : ' (deleted)'}` }
  }

  private async take(step: ScenarioStep, m: ExploreModel, w: World): Promise<void> {
    switch (step.op) {
      case 'create':
        await createOne(m, w, this.resource, step.body, step.pick)
        return
      case 'idempotent': {
        const key = `crmconf-explore-${w.ctx.runId}-${Math.random().toString(36).slice(2, 10)}`
        await createOne(m, w, this.resource, step.body, step.pick, key)
        return
      }
      case 'list':
        await listMine(m, w, this.resource, step.shape)
        return
    }
    const at = this.recordAt(m, step.n)
    if (!at) return
    const { own, what } = at
    if (step.op === 'get') return readBack(w, own, what('get'))
    if (step.op === 'delete') {
      const [t, o] = await w.delete(own)
      w.judge(statusVerdict(what('delete'), t, o), 'status')
      if (ok(o)) own.alive = false
      // The state after the delete: gone from reads (§4.2, §7.6).
      const [tr, or] = await w.get(own)
      const verdict = statusVerdict(`get after ${what('delete')}`, tr, or)
      w.judge(verdict && 'aspect' in verdict ? { ...verdict, aspect: 'unchanged' } : verdict, 'unchanged')
      return
    }
    if (step.op === 'replace') {
      const body = labelled(w.ctx, this.resource, step.body)
      const tBody = keyedFrom(this.resource, body, own.tLast)
      const mBody = keyedFrom(this.resource, body, own.mLast)
      withReferences(m, this.resource, tBody, mBody, step.pick)
      // Sometimes a field is left out: §4.2 "send every field", so both sides must refuse it (400, §4.4, §7.3).
      // Only on a live record: a server may look a record up before or after validating the body (§7 orders neither).
      // A field only the replace requires: the rule §4.2 adds over the create (a create's own are the validation area's).
      const required = RESOURCES[this.resource].create?.required ?? []
      const fields = Object.keys(tBody).filter((f) => !required.includes(f))
      const left = step.leaveOut === undefined || !own.alive ? undefined : fields[step.leaveOut % fields.length]
      if (left !== undefined) [delete tBody[left], delete mBody[left]]
      const label = `${what('replace')}${left === undefined ? '' : ` leaving ${left} out`}`
      const [t, o] = await w.replace(own, tBody, mBody)
      w.judge(statusVerdict(label, t, o), 'status')
      if (ok(t) && ok(o)) {
        own.written = { t: replaced(own.resource, tBody), m: replaced(own.resource, mBody) }
        remember(own, t, o)
        judgeRecord(w, label, own, t, o, false)
      }
      // The replace persisted, or a refused one left the record as it was: a read shows what was last written.
      if (own.alive) await readBack(w, own, `get after ${label}`)
    }
  }

  toString = () =>
    `${this.resource}s: ${this.withDeal ? 'a deal, ' : ''}create ${this.bodies.length} ${JSON.stringify(this.bodies)}, then ${this.steps.map((s) => s.op).join(', ')}`
}

/** The value a filter asks on each side, from one of the records; a uuid only when it names a live record of the explorer's. */
function filterValues(filter: FilterSpec, own: Own, m: ExploreModel): [string, string] | undefined {
  const mValue = own.mLast[filter.field]
  if (filter.kind !== 'uuid') {
    const value = queryValueFor(filter, mValue)
    return value === undefined ? undefined : [value, value]
  }
  const named = [...m.own, ...made(m).parents, ...made(m).records].find(
    (o) => o.alive && typeof mValue === 'string' && o.m.toLowerCase() === mValue.toLowerCase(),
  )
  return named ? [named.t, named.m] : undefined
}

/**
 * A walk of the scenario's collection on both sides, judged on this family's records of the sequence: membership
 * (a record whose filtered field the target shows otherwise than the model, a field the explorer did not write such
 * as a status, is open), order where the shown sort values differ, page sizes and repeats.
 */
async function listMine(m: ExploreModel, w: World, resource: Explored, shape: Shape): Promise<void> {
  const all = made(m).records
  const mine = all.filter((o) => o.resource === resource)
  if (mine.length === 0) return
  const first = mine[0]!
  const tq: Query = { createdSince: before(first.tLast.createdAt), sort: shape.sort, order: shape.order, limit: shape.limit }
  const mq: Query = { createdSince: before(first.mLast.createdAt), sort: shape.sort, order: shape.order, limit: shape.limit }
  if (tq.createdSince === undefined || mq.createdSince === undefined) return
  const open = new Set<number>()
  if (shape.since) {
    const own = mine[shape.since.record % mine.length]!
    const field = shape.since.param === 'createdSince' ? 'createdAt' : 'updatedAt'
    const bound = instantOf(own.tLast[field])
    if (bound !== undefined && instantOf(own.mLast[field]) !== undefined) {
      tq[shape.since.param] = own.tLast[field]
      mq[shape.since.param] = own.mLast[field]
      // "after this time": a record at the bound's very instant (the target's precision) is open.
      all.forEach((o, i) => {
        if (instantOf(o.tLast[field]) === bound) open.add(i)
      })
    }
  }
  const filters = RESOURCES[resource].filters
  for (const { filter: f, record } of shape.filters) {
    const filter = filters[f % filters.length]!
    const values = filterValues(filter, mine[record % mine.length]!, m)
    if (!values) continue
    tq[filter.param] = values[0]
    mq[filter.param] = values[1]
    if (filter.kind !== 'uuid')
      all.forEach((o, i) => {
        if (String(o.tLast[filter.field]) !== String(o.mLast[filter.field])) open.add(i)
      })
  }
  const what = `list ${RESOURCES[resource].path}?${new URLSearchParams(
    Object.fromEntries(Object.entries(mq).filter(([, v]) => v !== undefined)) as Record<string, string>,
  )
    .toString()
    .replace(/createdSince=[^&]*/, 'createdSince=…')}`
  await judgeOwnWalk(w, { resource, records: all, tq, mq, open, what, limit: shape.limit, sort: shape.sort })
}

const recordPick = fc.nat({ max: 1000 })

function shapeArbitrary(): fc.Arbitrary<Shape> {
  return fc.record(
    {
      filters: fc.array(fc.record({ filter: fc.nat({ max: 20 }), record: recordPick }), { maxLength: 2 }),
      sort: fc.option(fc.constantFrom<'createdAt' | 'updatedAt'>('createdAt', 'updatedAt'), { nil: undefined }),
      order: fc.option(fc.constantFrom<'asc' | 'desc'>('asc', 'desc'), { nil: undefined }),
      limit: fc.option(fc.oneof({ arbitrary: fc.integer({ min: 1, max: 2 }), weight: 3 }, { arbitrary: fc.constant(100), weight: 1 }), { nil: undefined }),
      since: fc.oneof(
        { arbitrary: fc.constant(undefined), weight: 3 },
        { arbitrary: fc.record({ param: fc.constantFrom<'createdSince' | 'updatedSince'>('createdSince', 'updatedSince'), record: recordPick }), weight: 1 },
      ),
    },
    { requiredKeys: ['filters'] },
  )
}

/** Offsets a date-time is written in (the same instant): east and west of UTC, by the half and the quarter hour. */
const OFFSETS = [480, -300, 345, -570]

/**
 * A body of the generators, widened as values.ts widens the plain commands' (a title or text sometimes outside
 * ASCII, a date-time sometimes in an offset), from plain draws rather than an infinite stream: fast-check 4.10
 * re-maps a cloned, shrunk tuple holding a stream with its other parts missing.
 */
function widenedBody(resource: Explored, op: 'create' | 'replace'): fc.Arbitrary<AnyRecord> {
  const base =
    resource === 'comment'
      ? validBody('comment', 'create', { refs: { caseId: '' } }).map((b): AnyRecord => ({ kind: 'internal', html: b.html }))
      : validBody(resource, op)
  return fc.tuple(base, fc.nat({ max: 99 }), fc.nat({ max: 99 })).map(([body, text, time]) => {
    const out: AnyRecord = { ...body }
    const field = resource === 'comment' ? 'html' : resource === 'product' ? 'name' : 'title'
    if (typeof out[field] === 'string' && text < 35) out[field] = `${WIDE_TEXT[text % WIDE_TEXT.length]} ${out[field]}`
    if (typeof out.occurredAt === 'string' && time < 50) out.occurredAt = inOffset(out.occurredAt, OFFSETS[time % OFFSETS.length]!)
    return out
  })
}

/** A create body of the collection; a comment is always an internal note (§1.6: a public one is emailed to the case contact). */
const bodyOf = (resource: Explored) => widenedBody(resource, 'create')

/** A replace body: every field of §4.4 (the generators' replace bodies), a field sometimes left out. */
function replaceStep(resource: Replaced): fc.Arbitrary<ScenarioStep> {
  return fc
    .tuple(recordPick, widenedBody(resource, 'replace'), recordPick, fc.option(fc.nat({ max: 20 }), { nil: undefined, freq: 5 }))
    .map(([n, body, pick, leaveOut]): ScenarioStep => ({ op: 'replace', n, body, pick, ...(leaveOut === undefined ? {} : { leaveOut }) }))
}

function stepArbitrary(resource: Explored): fc.Arbitrary<ScenarioStep> {
  const common: fc.WeightedArbitrary<ScenarioStep>[] = [
    { arbitrary: recordPick.map((n): ScenarioStep => ({ op: 'get', n })), weight: 1 },
    { arbitrary: shapeArbitrary().map((shape): ScenarioStep => ({ op: 'list', shape })), weight: 3 },
    { arbitrary: fc.tuple(bodyOf(resource), recordPick).map(([body, pick]): ScenarioStep => ({ op: 'create', body, pick })), weight: 1 },
    { arbitrary: fc.tuple(bodyOf(resource), recordPick).map(([body, pick]): ScenarioStep => ({ op: 'idempotent', body, pick })), weight: 1 },
  ]
  if (resource === 'activity' || resource === 'comment') return fc.oneof(...common)
  return fc.oneof(
    ...common,
    { arbitrary: replaceStep(resource), weight: 3 },
    ...(resource === 'quotation' ? [{ arbitrary: recordPick.map((n): ScenarioStep => ({ op: 'delete', n })), weight: 2 }] : []),
  )
}

function scenarioArbitrary(resource: Explored): fc.Arbitrary<Scenario> {
  return fc
    .tuple(fc.array(bodyOf(resource), { minLength: 2, maxLength: 3 }), fc.array(stepArbitrary(resource), { minLength: 2, maxLength: 4 }), fc.boolean())
    .map(([bodies, steps, deal]) => new Scenario(resource, bodies, steps, resource === 'quotation' && deal))
}

/**
 * The exploration's first scenario: two quotations, one replaced with every field, one replace leaving a field out
 * (refused, §4.2), and a walk: replace, its refusal and the quotations' lists compared on every seed.
 */
function probeArbitrary(): fc.Arbitrary<Scenario> {
  return fc
    .tuple(
      fc.array(bodyOf('quotation'), { minLength: 2, maxLength: 2 }),
      replaceStep('quotation'),
      replaceStep('quotation'),
      fc.nat({ max: 20 }),
      shapeArbitrary(),
    )
    .map(([bodies, whole, partial, leaveOut, shape]) => {
      // A value shrunk without its context may come back with parts missing: the probe then keeps what it has.
      const steps: ScenarioStep[] = []
      if (whole?.op === 'replace') steps.push({ op: 'replace', n: whole.n, body: whole.body, pick: whole.pick })
      if (partial?.op === 'replace') steps.push({ op: 'replace', n: partial.n, body: partial.body, pick: partial.pick, leaveOut: leaveOut ?? 0 })
      steps.push({ op: 'list', shape: shape ?? { filters: [] } })
      return new Scenario('quotation', bodies ?? [], steps)
    })
}

/** The collections this run may write: quotations in every writing profile; the undeletable ones only under `full`. */
export function exploredHere(ctx: CheckContext): Explored[] {
  return ctx.profile === 'full' ? [...REPLACED, ...CREATE_ONLY] : ['quotation']
}

/** The explorations that have run their first scenario (the probe: a quotation's, whatever the draw). */
const probed = new WeakSet<Budget>()

/** Runs the combined command drawn for a sequence, then the probe in the exploration's first sequence, then this family's scenario when one is drawn. */
class Both implements Cmd {
  constructor(
    readonly combined: Cmd | undefined,
    readonly scenario: Scenario | undefined,
    readonly probe: Scenario,
  ) {}
  check = () => true
  async run(m: ExploreModel, w: World): Promise<void> {
    await this.combined?.run(m, w)
    // Like the idempotency and walk probes: a small budget might otherwise never draw a replace.
    const first = !probed.has(w.budget)
    probed.add(w.budget)
    if (first) await this.probe.run(m, w)
    await this.scenario?.run(m, w)
  }
  toString = () => [this.combined, this.scenario].filter(Boolean).join('; ')
}

/**
 * The one line commands-more.ts adds: the combined command of a sequence as it was drawn (its draws unchanged),
 * followed by one of this family's scenarios in one sequence of four, and by a quotation's in the exploration's
 * first sequence.
 */
export function withReplaceCommands(ctx: CheckContext, combined: fc.Arbitrary<Cmd | undefined>): fc.Arbitrary<Cmd | undefined> {
  const resources = exploredHere(ctx)
  const scenario = fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: fc.constantFrom(...resources).chain(scenarioArbitrary), weight: 1 })
  return fc.tuple(combined, scenario, probeArbitrary()).map(([c, s, probe]) => new Both(c, s, probe))
}
