// The webhook sink: receives deliveries over HTTP(S), verifies each one (verify.ts), answers, and keeps what may
// have come from the server under test. Anyone can post to its port: what cannot have come from the server (no
// signature made with the secret and no record named, a byte-identical replay, a body past the limit, a slow or
// broken client) is counted as noise and not kept, so no flood of it grows memory or pushes out a real delivery.
// Bad input of any kind ends in a 4xx; the sink keeps serving.
// Beside it: sink-types.ts (defaults, Delivery, options), sink-request.ts (reading and answering a request),
// sink-history.ts (attempts per webhook-id), sink-log.ts (printed lines, the JSON-lines log), sink-tls.ts
// (certificate, handshake failures). Past ~400 lines on purpose: startSink is one closure whose request handler,
// bounds and waiters share the counts and the kept deliveries; cut further, they would pass them all around.
import { createHash, X509Certificate } from 'node:crypto'
import { createServer as createHttpServer, STATUS_CODES } from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import { isIP } from 'node:net'
import type { AddressInfo, Socket } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { CrmConfError } from '../errors.ts'
import { AttemptHistory } from './sink-history.ts'
import { describeDelivery, printable, sinkLog } from './sink-log.ts'
import { printable as printableText } from '../text/printable.ts'
import { claimsOf, readBody, recordedHeaders, send } from './sink-request.ts'
import { selfSignedCertificate, tlsFailureOf } from './sink-tls.ts'
import { REJECTION_STATUS, SINK_DEFAULTS } from './sink-types.ts'
import type { Delivery, NoiseReason, RespondRule, Sink, SinkCounts, SinkOptions, SinkRejection, TlsFailure } from './sink-types.ts'
import { examineSignature, verifyDelivery } from './verify.ts'
import type { WebhookEvent } from './verify.ts'

export { REJECTION_STATUS, SINK_DEFAULTS } from './sink-types.ts'
export type { AttemptKind, Delivery, NoiseReason, RespondRule, Sink, SinkCounts, SinkOptions, SinkRejection, TlsFailure, Verdict } from './sink-types.ts'
export { describeDelivery } from './sink-log.ts'

const DIAGNOSED = new Set<SinkRejection>(['bad_signature', 'timestamp_not_seconds', 'malformed_header', 'missing_header'])
/** Refusals for how a request came (its size, its pace, its HTTP), never for what it says: noise in every case. */
const TRANSPORT_REFUSALS = new Set<SinkRejection>(['too_large', 'slow_client', 'bad_http', 'incomplete_body', 'sink_error'])
const WHSEC = /^whsec_[A-Za-z0-9+/]+=*$/

interface Waiter {
  predicate: (delivery: Delivery) => boolean
  resolve: (delivery: Delivery | undefined) => void
  reject: (error: unknown) => void
  timer: NodeJS.Timeout
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
    throw new CrmConfError('CRMCONF_CONFIG_INVALID', `The webhook sink needs the endpoint's signing secret (§6.1): ${(error as Error).message}`, {
      cause: error,
    })
  }
  const print = options.print === true ? (line: string) => void process.stdout.write(`${printableText(line)}\n`) : options.print || undefined
  const tls = options.tls === 'self-signed' ? await selfSignedCertificate(host) : options.tls

  const deliveries: Delivery[] = []
  const noiseSamples: Delivery[] = []
  const tlsFailures: TlsFailure[] = []
  const counts: SinkCounts = { received: 0, accepted: 0, duplicate: 0, rejected: 0, reasons: {}, noise: {}, dropped: 0, tlsFailures: 0, logLinesDropped: 0 }
  let authenticKept = 0
  let unverifiedKept = 0
  const tied = new WeakSet<Delivery>()
  const history = new AttemptHistory(maxDeliveries)
  const waiters = new Set<Waiter>()
  const sockets = new Set<Socket>()
  /** Sockets whose request handler is running: its own timers answer, not the clientError handler. */
  const busy = new WeakSet<object>()
  let rule: RespondRule | undefined
  let closing: Promise<void> | undefined
  const log = sinkLog(options.logFile, counts, print)

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
      deliveries.splice(
        deliveries.findIndex((x) => x.authentic),
        1,
      )
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
    log.write({ kind: 'delivery', ...delivery })
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

  const continueAsked = (req: IncomingMessage): boolean => /100-continue/i.test(req.headers.expect ?? '')

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
      else
        reject(
          'slow_client',
          `body not complete ${bodyTimeoutMs} ms after the headers (${size} of ${Number.isFinite(declared) ? declared : 'unknown'} bytes)`,
          {},
          true,
        )
    }, bodyTimeoutMs)

    // Refused at once, before a byte of the body is read; what still comes is read and thrown away. A sender that
    // asked `Expect: 100-continue` was sent no 100 (checkContinue below), so no body is coming: the connection closes.
    if (declared > maxBodyBytes)
      reject('too_large', `content-length ${declared} is over the limit of ${maxBodyBytes} bytes (the spec names no maximum, §8)`, {}, continueAsked(req))

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

    function acknowledge(event: WebhookEvent, webhookId: string, fingerprint: string, bodySha256: string): void {
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
        history.copied(webhookId)
        const detail = 'byte for byte an earlier attempt: acknowledged and ignored (§6.6), set aside as a replay (anyone who saw it can post it again)'
        record({ ...common, verdict: 'duplicate', attempt: history.attempts(webhookId), status: 200, detail, noise: 'replayed_id' })
        send(res, 200, { received: true, verdict: 'duplicate' })
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

  // RFC 9110 §10.1.1: a sender that sends `Expect: 100-continue` waits for the 100 before its body. It is sent
  // one unless the body it declared is over the limit: then the 413 comes instead, and the body is never sent.
  // (Node's default would send the 100 first and make the sender upload a body that is thrown away.)
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    if (!(Number(req.headers['content-length']) > maxBodyBytes)) res.writeContinue()
    onRequest(req, res)
  })

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
    record({
      receivedAt: new Date().toISOString(),
      method: '',
      path: '',
      headers: {},
      verdict: 'rejected',
      reason,
      detail,
      bodyBytes: 0,
      status,
      remoteAddress: socket.remoteAddress,
      authentic: false,
      noise: reason,
    })
    const text = JSON.stringify({ error: { code: reason, message: detail } })
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
      () => socket.destroy(),
    )
  })

  server.on('tlsClientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const failure = tlsFailureOf(error, socket, closing !== undefined)
    if (failure === undefined) return
    counts.tlsFailures++
    tlsFailures.push(failure)
    if (tlsFailures.length > SINK_DEFAULTS.tlsFailureSamples) tlsFailures.shift()
    log.write({ kind: 'tls_failure', ...failure })
    print?.(`✗ TLS handshake failed: ${printable(failure.message, 200)}${failure.hint ? `\n    hint: ${failure.hint}` : ''}`)
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
    log.destroy()
    throw new CrmConfError(
      'CRMCONF_CONFIG_INVALID',
      `The webhook sink cannot listen on ${host}:${port}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      { cause: error },
    )
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
    copiesOf: (webhookId) => history.copies(webhookId),
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
        await log.close()
      })()
      return closing
    },
  }
}
