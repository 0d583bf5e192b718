// The webhook sink: receives deliveries over HTTP(S), verifies each one (verify.ts), answers, and keeps what may
// have come from the server under test. Anyone can post to its port: what cannot have come from the server (no
// signature made with the secret and no record named, a byte-identical replay, a body past the limit, a slow or
// broken client) is counted as noise and not kept, so no flood of it grows memory or pushes out a real delivery.
// Bad input of any kind ends in a 4xx; the sink keeps serving.
import { createHash, X509Certificate } from 'node:crypto'
import { createWriteStream, mkdirSync, openSync } from 'node:fs'
import type { WriteStream } from 'node:fs'
import { createServer as createHttpServer, STATUS_CODES } from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import { isIP } from 'node:net'
import type { AddressInfo, Socket } from 'node:net'
import { hostname, networkInterfaces } from 'node:os'
import { dirname } from 'node:path'
import { generate } from 'selfsigned'
import { Webhook } from 'standardwebhooks'
import { DEFAULTS } from '../config/config.ts'
import { CrmConfError } from '../errors.ts'
import { examineSignature, MAX_BODY_BYTES, verifyDelivery } from './verify.ts'
import type { Diagnosis, VerificationFailure, VerifyResult, WebhookEvent } from './verify.ts'

/** Named defaults of startSink, documented once. */
export const SINK_DEFAULTS = {
  host: DEFAULTS.sinkHost,
  port: DEFAULTS.sinkPort,
  /** A larger body is refused with 413 as soon as its size is known; the rest is read and thrown away, never kept. */
  maxBodyBytes: MAX_BODY_BYTES,
  /** A sender whose request headers are not complete by then gets 408 (a slow or stalled client). */
  headerTimeoutMs: 10_000,
  /** A sender whose body is not complete this long after its headers gets 408. */
  bodyTimeoutMs: 10_000,
  /** How much of a refused body its record keeps, to show what was sent. */
  bodyPreviewBytes: 512,
  /** Validity of a generated self-signed certificate; it starts a day early to tolerate a sender's clock skew. */
  selfSignedDays: 30,
  /**
   * Deliveries signed with the secret kept in memory (only the server, which holds the secret, can add one); past
   * it the oldest is dropped and counted in `dropped`.
   */
  maxDeliveries: 10_000,
  /**
   * Deliveries that did not verify but name a record, kept in case they are the server's own signed wrongly; past
   * it the oldest not tied to the run is set aside as noise (a flood of forgeries stays this size).
   */
  maxUnverified: 1_000,
  /** Noise requests kept as examples (the latest ones); every one is counted. */
  noiseSamples: 20,
  /** Failed TLS handshakes kept as examples (the latest ones); every one is counted. */
  tlsFailureSamples: 50,
  /** Log lines waiting for the disk past which new lines are dropped (and counted) rather than buffered. */
  maxLogBacklogBytes: 4 * 1024 * 1024,
} as const

/** Refusals of the sink itself, on top of the verifier's. `sink_error` is a bug of ours (answered 500). */
export type SinkRejection = VerificationFailure | 'slow_client' | 'bad_http' | 'incomplete_body' | 'sink_error'

export type Verdict = 'accepted' | 'duplicate' | 'rejected'

/**
 * Of a delivery signed with the secret, by the sink's own history of its webhook-id: `first` (never seen),
 * `retry` (the sink answered the last attempt non-2xx: the server's retry, §6.7), `again` (after a 2xx, signed
 * anew or with another body: the server sent it again), `replay` (after a 2xx, byte for byte an earlier attempt:
 * anyone who saw it can post it again, so it says nothing about the server).
 */
export type AttemptKind = 'first' | 'retry' | 'again' | 'replay'

/** Why a request cannot count for a verdict: a refusal that cannot have come from the server, or a replay. */
export type NoiseReason = SinkRejection | 'replayed_id' | 'unrelated'

/** One HTTP request received, whatever its fate. */
export interface Delivery {
  /** 1, 2, … in arrival order. */
  seq: number
  receivedAt: string
  method: string
  path: string
  /** As sent, when the header was there (also for refused deliveries). */
  webhookId?: string
  /** webhook-timestamp, when it was integer seconds. */
  timestamp?: number
  /** The event kind: verified for accepted and duplicate, best effort (unverified) for refused ones. */
  type?: string
  /** `accepted`: verified, first time this webhook-id is seen; `duplicate`: verified, webhook-id seen before (§6.6). */
  verdict: Verdict
  reason?: SinkRejection
  detail?: string
  /** Implementer mistakes the refused delivery matches (verify.ts diagnose). */
  mistakes?: Diagnosis[]
  /** How many verified deliveries have carried this webhook-id, this one included (replays not counted). */
  attempt?: number
  /** Signed with the endpoint's secret, as §6.5 says or with a diagnosed mistake (verify.ts examineSignature). */
  authentic: boolean
  /** For an authentic delivery: how it relates to earlier attempts of its webhook-id. */
  attemptKind?: AttemptKind
  /** Record ids the body names (`data.id`, `data.object.id`), read whether or not the delivery verified. */
  claims?: string[]
  /** SHA-256 of the raw body (hex), to tell a copy of a verified body. */
  bodySha256?: string
  /** Set on a request the sink set aside as noise: it is counted, printed and logged, never kept for a verdict. */
  noise?: NoiseReason
  /** The verified event (accepted and duplicate only). */
  event?: WebhookEvent
  /** Request headers, names in lower case; a repeated header is an array; credentials redacted. */
  headers: Record<string, string | string[]>
  bodyBytes: number
  /** The start of a refused body, decoded as UTF-8. */
  bodyPreview?: string
  /** The status the sink answered (or tried to answer, when the sender had gone). */
  status: number
  remoteAddress?: string
}

/** A TLS handshake that failed: no HTTP request, so no Delivery; often the sender refusing a self-signed certificate. */
export interface TlsFailure {
  at: string
  remoteAddress?: string
  code?: string
  message: string
  hint?: string
}

/** Chooses the answer to a verified delivery: a status from 200 to 599, or undefined for the default 200. */
export type RespondRule = (event: WebhookEvent, delivery: { webhookId: string; attempt: number; verdict: 'accepted' | 'duplicate' }) => number | undefined

/** What the sink received, counted in full however little of it is kept. */
export interface SinkCounts {
  /** Every request recorded, noise included. */
  received: number
  accepted: number
  duplicate: number
  rejected: number
  /** Refused requests per reason. */
  reasons: Record<string, number>
  /** Requests set aside as noise, per reason (not kept, or dropped from the unverified ones). */
  noise: Record<string, number>
  /** Kept deliveries dropped past a cap: signed ones past maxDeliveries, or unsigned ones that all named a record of the run. */
  dropped: number
  tlsFailures: number
  /** Log lines not written because the disk fell behind (SINK_DEFAULTS.maxLogBacklogBytes). */
  logLinesDropped: number
}

export interface SinkOptions {
  /** Default SINK_DEFAULTS.host. */
  host?: string
  /** 0 picks a free port. Default SINK_DEFAULTS.port. */
  port?: number
  /** The endpoint's signing secret, `whsec_…` (§6.1). */
  secret: string
  /** HTTPS with a certificate generated now, or a given one (PEM). Default: plain HTTP, for loopback use. */
  tls?: 'self-signed' | { cert: string | Buffer; key: string | Buffer }
  /** Appends one JSON line per delivery (and per failed TLS handshake). */
  logFile?: string
  maxBodyBytes?: number
  headerTimeoutMs?: number
  bodyTimeoutMs?: number
  maxDeliveries?: number
  maxUnverified?: number
  /**
   * Whether the run created record `id` with a call sent at or before `atMs` (ms since the epoch): ties a delivery
   * to the run. Without it (the standalone sink) nothing is tied, and the oldest unverified deliveries go first.
   */
  runRecords?: (id: string, atMs: number) => boolean
  /** Prints one line per delivery: true for stdout, or a function that takes each line. Default off. */
  print?: boolean | ((line: string) => void)
}

export interface Sink {
  /** Where to send deliveries, e.g. `https://127.0.0.1:8787/` (any path is accepted). */
  url: string
  port: number
  /** The certificate served over HTTPS, to trust or pin it. */
  certificate?: { pem: string; fingerprint256: string }
  /**
   * What may have come from the server, in arrival order: deliveries signed with the secret, and (at most
   * maxUnverified) unverified ones that name a record. Noise is not here (see counts and noiseSamples).
   */
  deliveries: readonly Delivery[]
  /** The latest noise requests, as examples. */
  noiseSamples: readonly Delivery[]
  /** The latest failed TLS handshakes, as examples. */
  tlsFailures: readonly TlsFailure[]
  counts(): SinkCounts
  /** Whether a delivery names a record the run created, by a call sent before the delivery arrived (runRecords). */
  tiedToRun(delivery: Delivery): boolean
  /** The first kept delivery, past or future, that matches; undefined after timeoutMs or on close. */
  waitFor(predicate: (delivery: Delivery) => boolean, timeoutMs: number): Promise<Delivery | undefined>
  /** Answers chosen verified deliveries with another status (e.g. 503, to observe retries); undefined restores 200. */
  respondWith(rule: RespondRule | undefined): void
  close(): Promise<void>
}

/** The status answered for each refusal. */
export const REJECTION_STATUS: Record<SinkRejection, number> = {
  missing_header: 400,
  malformed_header: 400,
  timestamp_not_seconds: 400,
  not_json: 400,
  bad_http: 400,
  incomplete_body: 400,
  bad_signature: 401,
  stale_timestamp: 401,
  future_timestamp: 401,
  slow_client: 408,
  too_large: 413,
  bad_shape: 422,
  sink_error: 500,
}

const DIAGNOSED = new Set<SinkRejection>(['bad_signature', 'timestamp_not_seconds', 'malformed_header', 'missing_header'])
/** Refusals for how a request came (its size, its pace, its HTTP), never for what it says: noise in every case. */
const TRANSPORT_REFUSALS = new Set<SinkRejection>(['too_large', 'slow_client', 'bad_http', 'incomplete_body', 'sink_error'])
/** Distinct (timestamp, body) pairs remembered per webhook-id, to tell a byte-identical replay. */
const MAX_FINGERPRINTS = 16

interface IdHistory {
  /** Attempts of the server's (first, retries, resends), replays not counted. */
  attempts: number
  /** The sink's answer to the latest of them. */
  lastStatus: number
  /** `<webhook-timestamp>.<body SHA-256>` of each. */
  fingerprints: Set<string>
}
const REDACTED_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie'])
const WHSEC = /^whsec_[A-Za-z0-9+/]+=*$/

interface Waiter {
  predicate: (delivery: Delivery) => boolean
  resolve: (delivery: Delivery | undefined) => void
  reject: (error: unknown) => void
  timer: NodeJS.Timeout
}

/** Control and bidi characters from a sender never reach the terminal. */
function printable(text: string, max = 120): string {
  const clean = text.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, '?')
  return clean.length > max ? `${clean.slice(0, max)}…` : clean
}

export function describeDelivery(d: Delivery): string {
  const mark = d.verdict === 'accepted' ? '✓' : d.verdict === 'duplicate' ? '↻' : '✗'
  const parts = [mark, printable(d.type ?? '-', 60), printable(d.webhookId ?? '-', 60), d.verdict]
  if (d.noise === 'replayed_id') parts.push('(replay)')
  else if (d.verdict === 'duplicate') parts.push(`(attempt ${d.attempt})`)
  if (d.verdict === 'rejected') parts.push(`${d.reason} → ${d.status}: ${printable(d.detail ?? '', 300)}`)
  else if (d.status !== 200) parts.push(`→ ${d.status}${d.detail ? ` (${printable(d.detail, 200)})` : ''}`)
  return [parts.join(' '), ...(d.mistakes ?? []).map((m) => `    hint: ${m.message}`)].join('\n')
}

function recordedHeaders(raw: string[]): Record<string, string | string[]> {
  // No prototype: a header named __proto__ stays a header.
  const headers = Object.create(null) as Record<string, string | string[]>
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i].toLowerCase()
    const value = REDACTED_HEADERS.has(name) ? '<redacted>' : raw[i + 1]
    const previous = headers[name]
    headers[name] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value]
  }
  return headers
}

/** Record ids longer than this are not ids anyone's run created. */
const MAX_CLAIM_LENGTH = 200

/** The record ids an event names: `data.id` and `data.object.id` (§6.3 does not say whose id `data.id` is). */
function claimsOf(parsed: unknown): string[] {
  const data = (parsed as { data?: { id?: unknown; object?: { id?: unknown } } } | null)?.data
  const ids = [data?.id, data?.object?.id].filter((v): v is string => typeof v === 'string' && v.length > 0 && v.length <= MAX_CLAIM_LENGTH)
  return [...new Set(ids)]
}

/** The event kind and record ids a refused body claims, for the record and the tie to the run: not verified. */
function readBody(body: Buffer): { type?: string; claims: string[] } {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { type?: unknown }
    return { type: typeof parsed?.type === 'string' ? parsed.type.slice(0, MAX_CLAIM_LENGTH) : undefined, claims: claimsOf(parsed) }
  } catch {
    return { claims: [] }
  }
}

/** OpenSSL's "803C…:error:0A000418:SSL routines:ssl3_read_bytes:tlsv1 alert unknown ca:../deps/…" → "tlsv1 alert unknown ca". */
function cleanTlsMessage(message: string): string {
  const m = /SSL routines:[^:]*:([^:]+)/.exec(message)
  return m ? m[1] : message
}

function tlsHint(message: string): string | undefined {
  if (/unknown ca|bad certificate|certificate unknown|self.signed/i.test(message)) {
    return 'the sender refused the certificate: make it trust this one (see the fingerprint) or serve one it trusts with --cert/--key'
  }
  if (/http request|wrong version number/i.test(message)) return 'the sender spoke plain HTTP to this HTTPS sink'
  return undefined
}

/** Names a certificate for this host must carry: the host, loopback, and for a wildcard host this machine's names. */
function certificateNames(host: string): string[] {
  const names = new Set(['localhost', '127.0.0.1', '::1'])
  if (host === '0.0.0.0' || host === '::' || host === '') {
    names.add(hostname())
    for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) names.add(a.address)
  } else {
    names.add(host)
  }
  return [...names]
}

async function selfSignedCertificate(host: string): Promise<{ cert: string; key: string }> {
  const names = certificateNames(host)
  const notBeforeDate = new Date(Date.now() - 24 * 3600 * 1000)
  const notAfterDate = new Date(Date.now() + SINK_DEFAULTS.selfSignedDays * 24 * 3600 * 1000)
  const commonName = isIP(host) || host === '' ? 'localhost' : host.slice(0, 64)
  const pems = await generate([{ name: 'commonName', value: commonName }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: names.map((n) => (isIP(n) ? { type: 7 as const, ip: n } : { type: 2 as const, value: n })) },
    ],
  })
  return { cert: pems.cert, key: pems.private }
}

function openLog(path: string): WriteStream {
  let fd: number
  try {
    mkdirSync(dirname(path), { recursive: true })
    fd = openSync(path, 'a')
  } catch (error) {
    throw new CrmConfError('CRMCONF_CONFIG_INVALID', `Cannot open the webhook log ${path}: ${(error as Error).message}`, { cause: error })
  }
  return createWriteStream(path, { fd })
}

function send(res: ServerResponse, status: number, body: unknown, close = false): void {
  if (res.headersSent || res.destroyed) return
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...(close ? { connection: 'close' } : {}) })
  res.end(text)
}

export async function startSink(options: SinkOptions): Promise<Sink> {
  const host = options.host ?? SINK_DEFAULTS.host
  const port = options.port ?? SINK_DEFAULTS.port
  const maxBodyBytes = options.maxBodyBytes ?? SINK_DEFAULTS.maxBodyBytes
  const headerTimeoutMs = options.headerTimeoutMs ?? SINK_DEFAULTS.headerTimeoutMs
  const bodyTimeoutMs = options.bodyTimeoutMs ?? SINK_DEFAULTS.bodyTimeoutMs
  const maxDeliveries = options.maxDeliveries ?? SINK_DEFAULTS.maxDeliveries
  const maxUnverified = options.maxUnverified ?? SINK_DEFAULTS.maxUnverified
  const { secret, runRecords } = options
  try {
    if (typeof secret !== 'string' || !WHSEC.test(secret)) throw new Error('expected whsec_ followed by base64')
    new Webhook(secret)
  } catch (error) {
    throw new CrmConfError('CRMCONF_CONFIG_INVALID', `The webhook sink needs the endpoint's signing secret (§6.1): ${(error as Error).message}`, { cause: error })
  }
  const print = options.print === true ? (line: string) => void process.stdout.write(`${line}\n`) : options.print || undefined
  const tls = options.tls === 'self-signed' ? await selfSignedCertificate(host) : options.tls

  const deliveries: Delivery[] = []
  const noiseSamples: Delivery[] = []
  const tlsFailures: TlsFailure[] = []
  const counts: SinkCounts = { received: 0, accepted: 0, duplicate: 0, rejected: 0, reasons: {}, noise: {}, dropped: 0, tlsFailures: 0, logLinesDropped: 0 }
  let authenticKept = 0
  let unverifiedKept = 0
  const tied = new WeakSet<Delivery>()
  const histories = new Map<string, IdHistory>()
  const waiters = new Set<Waiter>()
  const sockets = new Set<Socket>()
  /** Sockets whose request handler is running: its own timers answer, not the clientError handler. */
  const busy = new WeakSet<object>()
  let rule: RespondRule | undefined
  let closing: Promise<void> | undefined
  let log: WriteStream | undefined = options.logFile === undefined ? undefined : openLog(options.logFile)
  log?.on('error', (error) => {
    print?.(`! the webhook log stopped: ${error.message}`)
    log = undefined
  })

  // A disk slower than a flood must not make the log's buffer the unbounded store: past the backlog, lines are
  // counted instead of written.
  const writeLog = (line: object): void => {
    if (log === undefined) return
    if (log.writableLength > SINK_DEFAULTS.maxLogBacklogBytes) {
      if (counts.logLinesDropped++ === 0) print?.(`! the webhook log falls behind: lines are dropped while over ${SINK_DEFAULTS.maxLogBacklogBytes} bytes are waiting to be written`)
      return
    }
    log.write(`${JSON.stringify(line)}\n`)
  }

  function tiedToRun(d: Delivery): boolean {
    if (tied.has(d)) return true
    if (runRecords === undefined || !d.claims?.length) return false
    const at = Date.parse(d.receivedAt)
    let yes = false
    try {
      yes = d.claims.some((id) => runRecords(id, at))
    } catch {
      yes = false
    }
    if (yes) tied.add(d)
    return yes
  }

  function countNoise(d: Delivery, reason: NoiseReason): void {
    d.noise = reason
    counts.noise[reason] = (counts.noise[reason] ?? 0) + 1
    noiseSamples.push(d)
    if (noiseSamples.length > SINK_DEFAULTS.noiseSamples) noiseSamples.shift()
  }

  /** Keeps a delivery that may be the server's, within the two bounds; what falls out is counted. */
  function keep(d: Delivery): void {
    deliveries.push(d)
    if (d.authentic) {
      if (++authenticKept <= maxDeliveries) return
      deliveries.splice(deliveries.findIndex((x) => x.authentic), 1)
      authenticKept--
      counts.dropped++
      return
    }
    if (++unverifiedKept <= maxUnverified) return
    // The oldest that names no record of the run is a stranger's; only when every one does, the oldest goes.
    const stranger = deliveries.findIndex((x) => !x.authentic && !tiedToRun(x))
    const index = stranger >= 0 ? stranger : deliveries.findIndex((x) => !x.authentic)
    const [gone] = deliveries.splice(index, 1)
    unverifiedKept--
    if (stranger >= 0) countNoise(gone!, gone!.reason ?? 'unrelated')
    else counts.dropped++
  }

  function record(fields: Omit<Delivery, 'seq'>): Delivery {
    if (closing) return { seq: counts.received, ...fields }
    counts.received++
    counts[fields.verdict]++
    if (fields.reason) counts.reasons[fields.reason] = (counts.reasons[fields.reason] ?? 0) + 1
    const delivery: Delivery = { seq: counts.received, ...fields }
    writeLog({ kind: 'delivery', ...delivery })
    print?.(describeDelivery(delivery))
    if (delivery.noise) {
      countNoise(delivery, delivery.noise)
      return delivery
    }
    keep(delivery)
    for (const waiter of waiters) {
      let matches: boolean
      try {
        matches = waiter.predicate(delivery)
      } catch (error) {
        waiters.delete(waiter)
        clearTimeout(waiter.timer)
        waiter.reject(error)
        continue
      }
      if (matches) {
        waiters.delete(waiter)
        clearTimeout(waiter.timer)
        waiter.resolve(delivery)
      }
    }
    return delivery
  }

  /** How an authentic attempt relates to the earlier ones of its webhook-id (see AttemptKind). */
  function attemptKind(webhookId: string, fingerprint: string): AttemptKind {
    const history = histories.get(webhookId)
    if (history === undefined) return 'first'
    if (history.lastStatus < 200 || history.lastStatus >= 300) return 'retry'
    return history.fingerprints.has(fingerprint) ? 'replay' : 'again'
  }

  /** Remembers the sink's answer to an attempt of the server's (never to a replay, which anyone can send). */
  function remember(webhookId: string, fingerprint: string, status: number): number {
    const history = histories.get(webhookId) ?? { attempts: 0, lastStatus: status, fingerprints: new Set<string>() }
    history.attempts++
    history.lastStatus = status
    if (history.fingerprints.size < MAX_FINGERPRINTS) history.fingerprints.add(fingerprint)
    histories.delete(webhookId)
    histories.set(webhookId, history)
    if (histories.size > maxDeliveries) histories.delete(histories.keys().next().value!)
    return history.attempts
  }

  function onRequest(req: IncomingMessage, res: ServerResponse): void {
    // An aborted upload errors the request; 'close' below records it. A write to a gone client must not throw.
    req.on('error', () => undefined)
    res.on('error', () => undefined)
    const base = {
      receivedAt: new Date().toISOString(),
      method: req.method ?? '',
      path: req.url ?? '',
      headers: recordedHeaders(req.rawHeaders),
      remoteAddress: req.socket.remoteAddress,
    }
    if (req.method === 'GET' || req.method === 'HEAD') {
      req.resume()
      send(res, 200, { sink: 'crm-conformance', deliveries: counts.received })
      return
    }
    const socket = req.socket
    // Busy until both the answer and the request are done: a body cut off after an early 413 is not a new request.
    busy.add(socket)
    let open = 2
    const done = (): void => void (--open === 0 && busy.delete(socket))
    res.once('close', done)
    req.once('close', done)

    const chunks: Buffer[] = []
    let preview = Buffer.alloc(0)
    let size = 0
    const declared = Number(req.headers['content-length'])
    let answered = false
    let ended = false
    const idHeader = req.headersDistinct['webhook-id']?.[0]

    const reject = (reason: SinkRejection, detail: string, extra: Partial<Delivery> = {}, close = false): void => {
      answered = true
      const status = REJECTION_STATUS[reason]
      record({
        ...base,
        webhookId: idHeader,
        verdict: 'rejected',
        reason,
        detail,
        bodyBytes: size,
        bodyPreview: preview.toString('utf8'),
        status,
        authentic: false,
        ...(TRANSPORT_REFUSALS.has(reason) ? { noise: reason } : {}),
        ...extra,
      })
      send(res, status, { error: { code: reason, message: detail } }, close)
      if (close) res.on('finish', () => socket.destroy())
    }

    // Past its time, a body still arriving is cut off: unanswered, 408; refused already (413), the connection closes.
    const timer = setTimeout(() => {
      if (ended) return
      if (answered) socket.destroy()
      else reject('slow_client', `body not complete ${bodyTimeoutMs} ms after the headers (${size} of ${Number.isFinite(declared) ? declared : 'unknown'} bytes)`, {}, true)
    }, bodyTimeoutMs)

    // Refused at once, before a byte of the body is read; what still comes is read and thrown away.
    if (declared > maxBodyBytes) reject('too_large', `content-length ${declared} is over the limit of ${maxBodyBytes} bytes (the spec names no maximum, §8)`)

    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (answered) return
      if (preview.length < SINK_DEFAULTS.bodyPreviewBytes) preview = Buffer.concat([preview, chunk]).subarray(0, SINK_DEFAULTS.bodyPreviewBytes)
      if (size > maxBodyBytes) {
        chunks.length = 0
        reject('too_large', `body over the limit of ${maxBodyBytes} bytes (the spec names no maximum, §8); the rest is thrown away`)
        return
      }
      chunks.push(chunk)
    })
    req.on('close', () => {
      clearTimeout(timer)
      if (!answered && !ended) reject('incomplete_body', `the sender closed the connection after ${size} body bytes; no answer could be sent`)
    })
    req.on('end', () => {
      ended = true
      clearTimeout(timer)
      if (answered) return
      answered = true
      const rawBody = Buffer.concat(chunks)
      chunks.length = 0
      try {
        judge(rawBody)
      } catch (error) {
        reject('sink_error', `the sink failed to verify: ${(error as Error).message}`)
      }
    })

    function judge(rawBody: Buffer): void {
      const input = { secret, headers: req.headersDistinct, rawBody, maxBodyBytes }
      const result = verifyDelivery(input)
      const bodySha256 = createHash('sha256').update(rawBody).digest('hex')
      if (result.ok) {
        acknowledge(result.event, result.webhookId, `${result.timestamp}.${bodySha256}`, bodySha256)
        return
      }
      const examined = examineSignature(input)
      const { type, claims } = readBody(rawBody)
      const status = REJECTION_STATUS[result.reason]
      const mistakes = DIAGNOSED.has(result.reason) ? examined.mistakes : []
      const fields = {
        ...base,
        webhookId: result.webhookId ?? idHeader,
        timestamp: result.timestamp,
        type,
        verdict: 'rejected' as const,
        reason: result.reason,
        detail: result.detail,
        ...(mistakes.length > 0 ? { mistakes } : {}),
        bodyBytes: size,
        bodyPreview: preview.toString('utf8'),
        status,
        authentic: examined.authentic,
        claims,
        bodySha256,
      }
      if (examined.authentic && examined.webhookId !== undefined) {
        // Signed with the secret: the server's, unless it is a copy of an attempt already answered 2xx.
        const fingerprint = `${examined.timestampText}.${bodySha256}`
        const kind = attemptKind(examined.webhookId, fingerprint)
        if (kind === 'replay') {
          record({ ...fields, attemptKind: kind, attempt: histories.get(examined.webhookId)!.attempts, noise: 'replayed_id' })
        } else {
          record({ ...fields, attemptKind: kind, attempt: remember(examined.webhookId, fingerprint, status) })
        }
      } else {
        // Not signed with the secret: it may still be the server's, signed wrongly, if it names a record.
        record({ ...fields, ...(claims.length === 0 ? { noise: result.reason } : {}) })
      }
      send(res, status, { error: { code: result.reason, message: result.detail } })
    }

    function acknowledge(event: WebhookEvent, webhookId: string, fingerprint: string, bodySha256: string): void {
      const kind = attemptKind(webhookId, fingerprint)
      const common = { ...base, webhookId, timestamp: Number(fingerprint.split('.')[0]), type: event.type, event, bodyBytes: size, authentic: true, attemptKind: kind, claims: claimsOf(event), bodySha256 }
      if (kind === 'replay') {
        const detail = 'byte for byte an earlier attempt the sink answered 2xx: acknowledged and ignored (§6.6), set aside as a replay'
        record({ ...common, verdict: 'duplicate', attempt: histories.get(webhookId)!.attempts, status: 200, detail, noise: 'replayed_id' })
        send(res, 200, { received: true, verdict: 'duplicate' })
        return
      }
      // §6.6: a repeated webhook-id is acknowledged but counted once; a retry after a chosen non-2xx is a repeat too.
      const verdict = kind === 'first' ? 'accepted' : 'duplicate'
      const attempt = (histories.get(webhookId)?.attempts ?? 0) + 1
      let status = 200
      let detail = verdict === 'duplicate' ? 'webhook-id seen before; acknowledged and ignored (§6.6)' : undefined
      try {
        const chosen = rule?.(event, { webhookId, attempt, verdict })
        if (chosen !== undefined) {
          if (!Number.isInteger(chosen) || chosen < 200 || chosen > 599) throw new Error(`it returned ${String(chosen)}, not a status from 200 to 599`)
          status = chosen
          if (status >= 300) detail = `answered ${status} as told by respondWith`
        }
      } catch (error) {
        status = 500
        detail = `the respondWith rule failed: ${(error as Error).message}`
      }
      remember(webhookId, fingerprint, status)
      record({ ...common, verdict, attempt, status, ...(detail ? { detail } : {}) })
      send(res, status, status < 300 ? { received: true, verdict } : { error: { code: 'sink_configured_failure', message: detail } })
    }
  }

  const httpOptions = {
    headersTimeout: headerTimeoutMs,
    // A backstop only: the body timer answers first.
    requestTimeout: headerTimeoutMs + bodyTimeoutMs + 1000,
    // Node checks the two timeouts above on this period; a short one makes headerTimeoutMs precise.
    connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(headerTimeoutMs / 4))),
  }
  const server = tls
    ? createHttpsServer({ ...httpOptions, cert: tls.cert, key: tls.key, handshakeTimeout: headerTimeoutMs }, onRequest)
    : createHttpServer(httpOptions, onRequest)

  server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })

  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (busy.has(socket) || error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy()
      return
    }
    const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
    // A connection that never sent a byte (a pre-opened or probing connection) is closed without a record.
    if (timedOut && socket.bytesRead === 0) {
      socket.destroy()
      return
    }
    const reason: SinkRejection = timedOut ? 'slow_client' : 'bad_http'
    const status = timedOut ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400
    // A TLS handshake record starts with 0x16: the sender speaks HTTPS to this plain-HTTP sink.
    const spokeTls = (error as { rawPacket?: Buffer }).rawPacket?.[0] === 0x16
    const detail = timedOut
      ? `request headers not complete within ${headerTimeoutMs} ms`
      : spokeTls
        ? 'the sender speaks TLS to this plain-HTTP sink: start it with --tls self-signed or --cert/--key'
        : `not a valid HTTP request (${error.code ?? 'parse error'}): ${error.message}`
    record({ receivedAt: new Date().toISOString(), method: '', path: '', headers: {}, verdict: 'rejected', reason, detail, bodyBytes: 0, status, remoteAddress: socket.remoteAddress, authentic: false, noise: reason })
    const text = JSON.stringify({ error: { code: reason, message: detail } })
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`, () => socket.destroy())
  })

  server.on('tlsClientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    // The TCP bytes read tell a sender that hung up after its ClientHello from a bare connect-and-close probe.
    // Node exposes them only on the TLS socket's private _parent; without it, hang-ups go unrecorded.
    const tcp = (socket as Socket & { _parent?: Socket })._parent
    const tcpBytesRead = tcp?.bytesRead ?? 0
    const remoteAddress = tcp?.remoteAddress ?? socket.remoteAddress
    socket.destroy()
    const hungUp = error.code === 'ECONNRESET'
    if (closing || (hungUp && tcpBytesRead === 0)) return
    const message = hungUp ? 'the sender hung up during the TLS handshake' : cleanTlsMessage(error.message)
    const hint = hungUp
      ? 'a sender that refuses the certificate often just hangs up: make it trust this one (see the fingerprint) or serve one it trusts with --cert/--key'
      : tlsHint(message)
    const failure: TlsFailure = { at: new Date().toISOString(), remoteAddress, code: error.code, message, ...(hint ? { hint } : {}) }
    counts.tlsFailures++
    tlsFailures.push(failure)
    if (tlsFailures.length > SINK_DEFAULTS.tlsFailureSamples) tlsFailures.shift()
    writeLog({ kind: 'tls_failure', ...failure })
    print?.(`✗ TLS handshake failed: ${printable(message, 200)}${hint ? `\n    hint: ${hint}` : ''}`)
  })

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, host, () => {
        server.off('error', reject)
        resolve()
      })
    })
  } catch (error) {
    log?.destroy()
    throw new CrmConfError('CRMCONF_CONFIG_INVALID', `The webhook sink cannot listen on ${host}:${port}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { cause: error })
  }
  server.on('error', (error) => print?.(`! webhook sink: ${error.message}`))

  const address = server.address() as AddressInfo
  const urlHost = host === '0.0.0.0' || host === '' ? '127.0.0.1' : host === '::' ? '[::1]' : isIP(host) === 6 ? `[${host}]` : host
  const url = `${tls ? 'https' : 'http'}://${urlHost}:${address.port}/`
  const certificate = tls ? { pem: tls.cert.toString(), fingerprint256: new X509Certificate(tls.cert).fingerprint256 } : undefined

  return {
    url,
    port: address.port,
    certificate,
    deliveries,
    noiseSamples,
    tlsFailures,
    counts: () => ({ ...counts, reasons: { ...counts.reasons }, noise: { ...counts.noise } }),
    tiedToRun,
    waitFor(predicate, timeoutMs) {
      let found: Delivery | undefined
      try {
        found = deliveries.find(predicate)
      } catch (error) {
        return Promise.reject(error)
      }
      if (found !== undefined || closing) return Promise.resolve(found)
      return new Promise((resolve, reject) => {
        const waiter: Waiter = {
          predicate,
          resolve,
          reject,
          timer: setTimeout(() => {
            waiters.delete(waiter)
            resolve(undefined)
          }, timeoutMs),
        }
        waiters.add(waiter)
      })
    },
    respondWith(next) {
      rule = next
    },
    close() {
      closing ??= (async () => {
        for (const waiter of waiters) {
          clearTimeout(waiter.timer)
          waiter.resolve(undefined)
        }
        waiters.clear()
        const closed = new Promise<void>((resolve) => server.close(() => resolve()))
        for (const socket of sockets) socket.destroy()
        await closed
        const stream = log
        log = undefined
        if (stream) await new Promise<void>((resolve) => stream.end(resolve))
      })()
      return closing
    },
  }
}

