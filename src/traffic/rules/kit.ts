// What the traffic rules share: the rule shape for one exchange at a time, the answers a rule judges declared as
// data (Judges) and picked here, bounded maps for the rules that judge across exchanges, and small readers of an
// exchange. Judgements themselves live in src/judge/, never here.
import type { Level } from '../../checks/types.ts'
import { isObject, type AnyRecord } from '../../judge/written.ts'
import type { ResourceName } from '../../spec/resources.ts'
import type { ResolvedOperation, RuleContext, RuleMemory, RuleState, Side, TrafficExchange, TrafficRule } from '../types.ts'

export interface RuleMeta {
  id: string
  clauses: string[]
  level: Level
  title: string
  side: Side
}

/** A rule that judges each exchange on its own (no state across exchanges). */
export function perExchange(meta: RuleMeta, observe: (exchange: TrafficExchange, ctx: RuleContext) => void): TrafficRule {
  const state: RuleState = { observe }
  return { ...meta, memory: 'none', start: () => state }
}

/**
 * A rule with state across exchanges: `start` builds fresh (bounded) state for one verification, and `memory` says
 * what that state is keyed by (types.ts RuleMemory), so judging in partitions keeps it whole.
 */
export function acrossExchanges(meta: RuleMeta, memory: RuleMemory, start: () => RuleState): TrafficRule {
  return { ...meta, memory, start }
}

/**
 * A rule across all of one API key's exchanges that reads only their light copies (lightExchange): its partition,
 * often nearly all the traffic, is handed those instead of reading every exchange whole a second time.
 */
export function acrossKeyLight(meta: RuleMeta, start: () => RuleState): TrafficRule {
  return { ...meta, memory: 'key', light: true, start }
}

/** The whole exchange a light copy was made of (verifier.ts shows it as evidence). */
export const WHOLE: unique symbol = Symbol('whole exchange')

/** The whole exchange behind a light copy, or the exchange itself. */
export function wholeOf(exchange: TrafficExchange): TrafficExchange {
  const whole = (exchange as { [WHOLE]?: () => TrafficExchange })[WHOLE]
  return whole ? whole() : exchange
}

/** Links a light copy to its whole exchange, made when first asked for (evidence only). */
export function linkWhole(light: TrafficExchange, whole: () => TrafficExchange): TrafficExchange {
  let made: TrafficExchange | undefined
  Object.defineProperty(light, WHOLE, { value: () => (made ??= whole()), enumerable: false })
  return light
}

/** Operations whose 2xx answer carries records (recordsOf). */
const RECORD_OPS: ReadonlySet<string> = new Set(['list', 'get', 'create', 'update', 'replace'])

/**
 * What the rules marked `light` read of an exchange (a structured-clonable copy, the exchange already masked): the
 * request line, headers and times, the response's status, headers and whether it was seen whole; of its body, a
 * /me answer's whole, and of an answer that carries records (recordsOf) only each record's id. No request body.
 */
export function lightExchange(exchange: TrafficExchange, operation: ResolvedOperation): TrafficExchange {
  const { request, response } = exchange
  const light: TrafficExchange = {
    seq: exchange.seq,
    source: exchange.source,
    request: { method: request.method, url: request.url, headers: request.headers },
    startedAt: exchange.startedAt,
    endedAt: exchange.endedAt,
    ...(exchange.keyRole !== undefined ? { keyRole: exchange.keyRole } : {}),
  }
  if (!response) return light
  const { body, ...rest } = response
  let kept: unknown
  if (operation.op === 'me') kept = body
  else if (isObject(body) && isSuccess(response.status) && RECORD_OPS.has(operation.op ?? ''))
    kept = operation.op === 'list' ? { data: Array.isArray(body.data) ? body.data.filter(isObject).map((r) => ({ id: r.id })) : undefined } : { id: body.id }
  light.response = { ...rest, ...(kept !== undefined ? { body: kept } : {}) }
  return light
}

/** A response as an exchange holds it. */
export type ExchangeResponse = NonNullable<TrafficExchange['response']>

/** What is wrong with one response: the rest of a message that starts with the request's method and path, and what was due. */
export interface ResponseProblem {
  detail: string
  expected: string
}

/**
 * A rule on each API call's response by itself (see isApiCall): `judged` picks the responses it speaks of, each of
 * which counts as exercised, and `problem` says what is wrong with one (undefined: nothing).
 */
export function perApiResponse(
  meta: RuleMeta,
  judged: (response: ExchangeResponse, exchange: TrafficExchange) => boolean,
  problem: (response: ExchangeResponse, exchange: TrafficExchange) => ResponseProblem | undefined,
): TrafficRule {
  return perExchange(meta, (exchange, ctx) => {
    const response = exchange.response
    if (!isApiCall(exchange) || !response || !judged(response, exchange)) return
    ctx.exercised()
    const found = problem(response, exchange)
    if (found) ctx.violation({ message: `${exchange.request.method} ${ctx.operation.path}${found.detail}`, expected: found.expected })
  })
}

/** An operation an exchange can name (see ResolvedOperation). */
export type Op = NonNullable<ResolvedOperation['op']>

/**
 * Which answers a rule judges, declared beside its meta: the operations (of a §2 resource, or `me`), the status,
 * whether the rule reads the body (then only one seen whole), and a condition of the rule's own on what it
 * speaks of. `answerOf` picks an exchange by it; `perAnswer` judges each answer it picks.
 */
export interface Judges<O extends Op, R extends ResourceName = ResourceName> {
  ops: readonly O[]
  /** Every 2xx, or this one status (absent: every answer). */
  status?: '2xx' | number
  /** The rule reads the body: only answers whose body was seen whole (see seenWhole). */
  wholeBody?: true
  /** Only these §2 resources (default: every one). */
  resources?: readonly R[]
  /** A condition of the rule's own on what it speaks of: an answer it turns down is not judged, nor counted. */
  where?: (answer: Answer<O, R>) => boolean
}

/** An answer a rule's Judges picked: the exchange, read once for the rule. */
export interface Answer<O extends Op = Op, R extends ResourceName = ResourceName> {
  exchange: TrafficExchange
  operation: ResolvedOperation & { op: O }
  /** The §2 resource (none for /me). */
  resource: O extends 'me' ? undefined : R
  response: ExchangeResponse
  /** The response body: seen whole where the Judges say `wholeBody`. */
  body: unknown
}

/** The exchange as an answer `judges` picks, or undefined when it is none. */
export function answerOf<O extends Op, R extends ResourceName = ResourceName>(
  judges: Judges<O, R>,
  exchange: TrafficExchange,
  operation: ResolvedOperation,
): Answer<O, R> | undefined {
  const response = exchange.response
  const op = operation.op
  if (!response || op === undefined || !(judges.ops as readonly Op[]).includes(op)) return undefined
  const resource = resourceOf(operation)
  if (op !== 'me' && (!resource || (judges.resources !== undefined && !(judges.resources as readonly ResourceName[]).includes(resource)))) return undefined
  if (judges.status === '2xx' ? !isSuccess(response.status) : judges.status !== undefined && response.status !== judges.status) return undefined
  if (judges.wholeBody && !seenWhole(exchange)) return undefined
  const answer = { exchange, operation, resource, response, body: response.body } as Answer<O, R>
  return judges.where === undefined || judges.where(answer) ? answer : undefined
}

/** A rule on each answer its Judges pick: each counts as exercised, and `judge` says what is wrong with it. */
export function perAnswer<O extends Op, R extends ResourceName = ResourceName>(
  meta: RuleMeta,
  judges: Judges<O, R>,
  judge: (answer: Answer<O, R>, ctx: RuleContext) => void,
): TrafficRule {
  return perExchange(meta, (exchange, ctx) => {
    const answer = answerOf(judges, exchange, ctx.operation)
    if (!answer) return
    ctx.exercised()
    judge(answer, ctx)
  })
}

/** Entries kept by a rule's cross-exchange state: memory must not grow with the traffic. */
export const MAX_ENTRIES = 10_000

/** A Map that forgets its least recently used entry past `max` entries. */
export class BoundedMap<K, V> {
  private readonly map = new Map<K, V>()
  constructor(private readonly max = MAX_ENTRIES) {}

  get size(): number {
    return this.map.size
  }

  get(key: K): V | undefined {
    const value = this.map.get(key)
    if (value !== undefined) {
      this.map.delete(key)
      this.map.set(key, value)
    }
    return value
  }

  /** Without refreshing the entry's age. */
  peek(key: K): V | undefined {
    return this.map.get(key)
  }

  set(key: K, value: V): void {
    this.map.delete(key)
    this.map.set(key, value)
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value as K)
  }

  delete(key: K): void {
    this.map.delete(key)
  }
}

export { isObject, type AnyRecord }

export function isSuccess(status: number): boolean {
  return status >= 200 && status < 300
}

/**
 * True when the status is a verdict on what the request sent: accepted (2xx) or refused as invalid (400, §7.3). A
 * key, a scope or an id refused first (401, 403, 404, 429), or a failure (5xx), says nothing about the body or the
 * parameters.
 */
export function isVerdictOnInput(status: number): boolean {
  return isSuccess(status) || status === 400
}

/** The operation's resource when it is one of §2's (not `me`, not unknown). */
export function resourceOf(operation: ResolvedOperation): ResourceName | undefined {
  const r = operation.resource
  return r === undefined || r === 'me' ? undefined : (r as ResourceName)
}

/** True when a response was seen and its body, if any, was seen whole: not cut at the size cap, and no HEAD (which carries none). */
export function seenWhole(exchange: TrafficExchange): boolean {
  return exchange.response !== undefined && !exchange.response.truncated && exchange.request.method.toUpperCase() !== 'HEAD'
}

/** The response body, when it was seen whole (see seenWhole). */
export function wholeBody(exchange: TrafficExchange): unknown {
  return seenWhole(exchange) ? exchange.response?.body : undefined
}

/** True when the response carried a body (JSON or text). */
export function hasBody(body: unknown): boolean {
  return body !== undefined && body !== ''
}

/** A list answered 200, seen whole: the answers list pages are read from. */
export const LIST_PAGES: Judges<'list'> = { ops: ['list'], status: 200, wholeBody: true }

/** Answers that carry records: a list page, or a get, create, update or replace answered 2xx, seen whole. */
const RECORD_ANSWERS: Judges<'list' | 'get' | 'create' | 'update' | 'replace'> = {
  ops: ['list', 'get', 'create', 'update', 'replace'],
  status: '2xx',
  wholeBody: true,
}

/** The records a response carries: a list page's data, or the record of a get, create, update or replace. */
export function recordsOf(operation: ResolvedOperation, exchange: TrafficExchange): AnyRecord[] {
  const answer = answerOf(RECORD_ANSWERS, exchange, operation)
  const body = answer?.body
  if (!answer || !isObject(body)) return []
  if (answer.operation.op !== 'list') return [body]
  return Array.isArray(body.data) ? body.data.filter(isObject) : []
}

const ANONYMOUS = /^(bearer\s+)?<redacted>$/i

/**
 * Which key sent the request, when the traffic tells keys apart: the source's key role, else the (masked)
 * Authorization value when the masking names the key. Undefined when two keys could look the same.
 */
export function keyOf(exchange: TrafficExchange): string | undefined {
  if (exchange.keyRole !== undefined) return `role:${exchange.keyRole}`
  const auth = exchange.request.headers.authorization
  if (auth === undefined || auth.trim() === '' || ANONYMOUS.test(auth.trim())) return undefined
  return `auth:${auth}`
}

/** An API call answered, and the key that sent it: what the rules that follow one key across the traffic read. */
export interface KeyedCall {
  key: string
  operation: ResolvedOperation
  response: ExchangeResponse
}

/** The exchange as a KeyedCall: undefined for no API call, no answer, or a key the traffic does not tell apart (see keyOf). */
export function keyedCall(exchange: TrafficExchange, operation: ResolvedOperation): KeyedCall | undefined {
  const key = keyOf(exchange)
  if (!isApiCall(exchange) || !exchange.response || key === undefined) return undefined
  return { key, operation, response: exchange.response }
}

/**
 * A create sent with an Idempotency-Key (§4.1): its value, and `retryKey`, what a retry of the create shares with
 * it: the API key that sent it, the path and the Idempotency-Key (unique per API key and path).
 */
export function idempotentCreate(exchange: TrafficExchange, operation: ResolvedOperation): { idem: string; retryKey: string } | undefined {
  const idem = exchange.request.headers['idempotency-key']
  if (idem === undefined || operation.op !== 'create') return undefined
  return { idem, retryKey: `${keyOf(exchange) ?? '?'} ${operation.path} ${idem}` }
}

/** The request as sent, method and path with its query (no origin): how evidence names it. */
export function requestLine(exchange: TrafficExchange): string {
  return `${exchange.request.method} ${exchange.request.url.replace(/^https?:\/\/[^/]+/, '')}`
}

export function timeOf(iso: string): number {
  const t = Date.parse(iso)
  return Number.isNaN(t) ? Number.NaN : t
}

/** True when `earlier` was answered before `later` was sent: the server saw them in that order. */
export function endedBefore(earlier: TrafficExchange, later: TrafficExchange): boolean {
  return timeOf(earlier.endedAt) <= timeOf(later.startedAt)
}

/**
 * True when `earlier` was answered before `later` was sent, and at most `ms` before: what it showed is taken to
 * still hold when `later` reached the server (each rule's window: a state, a cursor, a listing, a retention).
 */
export function answeredWithin(earlier: TrafficExchange, later: TrafficExchange, ms: number): boolean {
  return endedBefore(earlier, later) && timeOf(later.startedAt) - timeOf(earlier.endedAt) <= ms
}

/** The request's query without the cursor, as one string: pages of one walk share it. */
export function querySignature(operation: ResolvedOperation, without: readonly string[] = ['cursor']): string {
  return Object.keys(operation.query)
    .filter((k) => !without.includes(k))
    .sort()
    .map((k) => `${k}=${operation.query[k]}`)
    .join('&')
}

const WRITE_OPS: ReadonlySet<string> = new Set(['create', 'update', 'replace', 'delete'])

/**
 * When a write to each collection last ended, as seen in the traffic: a pair of pages with a write between them
 * may differ for that reason alone (an offset cursor shifts, a record moves), so such a pair is not judged.
 */
export class WriteClock {
  private readonly last = new Map<ResourceName, number>()

  /** Notes the exchange when it is a write answered 2xx; true when it was one. */
  note(exchange: TrafficExchange, operation: ResolvedOperation): boolean {
    const resource = resourceOf(operation)
    if (!resource || !WRITE_OPS.has(operation.op ?? '') || !exchange.response || !isSuccess(exchange.response.status)) return false
    this.last.set(resource, Math.max(this.last.get(resource) ?? 0, timeOf(exchange.endedAt) || 0))
    return true
  }

  /** True when no write to the collection was seen ending after `since` started. */
  quietSince(resource: ResourceName, since: TrafficExchange): boolean {
    return (this.last.get(resource) ?? 0) < (timeOf(since.startedAt) || 0)
  }
}

/**
 * A call of the API, not a CORS preflight: a browser sends OPTIONS without the key, and a gateway or framework
 * answers it before the API does (browser HAR files hold many). Rules see only exchanges below the base path.
 */
export function isApiCall(exchange: TrafficExchange): boolean {
  return exchange.request.method.toUpperCase() !== 'OPTIONS'
}
