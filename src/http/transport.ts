// The one HTTP client of the project (undici). Every request of every check goes through here: base URL
// joining, auth, JSON, timeouts, the response size cap, the request budget, and the redacted record of each
// exchange. Connections, proxies and reconnects are in connections.ts; error wording in network-errors.ts;
// rate-limit pacing (the per-key concurrency cap, the pacer, the 429 policy) in the files pacer.ts names.
// Past ~400 lines on purpose: one request's life (admit, send, read, record, retry) reads best in order here.
import { request } from 'undici'
import { decodeBody } from './content-coding.ts'
import type { Dispatcher } from 'undici'
import { CrmConfError } from '../errors.ts'
import { DEFAULTS, KEY_VARIABLES, type KeyRole } from '../config/config.ts'
import { parseBoundedJson } from './bounded-json.ts'
import { AdaptiveConcurrency, adaptiveSettings } from './adaptive-concurrency.ts'
import { ConcurrencySlots } from './concurrency-slots.ts'
import { openConnections, type Connections, type ProxySettings } from './connections.ts'
import type { Exchange, RecordedRequest, RecordedResponse } from './exchange.ts'
import { describeNetworkError } from './network-errors.ts'
import { Pacer } from './pacer.ts'
import { retryAfterMs, waitBefore429Retry } from './rate-limit-policy.ts'
import { Redactor } from './redact.ts'
import { latencyBeyond, queued, type Stopwatch } from './stopwatch.ts'
import { Reachability } from './reachability.ts'

/** The codings a response sent although we asked for identity is inflated from (any other is described, never decoded). */
const INFLATED_UNASKED = new Set(['gzip', 'x-gzip', 'deflate', 'br'])

/** A body compressed although identity was asked: inflated by the one bounded decoder, or undefined. */
function inflateBounded(bytes: Buffer, coding: string, cap: number): Buffer | undefined {
  if (!INFLATED_UNASKED.has(coding)) return undefined
  const decoded = decodeBody(bytes, coding, cap)
  return decoded.ok ? decoded.bytes : undefined
}

export type Query = Record<string, string | number | boolean | undefined | null>

export interface ApiRequest {
  method: string
  /** Path relative to the base URL (`/accounts/123`), joined as text so `/v1` and `/api/v1` bases both work. */
  path: string
  query?: Query
  /** Sent as JSON. */
  body?: unknown
  /** Sent as is (for malformed JSON); takes precedence over `body`. */
  rawBody?: string
  headers?: Record<string, string>
  /** `key` (default) sends the role's bearer key; `none` sends no Authorization; a string is sent verbatim as the header. */
  auth?: 'key' | 'none' | { header: string }
  idempotencyKey?: string
  /** Wait Retry-After and retry on 429 (default true; the rate-limit probe turns it off). */
  retryOn429?: boolean
  /**
   * Wait for the pacer (default true); the 429 probe turns it off, since pacing exists to avoid the 429 it
   * seeks. The key's concurrency cap applies either way.
   */
  paced?: boolean
  /**
   * Refused once the request budget is spent (default true). Clean-up turns it off: removing what the run
   * created must never be refused, or a run that spent its budget would leave its records behind.
   */
  budgeted?: boolean
}

export interface TransportOptions {
  baseUrl: string
  keys: Partial<Record<KeyRole, string>>
  redactor: Redactor
  timeoutMs: number
  maxResponseBytes: number
  /** CRM_CONCURRENCY: the ceiling of the main key's adaptive cap on requests in flight (adaptive-concurrency.ts). */
  concurrency: number
  requestBudget: number
  maxRetryAfterS: number
  /** Requests in a row without any answer before the target counts as unreachable (default DEFAULTS.unreachableAfterFailures). */
  unreachableAfterFailures?: number
  /** How often one request is let through to an unreachable target (default DEFAULTS.unreachableRetryMs). */
  unreachableRetryMs?: number
  /** Headers sent with every request (CRM_EXTRA_HEADERS); a request's own headers win. */
  extraHeaders?: Record<string, string>
  /** HTTP_PROXY / HTTPS_PROXY / NO_PROXY as the configuration read them; none means direct connections. */
  proxy?: ProxySettings
  /** Called with every exchange, already redacted. */
  onExchange?: (exchange: Exchange) => void
}

/** Text kept of a body that is not JSON (evidence, not a copy of the body). */
const RAW_TEXT_KEPT = 64 * 1024
/**
 * Text kept of a body cut at the size cap (100 MiB, endless) or nested past MAX_JSON_DEPTH: its start shows what
 * it was. Smaller, because a server that sends such a body to every request would otherwise put hundreds of them
 * into the evidence, the report and its renderings (21 MB of report.json for one run; 64 KiB of brackets per
 * exchange for answers nested 200,000 deep, issue 32), tripling the run's peak memory.
 */
const CUT_TEXT_KEPT = 4 * 1024
/**
 * A body read past this size is large (a list page of 100 records is a few hundred KiB): large bodies are read one
 * at a time, so a server whose every answer is endless costs one body's worth of buffers, not one per request in
 * flight (issue 29: 1.58× a clean run's peak on a loaded CI machine with eight such bodies read at once).
 */
const LARGE_BODY_BYTES = 512 * 1024
/** Bodies read up to the full cap before later ones are cut at LARGE_BODY_BYTES (the churn of reading 4 MiB per answer). */
const CUT_BODIES_BEFORE_SHORTER = 3

export interface TransportStats {
  total: number
  byKey: Record<string, number>
  /** 429s answered to each key's own credential (a call sent without it is limited by another bucket). */
  rateLimited: Record<string, number>
  /** Most requests of each key on the wire at once. */
  maxInFlight: Record<string, number>
  /** Each key's requests on the wire, summed at each sending (÷ byKey: the mean a request saw). */
  inFlightAtSend: Record<string, number>
  /** The main key at each sending: ms since the transport opened, its requests on the wire (this one included), its cap. */
  mainTimeline: { atMs: number; inFlight: number; cap: number }[]
}

/** The key whose cap adapts; every other key (the 429 probe's 5/min key among them) keeps DEFAULTS.concurrencyStart. */
const ADAPTIVE_ROLE = 'main'
/** Sendings of the main key kept in `mainTimeline` (a whole run is under 2,000; a budget of a million is not kept whole). */
const MAIN_TIMELINE_KEPT = 10_000
/** Statuses by which a server says it is overloaded (with no answer at all, they shrink the adaptive cap). */
const OVERLOAD_STATUSES = new Set([429, 503])

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

export class Transport {
  readonly stats: TransportStats = { total: 0, byKey: {}, rateLimited: {}, maxInFlight: {}, inFlightAtSend: {}, mainTimeline: [] }
  private readonly connections: Connections
  private readonly pacers = new Map<string, Pacer>()
  private readonly slots = new Map<string, ConcurrencySlots>()
  /** The main key's cap on requests in flight, adapted to the server's answers. */
  private readonly adaptive: AdaptiveConcurrency
  /** Requests of each key on the wire now. */
  private readonly onWire = new Map<string, number>()
  private readonly openedAt = performance.now()
  /** The clocks of the checks running now, and those held while a key's quota resets (trackClock). */
  private readonly clocks = new Set<Stopwatch>()
  private readonly windowHolds = new Map<Stopwatch, () => void>()
  private windowWaits = 0
  private readonly reachability: Reachability
  private seq = 0
  private stopped?: string
  private sending = 0
  /** The one turn for reading a body past LARGE_BODY_BYTES. */
  private readonly largeBodies = new ConcurrencySlots(1)
  /** Bodies cut at the size cap so far (each read up to it): see CUT_BODIES_BEFORE_SHORTER. */
  private cutBodies = 0

  constructor(readonly options: TransportOptions) {
    this.adaptive = new AdaptiveConcurrency(adaptiveSettings(options.concurrency))
    this.connections = openConnections({ timeoutMs: options.timeoutMs, connections: Math.max(8, options.concurrency * 2), proxy: options.proxy })
    this.reachability = new Reachability(
      options.unreachableAfterFailures ?? DEFAULTS.unreachableAfterFailures,
      options.unreachableRetryMs ?? DEFAULTS.unreachableRetryMs,
    )
  }

  get baseUrl(): string {
    return this.options.baseUrl
  }

  /**
   * Counts a check's clock among those stopped while a key's spent quota resets. A check waiting for the
   * window is not only one whose own request is queued: it may be awaiting a shared fixture whose create is
   * queued, or a record another check's queued request will write. While the window is spent nobody can
   * make progress, so no check's deadline runs. Returns the function that stops counting it.
   */
  trackClock(stopwatch: Stopwatch): () => void {
    this.clocks.add(stopwatch)
    if (this.windowWaits > 0) this.windowHolds.set(stopwatch, stopwatch.hold())
    return () => {
      this.clocks.delete(stopwatch)
      this.windowHolds.get(stopwatch)?.()
      this.windowHolds.delete(stopwatch)
    }
  }

  private windowWait(waiting: boolean): void {
    this.windowWaits += waiting ? 1 : -1
    if (waiting && this.windowWaits === 1) {
      for (const clock of this.clocks) if (!this.windowHolds.has(clock)) this.windowHolds.set(clock, clock.hold())
    } else if (!waiting && this.windowWaits === 0) {
      for (const release of this.windowHolds.values()) release()
      this.windowHolds.clear()
    }
  }

  hasKey(role: KeyRole): boolean {
    return Boolean(this.options.keys[role])
  }

  pacerFor(role: string): Pacer {
    let pacer = this.pacers.get(role)
    if (!pacer) {
      // The reserve covers the main key's whole ceiling: answers of requests in flight arrive in any order, so
      // the last RateLimit-Remaining read may be up to that many too high.
      pacer = new Pacer({ concurrency: this.options.concurrency, maxWaitS: this.options.maxRetryAfterS, onWindowWait: (waiting) => this.windowWait(waiting) })
      this.pacers.set(role, pacer)
    }
    return pacer
  }

  private slotsFor(role: string): ConcurrencySlots {
    let slots = this.slots.get(role)
    if (!slots) {
      slots =
        role === ADAPTIVE_ROLE
          ? new ConcurrencySlots(() => this.adaptive.cap)
          : new ConcurrencySlots(Math.min(DEFAULTS.concurrencyStart, this.options.concurrency))
      this.slots.set(role, slots)
    }
    return slots
  }

  /** Waits for one of the key's slots, then (unless `paced` is false) for the pacer; returns what ends both. */
  private async admit(role: KeyRole, paced: boolean, stopwatch: Stopwatch | undefined): Promise<(() => void) & { seq?: number }> {
    const releaseSlot = await queued(stopwatch, () => this.slotsFor(role).acquire())
    if (!paced) return releaseSlot
    try {
      const endPaced = await queued(stopwatch, () => this.pacerFor(role).acquire())
      return Object.assign(
        () => {
          endPaced()
          releaseSlot()
        },
        { seq: endPaced.seq },
      )
    } catch (error) {
      releaseSlot()
      throw error
    }
  }

  urlFor(path: string, query?: Query): string {
    const url = new URL(this.options.baseUrl.replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`))
    for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined && value !== null) url.searchParams.set(name, String(value))
    return url.toString()
  }

  /**
   * Sends one request (and again after a 429, as §8 says). `stopwatch` is the sending check's clock: it
   * stands still while the request waits for the pacer or for a Retry-After.
   */
  async send(req: ApiRequest, role: KeyRole = 'main', checkId?: string, stopwatch?: Stopwatch): Promise<Exchange> {
    const retry = req.retryOn429 ?? true
    for (let attempt = 0; ; attempt++) {
      const exchange = await this.sendOnce(req, role, checkId, stopwatch)
      if (exchange.response?.status !== 429 || !retry) return exchange
      const waitMs = waitBefore429Retry(exchange.response.headers, attempt, this.options.maxRetryAfterS, Date.now())
      if (waitMs === undefined) return exchange
      await queued(stopwatch, () => sleep(waitMs))
    }
  }

  async close(): Promise<void> {
    await this.connections.close()
  }

  /**
   * The run is stopping (an interrupt, the run's bound): every further request of a check is refused with
   * `reason`; clean-up's (budgeted: false) still go out. Requests already sent finish.
   */
  stop(reason: string): void {
    this.stopped = reason
  }

  /** Requests on the wire now (sent, not yet answered or failed). */
  get inFlight(): number {
    return this.sending
  }

  /** Requests of one key that hold a slot now (on their way, not yet answered): at most CRM_CONCURRENCY. */
  inFlightFor(role: string): number {
    return this.slots.get(role)?.active ?? 0
  }

  /** Requests of one key on the wire now (sent, not yet answered): what the progress line shows. */
  onWireFor(role: string): number {
    return this.onWire.get(role) ?? 0
  }

  /** The main key's cap on requests in flight now (adaptive-concurrency.ts). */
  get mainCap(): number {
    return this.adaptive.cap
  }

  /** What the main key's pacer says it may spend now, per second; undefined when the server shows no limit. */
  private allowedPerS(): number | undefined {
    const { limit, remaining, resetAt } = this.pacerFor(ADAPTIVE_ROLE).snapshot
    if (limit === undefined) return undefined
    const sustained = limit / 60
    // A window with budget left to its reset allows more than the average while it lasts (a fixed window's start).
    const untilReset = resetAt === undefined ? 0 : (resetAt - Date.now()) / 1000
    return remaining !== undefined && untilReset > 0 ? Math.max(sustained, remaining / untilReset) : sustained
  }

  /** Tells the main key's adaptive cap how a request ended: answered (in `latencyMs`), overloaded, or no answer. */
  private adapt(role: string, status: number | undefined, latencyMs: number): void {
    if (role !== ADAPTIVE_ROLE) return
    if (status === undefined || OVERLOAD_STATUSES.has(status)) this.adaptive.overloaded()
    else this.adaptive.answered(latencyMs, { demand: (this.slots.get(role)?.queued ?? 0) > 0, allowedPerS: this.allowedPerS() })
    this.slots.get(role)?.poke()
  }

  private refuseOverBudget(req: ApiRequest): void {
    if (req.budgeted !== false && this.stopped !== undefined) throw new CrmConfError('CRMCONF_RUN_STOPPED', this.stopped)
    if (req.budgeted !== false && this.stats.total >= this.options.requestBudget) {
      throw new CrmConfError('CRMCONF_BUDGET_EXHAUSTED', `the run's request budget of ${this.options.requestBudget} is spent (CRM_REQUEST_BUDGET)`)
    }
  }

  private async sendOnce(req: ApiRequest, role: KeyRole, checkId?: string, stopwatch?: Stopwatch): Promise<Exchange> {
    this.refuseOverBudget(req)
    const url = this.urlFor(req.path, req.query)
    // identity: a compressed answer is then one the client did not ask for, and is never inflated (a gzip
    // bomb stays its compressed size).
    const headers: Record<string, string> = { accept: 'application/json', 'accept-encoding': 'identity', ...this.options.extraHeaders, ...req.headers }
    const auth = req.auth ?? 'key'
    if (auth === 'key') {
      const key = this.options.keys[role]
      if (!key) throw new CrmConfError('CRMCONF_CONFIG_INVALID', `${KEY_VARIABLES[role]} is not configured`)
      headers.authorization = `Bearer ${key}`
    } else if (typeof auth === 'object') {
      headers.authorization = auth.header
    }
    if (req.idempotencyKey !== undefined) headers['idempotency-key'] = req.idempotencyKey
    let payload: string | undefined
    if (req.rawBody !== undefined) payload = req.rawBody
    else if (req.body !== undefined) payload = JSON.stringify(req.body)
    if (payload !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json'

    const pacer = this.pacerFor(role)
    const release = await this.admit(role, req.paced !== false, stopwatch)
    try {
      // Again once the pacer lets it through: the requests that waited there have been counted meanwhile.
      this.refuseOverBudget(req)
    } catch (error) {
      release()
      throw error
    }
    const admission = this.reachability.admit(Date.now())
    if (admission.refused !== undefined) {
      release()
      throw new CrmConfError(
        'CRMCONF_TARGET_UNREACHABLE',
        `${req.method} ${this.options.redactor.string(url)}: ${this.options.redactor.string(admission.refused)}`,
      )
    }
    const seq = ++this.seq
    this.stats.total++
    this.stats.byKey[role] = (this.stats.byKey[role] ?? 0) + 1
    const startedAt = new Date()
    const started = performance.now()
    let response: RecordedResponse | undefined
    let error: Exchange['error']
    this.sending++
    const wire = (this.onWire.get(role) ?? 0) + 1
    this.onWire.set(role, wire)
    this.stats.maxInFlight[role] = Math.max(this.stats.maxInFlight[role] ?? 0, wire)
    this.stats.inFlightAtSend[role] = (this.stats.inFlightAtSend[role] ?? 0) + wire
    if (role === ADAPTIVE_ROLE && this.stats.mainTimeline.length < MAIN_TIMELINE_KEPT)
      this.stats.mainTimeline.push({ atMs: Math.round(started - this.openedAt), inFlight: wire, cap: this.adaptive.cap })
    const serverTime = latencyBeyond(stopwatch, DEFAULTS.serverTimeCountedMs)
    try {
      response = await this.perform(url, req.method, headers, payload)
      // Only answers to the key's own credential tell its quota (a call without it: the reference server's bucket
      // per address, whose high Remaining once let a nearly spent main key burst); the call counted as spent anyway.
      if (auth === 'key') {
        pacer.observe(response.headers, release.seq)
        if (response.status === 429) {
          this.stats.rateLimited[role] = (this.stats.rateLimited[role] ?? 0) + 1
          pacer.exhausted(retryAfterMs(response.headers, Date.now()), release.seq)
        }
      }
    } catch (cause) {
      error = describeNetworkError(cause, url, this.options.timeoutMs)
    } finally {
      serverTime()
      this.sending--
      this.onWire.set(role, (this.onWire.get(role) ?? 1) - 1)
      this.adapt(role, response?.status, performance.now() - started)
      release()
      this.reachability.settle(admission.probe, response !== undefined, error && `${req.method} ${url}: ${error.message}`, Date.now())
    }
    const redactor = this.options.redactor
    const sentBody = payload === undefined ? undefined : parseBoundedJson(payload)
    const recorded: RecordedRequest = {
      method: req.method,
      url: redactor.string(url),
      headers: redactor.headers(headers),
      body: sentBody === undefined ? undefined : redactor.value(sentBody.parsed ? sentBody.value : payload),
    }
    const exchange: Exchange = {
      seq,
      keyRole: role,
      request: recorded,
      response: response && {
        ...response,
        headers: redactor.headers(response.headers),
        body: redactor.value(response.body),
        rawText: response.rawText === undefined ? undefined : redactor.string(response.rawText),
        note: response.note === undefined ? undefined : redactor.string(response.note),
      },
      error: error && { code: error.code, message: redactor.string(error.message) },
      startedAt: startedAt.toISOString(),
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      checkId,
    }
    this.options.onExchange?.(exchange)
    return exchange
  }

  private async perform(url: string, method: string, headers: Record<string, string>, payload: string | undefined): Promise<RecordedResponse> {
    // The overall deadline also bounds a body trickled byte by byte (bodyTimeout only bounds the gaps).
    const signal = AbortSignal.timeout(this.options.timeoutMs)
    const connection = this.connections.forRequest(method, headers)
    const res = await request(url, {
      method: method as Dispatcher.HttpMethod,
      headers,
      body: payload,
      dispatcher: connection.dispatcher,
      signal,
      ...connection.extra,
    } as Dispatcher.RequestOptions & { dispatcher: Dispatcher })
    connection.answered()
    // Bounded reads: a body is never held past the size cap, and one announced bigger than the cap is not
    // read past its first bytes (the evidence): a server whose every answer is 100 MiB or endless costs a run
    // no more memory than a clean one. What is read of a cut body serves only as evidence text.
    const max = this.options.maxResponseBytes
    const declared = Number(res.headers['content-length'])
    const oversize = Number.isFinite(declared) && declared > max
    // A target that has already sent CUT_BODIES_BEFORE_SHORTER bodies past the cap sends endless or absurd ones:
    // later bodies are cut at LARGE_BODY_BYTES, still above any answer this API has reason to send.
    const cap = this.cutBodies >= CUT_BODIES_BEFORE_SHORTER ? Math.min(max, LARGE_BODY_BYTES) : max
    const limit = oversize ? Math.min(CUT_TEXT_KEPT, max) : cap
    const chunks: Buffer[] = []
    let size = 0
    let truncated = oversize
    // Past LARGE_BODY_BYTES a body takes the one large-body turn: however many answers are endless at once, only
    // one of them is held towards the cap at a time (the others wait, the server's stream held back by TCP).
    let largeTurn: (() => void) | undefined
    try {
      for await (const chunk of res.body) {
        const buffer = chunk as Buffer
        if (largeTurn === undefined && size + buffer.length > LARGE_BODY_BYTES) largeTurn = await this.largeBodies.acquire()
        if (size + buffer.length > limit) {
          chunks.push(buffer.subarray(0, limit - size))
          size = limit
          truncated = true
          this.cutBodies++
          res.body.destroy()
          break
        }
        chunks.push(buffer)
        size += buffer.length
      }
    } finally {
      largeTurn?.()
    }
    // A cut body is never parsed: only its first bytes are kept, copied, so the rest can be freed at once.
    const bytes = truncated ? Buffer.concat(chunks, Math.min(size, CUT_TEXT_KEPT)) : Buffer.concat(chunks, size)
    chunks.length = 0
    const responseHeaders: Record<string, string> = {}
    for (const [name, value] of Object.entries(res.headers)) {
      if (value !== undefined) responseHeaders[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value
    }
    const encoding = (responseHeaders['content-encoding'] ?? 'identity').trim().toLowerCase()
    let body: Buffer = bytes
    let encodingNote: string | undefined
    if (encoding !== '' && encoding !== 'identity') {
      // Asked for identity, yet compressed: RFC 9110 §12.5.3 makes that a SHOULD NOT of HTTP, not a breach of the
      // spec, so the answer is still judged: inflated up to the size cap (a bomb stops there), else only described.
      const inflated = truncated ? undefined : inflateBounded(bytes, encoding, this.options.maxResponseBytes)
      if (!inflated) {
        return {
          status: res.statusCode,
          headers: responseHeaders,
          note: `${oversize ? declared : size}${truncated && !oversize ? '+' : ''} bytes encoded as ${encoding} although the request asked for identity: not decoded${truncated ? '' : ` (an unknown coding, corrupt, or over the ${this.options.maxResponseBytes}-byte cap once inflated)`}`,
          truncated: truncated || undefined,
        }
      }
      body = inflated
      encodingNote = `${bytes.length} bytes encoded as ${encoding} although the request asked for identity: inflated to ${inflated.length} bytes`
    }
    const parsed = body.length > 0 && !truncated ? parseBoundedJson(body.toString('utf8')) : undefined
    const kept = truncated || (parsed !== undefined && !parsed.parsed && parsed.note !== undefined) ? CUT_TEXT_KEPT : RAW_TEXT_KEPT
    const rawText =
      body.length > 0 && !parsed?.parsed
        ? // Decoded from a copy of the first bytes only: a slice of the whole decoded string would keep all of it alive.
          Buffer.from(body.subarray(0, kept)).toString('utf8')
        : undefined
    const parseNote = parsed && !parsed.parsed ? parsed.note : undefined
    return {
      status: res.statusCode,
      headers: responseHeaders,
      body: parsed?.parsed ? parsed.value : undefined,
      rawText,
      note: [encodingNote, parseNote].filter((n) => n !== undefined).join('; ') || undefined,
      truncated: truncated || undefined,
    }
  }
}
