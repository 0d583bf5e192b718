// The two sides an exploration drives: the target (through the check's client, its records in the run's ledger)
// and the reference model (a fresh oracle per sequence), with the map between their ids, the requests spent on
// the target, the steps taken (a finding's sequence and evidence), and the verdicts of the contract turned into
// findings (`Finding`, thrown: fast-check shrinks the sequence) or information (`unplaced`).
import {
  cellsOfRequest,
  deleteRecord,
  itemPath,
  postCreate,
  replaceRecord,
  RESOURCES,
  updateRecord,
  type AnyRecord,
  type ApiResponse,
  type CheckContext,
  type Exchange,
  type KeyRole,
  type Oracle,
  type OracleAnswer,
  type Query,
  type ResourceName,
} from '../../src/checks/index.ts'
import type { Answer, Aspect, Verdict, WalkRead, Written } from './contract.ts'

/** One record the explorer made on both sides. */
export interface Own {
  resource: ResourceName
  /** Target id, model id. */
  t: string
  m: string
  alive: boolean
  /** What each side was sent (the same values; references by each side's ids). */
  written: { t: Written; m: Written }
  /** The latest record each side answered. */
  tLast: AnyRecord
  mLast: AnyRecord
}

/** The fast-check model: the explorer's own records, in creation order (a command names one by index). */
export interface ExploreModel {
  own: Own[]
}

/** A step of the sequence, with what both sides answered. */
export interface Step {
  command: string
  target: { status: number; body: unknown }[]
  model: { status: number; body: unknown }[]
}

export class Finding extends Error {
  constructor(
    readonly aspect: Aspect,
    message: string,
    readonly expected: string,
    readonly steps: Step[],
    readonly exchanges: Exchange[],
  ) {
    super(message)
  }
}

/** Bounds of one exploration, shared by every sequence it runs. */
export interface Budget {
  spent: number
  /** Past it no command is sent: the exploration's share while nothing failed, the whole budget while shrinking. */
  limit: number
}

const summary = (a: { status: number; body: unknown }) => ({ status: a.status, body: a.body })

export class World {
  readonly steps: Step[] = []
  private readonly exchanges: Exchange[] = []
  private current?: Step

  constructor(
    readonly ctx: CheckContext,
    /** The exploration's model: like the target, it keeps earlier sequences' records, which no comparison reads. */
    private readonly oracle: () => Promise<Oracle>,
    readonly budget: Budget,
    readonly unplaced: string[],
    /** Aspects an earlier round found: a difference on them no longer ends a sequence. */
    private readonly muted: ReadonlySet<Aspect> = new Set(),
    /** Per aspect, the comparisons made on real answers of both sides (rule 2: an aspect never compared is not passed). */
    readonly judged: Partial<Record<Aspect, number>> = {},
    /** The cells (operation × axis × value form, src/coverage/explored.ts) of the requests sent to the target. */
    readonly explored: Set<string> = new Set(),
  ) {}

  private async model(req: Parameters<Oracle['send']>[0], role?: KeyRole): Promise<Answer> {
    return this.onModel(await (await this.oracle()).send(req, role))
  }

  get exhausted(): boolean {
    return this.budget.spent >= this.budget.limit
  }

  /** Opens the step a command takes. */
  step(command: string): void {
    this.current = { command, target: [], model: [] }
    this.steps.push(this.current)
  }

  private onTarget(response: ApiResponse, requests = 1): Answer {
    this.budget.spent += requests
    this.exchanges.push(response.exchange)
    for (const cell of cellsOfRequest(response.exchange.request)) this.explored.add(cell)
    this.current?.target.push(summary(response))
    return { status: response.status, body: response.body }
  }

  private onModel(answer: OracleAnswer): Answer {
    this.current?.model.push(summary(answer))
    return { status: answer.status, body: answer.body }
  }

  /** Counts one comparison of an aspect on real answers of both sides. */
  compared(aspect: Aspect): void {
    this.judged[aspect] = (this.judged[aspect] ?? 0) + 1
  }

  /**
   * A verdict of the contract: a finding ends the sequence; what it cannot place is kept as information. `compared`
   * names the aspect the caller compared to reach it (counted whether the two sides agreed or not).
   */
  judge(verdict: Verdict | undefined, compared?: Aspect): void {
    const counted = compared ?? (verdict && 'aspect' in verdict ? verdict.aspect : undefined)
    if (counted) this.compared(counted)
    if (verdict === undefined) return
    if ('unplaced' in verdict) {
      if (this.unplaced.length < 50) this.unplaced.push(verdict.unplaced)
      return
    }
    if (this.muted.has(verdict.aspect)) return
    throw new Finding(verdict.aspect, verdict.message, verdict.expected, [...this.steps], this.exchanges.slice(-6))
  }

  async create(resource: ResourceName, tBody: AnyRecord, mBody: AnyRecord, idempotencyKey?: string): Promise<[Answer, Answer]> {
    const t = this.onTarget(await postCreate(this.ctx, resource, tBody, { untagged: true, idempotencyKey }))
    const m = await this.model({ method: 'POST', path: RESOURCES[resource].path, body: mBody, idempotencyKey })
    return [t, m]
  }

  /** A create the target already answered (a run's one-time create, shared with other checks): its answer joins the step, the model is sent the same create. */
  async created(resource: ResourceName, response: ApiResponse, mBody: AnyRecord): Promise<[Answer, Answer]> {
    const t = this.onTarget(response)
    const m = await this.model({ method: 'POST', path: RESOURCES[resource].path, body: mBody })
    return [t, m]
  }

  async get(own: Own): Promise<[Answer, Answer]> {
    const t = this.onTarget(await this.ctx.api.get(itemPath(own.resource, own.t)))
    const m = await this.model({ method: 'GET', path: itemPath(own.resource, own.m) })
    return [t, m]
  }

  async update(own: Own, tBody: AnyRecord, mBody: AnyRecord): Promise<[Answer, Answer]> {
    const key = `update.method.${own.resource}`
    const known = this.ctx.session.capabilities[key] !== undefined
    const response = await updateRecord(this.ctx, own.resource, own.t, tBody)
    // The first update of a resource may have tried PATCH before PUT (src/checks/operations.ts).
    const t = this.onTarget(response, !known && this.ctx.session.capabilities[key] === 'PUT' ? 2 : 1)
    const m = await this.model({ method: 'PATCH', path: itemPath(own.resource, own.m), body: mBody })
    return [t, m]
  }

  /** A replace (§4.2 "send every field"): PUT, else PATCH on the target (src/checks/operations.ts finds the method); PUT on the model. */
  async replace(own: Own, tBody: AnyRecord, mBody: AnyRecord): Promise<[Answer, Answer]> {
    const key = `replace.method.${own.resource}`
    const known = this.ctx.session.capabilities[key] !== undefined
    const response = await replaceRecord(this.ctx, own.resource, own.t, tBody)
    // An unknown method is found by PUT then PATCH: two requests where PUT was not routed, or answered 404 (a record gone).
    const fellBack = !known && (this.ctx.session.capabilities[key] === 'PATCH' || [404, 405, 501].includes(response.status))
    const t = this.onTarget(response, fellBack ? 2 : 1)
    const m = await this.model({ method: 'PUT', path: itemPath(own.resource, own.m), body: mBody })
    return [t, m]
  }

  async delete(own: Own): Promise<[Answer, Answer]> {
    const t = this.onTarget(await deleteRecord(this.ctx, own.resource, own.t))
    const m = await this.model({ method: 'DELETE', path: itemPath(own.resource, own.m) })
    return [t, m]
  }

  /** Puts a target's fixture (a record the API cannot make) into the model under the target's id. */
  async mirror(resource: ResourceName, record: AnyRecord): Promise<void> {
    await (await this.oracle()).mirror(resource, record)
  }

  /** One GET on one side, as the main key or another configured key kind: a walk read page by page, a read as another key. */
  async read(side: 'target' | 'model', path: string, query?: Query, role: KeyRole = 'main'): Promise<Answer> {
    if (side === 'model') return this.model({ method: 'GET', path, query }, role)
    return this.onTarget(await (role === 'main' ? this.ctx.api : this.ctx.as(role)).get(path, query))
  }

  /** Walks a list on one side to its last page (or `maxPages`). */
  async walk(side: 'target' | 'model', resource: ResourceName, query: Query, maxPages: number): Promise<WalkRead> {
    const pages: AnyRecord[][] = []
    let cursor: string | undefined
    for (let page = 0; page < maxPages; page++) {
      const q = { ...query, ...(cursor === undefined ? {} : { cursor }) }
      const answer =
        side === 'target'
          ? this.onTarget(await this.ctx.api.get(RESOURCES[resource].path, q))
          : await this.model({ method: 'GET', path: RESOURCES[resource].path, query: q })
      if (answer.status !== 200 || !Array.isArray(answer.body?.data)) return { status: answer.status, pages, complete: false, body: answer.body }
      const data = answer.body.data as AnyRecord[]
      pages.push(data)
      const next = answer.body.nextCursor
      if (typeof next !== 'string' || next === '' || data.length === 0) return { status: 200, pages, complete: true }
      cursor = next
    }
    return { status: 200, pages, complete: false }
  }
}
