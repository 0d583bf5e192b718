// One POST to the webhook sink (sink.ts): its body read within the sink's bounds (size, time), then verified
// (verify.ts), recorded through the sink and answered exactly once; a body past a bound is refused and counted.
import { createHash } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { AttemptHistory } from './sink-history.ts'
import { claimsOf, readBody, recordedHeaders, send } from './sink-request.ts'
import { REJECTION_STATUS, SINK_DEFAULTS } from './sink-types.ts'
import type { Delivery, RespondRule, SinkOptions, SinkRejection } from './sink-types.ts'
import { examineSignature, verifyDelivery } from './verify.ts'
import type { WebhookEvent } from './verify.ts'

const DIAGNOSED = new Set<SinkRejection>(['bad_signature', 'timestamp_not_seconds', 'malformed_header', 'missing_header'])
/** Refusals for how a request came (its size, its pace, its HTTP), never for what it says: noise in every case. */
const TRANSPORT_REFUSALS = new Set<SinkRejection>(['too_large', 'slow_client', 'bad_http', 'incomplete_body', 'sink_error'])

/** The sink's options with their defaults, read once. */
export interface SinkSettings {
  host: string
  port: number
  maxBodyBytes: number
  headerTimeoutMs: number
  bodyTimeoutMs: number
  maxDeliveries: number
  maxUnverified: number
  secret: string
  runRecords: SinkOptions['runRecords']
  print: ((line: string) => void) | undefined
}

/** What a request needs of the sink: its settings and bounds, the attempt history, the chosen answers, the record. */
export interface SinkCore {
  readonly settings: SinkSettings
  readonly history: AttemptHistory
  /** Sockets whose request handler is running: its own timers answer, not the clientError handler. */
  readonly busy: WeakSet<object>
  readonly rule: RespondRule | undefined
  record(fields: Omit<Delivery, 'seq'>): Delivery
}

/** One POST to the sink: its body read within the bounds, then judged, recorded and answered exactly once. */
export class IncomingDelivery {
  private readonly base: Pick<Delivery, 'receivedAt' | 'method' | 'path' | 'headers' | 'remoteAddress'>
  private readonly socket: Socket
  private readonly chunks: Buffer[] = []
  private preview = Buffer.alloc(0)
  private size = 0
  private readonly declared: number
  private answered = false
  private ended = false
  private readonly idHeader: string | undefined
  private timer: NodeJS.Timeout | undefined

  constructor(
    private readonly sink: SinkCore,
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
  ) {
    this.base = {
      receivedAt: new Date().toISOString(),
      method: req.method ?? '',
      path: req.url ?? '',
      headers: recordedHeaders(req.rawHeaders),
      remoteAddress: req.socket.remoteAddress,
    }
    this.socket = req.socket
    this.declared = Number(req.headers['content-length'])
    this.idHeader = req.headersDistinct['webhook-id']?.[0]
  }

  read(): void {
    const { req, res, socket, declared } = this
    const { busy } = this.sink
    const { bodyTimeoutMs, maxBodyBytes } = this.sink.settings
    // Busy until both the answer and the request are done: a body cut off after an early 413 is not a new request.
    busy.add(socket)
    let open = 2
    const done = (): void => void (--open === 0 && busy.delete(socket))
    res.once('close', done)
    req.once('close', done)

    // Past its time, a body still arriving is cut off: unanswered, 408; refused already (413), the connection closes.
    this.timer = setTimeout(() => {
      if (this.ended) return
      if (this.answered) socket.destroy()
      else
        this.reject(
          'slow_client',
          `body not complete ${bodyTimeoutMs} ms after the headers (${this.size} of ${Number.isFinite(declared) ? declared : 'unknown'} bytes)`,
          {},
          true,
        )
    }, bodyTimeoutMs)

    // Refused at once, before a byte of the body is read; what still comes is read and thrown away. A sender that
    // asked `Expect: 100-continue` was sent no 100 (the sink's onCheckContinue), so no body is coming: the connection closes.
    if (declared > maxBodyBytes)
      this.reject(
        'too_large',
        `content-length ${declared} is over the limit of ${maxBodyBytes} bytes (the spec names no maximum, §8)`,
        {},
        /100-continue/i.test(req.headers.expect ?? ''),
      )

    req.on('data', (chunk: Buffer) => this.onData(chunk))
    req.on('close', () => this.onClose())
    req.on('end', () => this.onEnd())
  }

  private reject(reason: SinkRejection, detail: string, extra: Partial<Delivery> = {}, close = false): void {
    const { base, idHeader, preview, res, socket } = this
    this.answered = true
    const status = REJECTION_STATUS[reason]
    this.sink.record({
      ...base,
      webhookId: idHeader,
      verdict: 'rejected',
      reason,
      detail,
      bodyBytes: this.size,
      bodyPreview: preview.toString('utf8'),
      status,
      authentic: false,
      ...(TRANSPORT_REFUSALS.has(reason) ? { noise: reason } : {}),
      ...extra,
    })
    send(res, status, { error: { code: reason, message: detail } }, close)
    if (close) res.on('finish', () => socket.destroy())
  }

  private onData(chunk: Buffer): void {
    const { chunks } = this
    const { maxBodyBytes } = this.sink.settings
    this.size += chunk.length
    if (this.answered) return
    if (this.preview.length < SINK_DEFAULTS.bodyPreviewBytes) this.preview = Buffer.concat([this.preview, chunk]).subarray(0, SINK_DEFAULTS.bodyPreviewBytes)
    if (this.size > maxBodyBytes) {
      chunks.length = 0
      this.reject('too_large', `body over the limit of ${maxBodyBytes} bytes (the spec names no maximum, §8); the rest is thrown away`)
      return
    }
    chunks.push(chunk)
  }

  private onClose(): void {
    clearTimeout(this.timer)
    if (!this.answered && !this.ended) this.reject('incomplete_body', `the sender closed the connection after ${this.size} body bytes; no answer could be sent`)
  }

  private onEnd(): void {
    const { chunks } = this
    this.ended = true
    clearTimeout(this.timer)
    if (this.answered) return
    this.answered = true
    const rawBody = Buffer.concat(chunks)
    chunks.length = 0
    try {
      this.judge(rawBody)
    } catch (error) {
      this.reject('sink_error', `the sink failed to verify: ${(error as Error).message}`)
    }
  }

  private judge(rawBody: Buffer): void {
    const { req, res, base, idHeader, size, preview } = this
    const { history } = this.sink
    const { secret, maxBodyBytes } = this.sink.settings
    const record = (fields: Omit<Delivery, 'seq'>) => this.sink.record(fields)
    const input = { secret, headers: req.headersDistinct, rawBody, maxBodyBytes }
    const result = verifyDelivery(input)
    const bodySha256 = createHash('sha256').update(rawBody).digest('hex')
    if (result.ok) {
      this.acknowledge(result.event, result.webhookId, `${result.timestamp}.${bodySha256}`, bodySha256)
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
      const kind = history.kind(examined.webhookId, fingerprint)
      if (kind === 'replay') {
        history.copied(examined.webhookId)
        record({ ...fields, attemptKind: kind, attempt: history.attempts(examined.webhookId), noise: 'replayed_id' })
      } else {
        record({ ...fields, attemptKind: kind, attempt: history.remember(examined.webhookId, fingerprint, status) })
      }
    } else {
      // Not signed with the secret: it may still be the server's, signed wrongly, if it names a record.
      record({ ...fields, ...(claims.length === 0 ? { noise: result.reason } : {}) })
    }
    send(res, status, { error: { code: result.reason, message: result.detail } })
  }

  private acknowledge(event: WebhookEvent, webhookId: string, fingerprint: string, bodySha256: string): void {
    const { res, base, size } = this
    const { history, rule } = this.sink
    const record = (fields: Omit<Delivery, 'seq'>) => this.sink.record(fields)
    const kind = history.kind(webhookId, fingerprint)
    const common = {
      ...base,
      webhookId,
      timestamp: Number(fingerprint.split('.')[0]),
      type: event.type,
      event,
      bodyBytes: size,
      authentic: true,
      attemptKind: kind,
      claims: claimsOf(event),
      bodySha256,
    }
    if (kind === 'replay') {
      // Answered as the attempt it copies was: a copy cannot prove a retry (anyone who saw the attempt can post
      // it), so a sender that retried within the same second is answered the same non-2xx and retries again,
      // until an attempt signed anew (a later webhook-timestamp) proves it. A copy of a 2xx-answered attempt gets
      // that 2xx again.
      history.copied(webhookId)
      const status = history.answerOf(webhookId, fingerprint) ?? 200
      const detail =
        status < 300
          ? 'byte for byte an earlier attempt: acknowledged and ignored (§6.6), set aside as a replay (anyone who saw it can post it again)'
          : `byte for byte an earlier attempt answered ${status}: answered ${status} again and set aside as a copy (anyone who saw it can post it again; an attempt signed anew proves a retry)`
      record({ ...common, verdict: 'duplicate', attempt: history.attempts(webhookId), status, detail, noise: 'replayed_id' })
      send(res, status, status < 300 ? { received: true, verdict: 'duplicate' } : { error: { code: 'sink_copy_of_refused_attempt', message: detail } })
      return
    }
    // §6.6: a repeated webhook-id is acknowledged but counted once; a retry after a chosen non-2xx is a repeat too.
    const verdict = kind === 'first' ? 'accepted' : 'duplicate'
    const attempt = history.attempts(webhookId) + 1
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
    history.remember(webhookId, fingerprint, status)
    record({ ...common, verdict, attempt, status, ...(detail ? { detail } : {}) })
    send(res, status, status < 300 ? { received: true, verdict } : { error: { code: 'sink_configured_failure', message: detail } })
  }
}
