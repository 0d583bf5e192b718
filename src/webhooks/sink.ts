// The webhook sink: receives deliveries over HTTP(S), verifies each one (verify.ts), answers, and keeps what may
// have come from the server under test. Anyone can post to its port: what cannot have come from the server (no
// signature made with the secret and no record named, a byte-identical replay, a body past the limit, a slow or
// broken client) is counted as noise and not kept, so no flood of it grows memory or pushes out a real delivery.
// Bad input of any kind ends in a 4xx; the sink keeps serving.
// Beside it: sink-types.ts (defaults, Delivery, options), sink-delivery.ts (one request), sink-request.ts (reading and answering a request),
// sink-history.ts (attempts per webhook-id), sink-log.ts (printed lines, the JSON-lines log), sink-tls.ts
// (certificate, handshake failures). Here: `WebhookSink` keeps the counts, the kept deliveries and the waiters, and
// answers the server's events; `IncomingDelivery` (sink-delivery.ts) reads, bounds and judges one request for it.
import { X509Certificate } from 'node:crypto'
import { createServer as createHttpServer, STATUS_CODES } from 'node:http'
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { Server as HttpsServer } from 'node:https'
import { isIP } from 'node:net'
import type { AddressInfo, Socket } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { CrmConfError } from '../errors.ts'
import { AttemptHistory } from './sink-history.ts'
import { describeDelivery, printable, sinkLog, type SinkLog } from './sink-log.ts'
import { printable as printableText } from '../text/printable.ts'
import { send } from './sink-request.ts'
import { selfSignedCertificate, tlsFailureOf } from './sink-tls.ts'
import { SINK_DEFAULTS } from './sink-types.ts'
import type { Delivery, NoiseReason, RespondRule, Sink, SinkCounts, SinkOptions, SinkRejection, TlsFailure } from './sink-types.ts'
import { IncomingDelivery, type SinkCore, type SinkSettings } from './sink-delivery.ts'

export { REJECTION_STATUS, SINK_DEFAULTS } from './sink-types.ts'
export type { AttemptKind, Delivery, NoiseReason, RespondRule, Sink, SinkCounts, SinkOptions, SinkRejection, TlsFailure, Verdict } from './sink-types.ts'
export { describeDelivery } from './sink-log.ts'

const WHSEC = /^whsec_[A-Za-z0-9+/]+=*$/

interface Waiter {
  predicate: (delivery: Delivery) => boolean
  resolve: (delivery: Delivery | undefined) => void
  reject: (error: unknown) => void
  timer: NodeJS.Timeout
}

type TlsPair = { cert: string | Buffer; key: string | Buffer }

function settingsOf(options: SinkOptions): SinkSettings {
  const { secret, runRecords } = options
  try {
    if (typeof secret !== 'string' || !WHSEC.test(secret)) throw new Error('expected whsec_ followed by base64')
    new Webhook(secret)
  } catch (error) {
    throw new CrmConfError('CRMCONF_CONFIG_INVALID', `The webhook sink needs the endpoint's signing secret (§6.1): ${(error as Error).message}`, {
      cause: error,
    })
  }
  return {
    host: options.host ?? SINK_DEFAULTS.host,
    port: options.port ?? SINK_DEFAULTS.port,
    maxBodyBytes: options.maxBodyBytes ?? SINK_DEFAULTS.maxBodyBytes,
    headerTimeoutMs: options.headerTimeoutMs ?? SINK_DEFAULTS.headerTimeoutMs,
    bodyTimeoutMs: options.bodyTimeoutMs ?? SINK_DEFAULTS.bodyTimeoutMs,
    maxDeliveries: options.maxDeliveries ?? SINK_DEFAULTS.maxDeliveries,
    maxUnverified: options.maxUnverified ?? SINK_DEFAULTS.maxUnverified,
    secret,
    runRecords,
    print: options.print === true ? (line: string) => void process.stdout.write(`${printableText(line)}\n`) : options.print || undefined,
  }
}

export async function startSink(options: SinkOptions): Promise<Sink> {
  const settings = settingsOf(options)
  const tls = options.tls === 'self-signed' ? await selfSignedCertificate(settings.host) : options.tls
  const sink = new WebhookSink(settings, tls, options.logFile)
  await sink.listen()
  return sink
}

class WebhookSink implements Sink, SinkCore {
  url = ''
  port = 0
  certificate?: { pem: string; fingerprint256: string }
  readonly deliveries: Delivery[] = []
  readonly noiseSamples: Delivery[] = []
  readonly tlsFailures: TlsFailure[] = []
  readonly tally: SinkCounts = { received: 0, accepted: 0, duplicate: 0, rejected: 0, reasons: {}, noise: {}, dropped: 0, tlsFailures: 0, logLinesDropped: 0 }
  readonly history: AttemptHistory
  /** Sockets whose request handler is running: its own timers answer, not the clientError handler. */
  readonly busy = new WeakSet<object>()
  rule: RespondRule | undefined
  private authenticKept = 0
  private unverifiedKept = 0
  private readonly tied = new WeakSet<Delivery>()
  private readonly waiters = new Set<Waiter>()
  private readonly sockets = new Set<Socket>()
  private closing: Promise<void> | undefined
  private readonly log: SinkLog
  private readonly server: HttpServer | HttpsServer

  constructor(
    readonly settings: SinkSettings,
    private readonly tls: TlsPair | undefined,
    logFile: string | undefined,
  ) {
    this.history = new AttemptHistory(settings.maxDeliveries)
    this.log = sinkLog(logFile, this.tally, settings.print)
    const { headerTimeoutMs, bodyTimeoutMs } = settings
    const httpOptions = {
      headersTimeout: headerTimeoutMs,
      // A backstop only: the body timer answers first.
      requestTimeout: headerTimeoutMs + bodyTimeoutMs + 1000,
      // Node checks the two timeouts above on this period; a short one makes headerTimeoutMs precise.
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(headerTimeoutMs / 4))),
    }
    const onRequest = (req: IncomingMessage, res: ServerResponse) => this.onRequest(req, res)
    this.server = tls
      ? createHttpsServer({ ...httpOptions, cert: tls.cert, key: tls.key, handshakeTimeout: headerTimeoutMs }, onRequest)
      : createHttpServer(httpOptions, onRequest)
    this.server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => this.onCheckContinue(req, res))
    this.server.on('connection', (socket: Socket) => this.onConnection(socket))
    this.server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => this.onClientError(error, socket))
    this.server.on('tlsClientError', (error: NodeJS.ErrnoException, socket: Socket) => this.onTlsClientError(error, socket))
  }

  counts(): SinkCounts {
    const counts = this.tally
    return { ...counts, reasons: { ...counts.reasons }, noise: { ...counts.noise } }
  }

  copiesOf(webhookId: string): number {
    return this.history.copies(webhookId)
  }

  tiedToRun(d: Delivery): boolean {
    const { tied } = this
    const { runRecords } = this.settings
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

  waitFor(predicate: (delivery: Delivery) => boolean, timeoutMs: number): Promise<Delivery | undefined> {
    const { deliveries, waiters, closing } = this
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
  }

  respondWith(next: RespondRule | undefined): void {
    this.rule = next
  }

  close(): Promise<void> {
    const { waiters, server, sockets, log } = this
    this.closing ??= (async () => {
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
    return this.closing
  }

  async listen(): Promise<void> {
    const { server, log, tls } = this
    const { host, port, print } = this.settings
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
    this.url = `${tls ? 'https' : 'http'}://${urlHost}:${address.port}/`
    this.port = address.port
    this.certificate = tls ? { pem: tls.cert.toString(), fingerprint256: new X509Certificate(tls.cert).fingerprint256 } : undefined
  }

  private countNoise(d: Delivery, reason: NoiseReason): void {
    const { tally: counts, noiseSamples } = this
    d.noise = reason
    counts.noise[reason] = (counts.noise[reason] ?? 0) + 1
    noiseSamples.push(d)
    if (noiseSamples.length > SINK_DEFAULTS.noiseSamples) noiseSamples.shift()
  }

  /** Keeps a delivery that may be the server's, within the two bounds; what falls out is counted. */
  private keep(d: Delivery): void {
    const { deliveries, tally: counts } = this
    const { maxDeliveries, maxUnverified } = this.settings
    deliveries.push(d)
    if (d.authentic) {
      if (++this.authenticKept <= maxDeliveries) return
      deliveries.splice(
        deliveries.findIndex((x) => x.authentic),
        1,
      )
      this.authenticKept--
      counts.dropped++
      return
    }
    if (++this.unverifiedKept <= maxUnverified) return
    // The oldest that names no record of the run is a stranger's; only when every one does, the oldest goes.
    const stranger = deliveries.findIndex((x) => !x.authentic && !this.tiedToRun(x))
    const index = stranger >= 0 ? stranger : deliveries.findIndex((x) => !x.authentic)
    const [gone] = deliveries.splice(index, 1)
    this.unverifiedKept--
    if (stranger >= 0) this.countNoise(gone!, gone!.reason ?? 'unrelated')
    else counts.dropped++
  }

  record(fields: Omit<Delivery, 'seq'>): Delivery {
    const { tally: counts, log, waiters } = this
    const { print } = this.settings
    if (this.closing) return { seq: counts.received, ...fields }
    counts.received++
    counts[fields.verdict]++
    if (fields.reason) counts.reasons[fields.reason] = (counts.reasons[fields.reason] ?? 0) + 1
    const delivery: Delivery = { seq: counts.received, ...fields }
    log.write({ kind: 'delivery', ...delivery })
    print?.(describeDelivery(delivery))
    if (delivery.noise) {
      this.countNoise(delivery, delivery.noise)
      return delivery
    }
    this.keep(delivery)
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

  /**
   * RFC 9110 §10.1.1: a sender that sends `Expect: 100-continue` waits for the 100 before its body. It is sent one
   * unless the body it declared is over the limit: then the 413 comes instead, and the body is never sent.
   * (Node's default would send the 100 first and make the sender upload a body that is thrown away.)
   */
  private onCheckContinue(req: IncomingMessage, res: ServerResponse): void {
    if (!(Number(req.headers['content-length']) > this.settings.maxBodyBytes)) res.writeContinue()
    this.onRequest(req, res)
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    // An aborted upload errors the request; 'close' below records it. A write to a gone client must not throw.
    req.on('error', () => undefined)
    res.on('error', () => undefined)
    if (req.method === 'GET' || req.method === 'HEAD') {
      req.resume()
      send(res, 200, { sink: 'crm-conformance', deliveries: this.tally.received })
      return
    }
    new IncomingDelivery(this, req, res).read()
  }

  private onConnection(socket: Socket): void {
    const { sockets } = this
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  }

  private onClientError(error: NodeJS.ErrnoException, socket: Socket): void {
    const { busy } = this
    const { headerTimeoutMs } = this.settings
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
    this.record({
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
  }

  private onTlsClientError(error: NodeJS.ErrnoException, socket: Socket): void {
    const { tally: counts, tlsFailures, log } = this
    const { print } = this.settings
    const failure = tlsFailureOf(error, socket, this.closing !== undefined)
    if (failure === undefined) return
    counts.tlsFailures++
    tlsFailures.push(failure)
    if (tlsFailures.length > SINK_DEFAULTS.tlsFailureSamples) tlsFailures.shift()
    log.write({ kind: 'tls_failure', ...failure })
    print?.(`✗ TLS handshake failed: ${printable(failure.message, 200)}${failure.hint ? `\n    hint: ${failure.hint}` : ''}`)
  }
}
