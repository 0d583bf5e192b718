// The validating proxy: forwards every request to the target unchanged and streams the answer back unchanged
// (status, headers, body), keeping a copy of both bodies up to a cap. The copy is handed over only after the
// response has been handed back (setImmediate), so the forwarding path does no parsing, validation or I/O of
// its own: what it adds is one hop on loopback. `onCapture` hands over the raw copy (the command posts it to a
// judging thread, judge-thread.ts, so decoding, parsing and rules never run on this thread); `onExchange`
// decodes it here first (tests and scripts that judge in-process).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Readable } from 'node:stream'
import { Agent, EnvHttpProxyAgent, type Dispatcher } from 'undici'
import { DEFAULTS } from '../config/config.ts'
import type { ProxySettings } from '../http/connections.ts'
import { continueTolerantFactory } from '../http/interim-answers.ts'
import { decodeBody } from '../http/content-coding.ts'
import { bodyOfText } from './har.ts'
import type { TrafficExchange } from './types.ts'

/** RFC 9110 §7.6.1 connection-specific fields: a proxy never forwards them (undici refuses some of them). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'expect', 'host'])

export interface ProxyOptions {
  /** The target's base URL, `/v1` or `/api/v1` included. */
  target: string
  host: string
  port: number
  /** Called once per exchange, after its response was handed back to the client (raw: secrets not yet masked). */
  onExchange?(exchange: TrafficExchange): void
  /** Instead of onExchange: the exchange as captured, bodies still raw bytes (`exchangeOf` decodes it), for judging elsewhere. */
  onCapture?(captured: CapturedExchange): void
  /** Bytes of each body kept for judging; past it the copy is cut and flagged `truncated`. */
  captureBytes?: number
  /** The company's forward proxy between this proxy and the target (HTTP_PROXY, HTTPS_PROXY, NO_PROXY, as the config loader read them). */
  upstreamProxy?: ProxySettings
  /** Called when the target did not answer a forwarded request (the client got the proxy's 502). */
  onUnanswered?(error: Error): void
  /** Called when judging an exchange failed (a bug of ours, or input no rule foresaw): forwarding goes on. */
  onJudgeError?(error: Error): void
}

/** Where forwarded requests go out: straight to the target, or through the forward proxy a suite run would use too. */
function upstreamDispatcher(proxy: ProxySettings | undefined): Dispatcher {
  // An unasked `100 Continue` from the target is read past, not answered to the client as a 502 (interim-answers.ts).
  const pool = { keepAliveTimeout: 10_000, connections: 256, factory: continueTolerantFactory }
  if (!proxy?.httpProxy && !proxy?.httpsProxy) return new Agent(pool)
  // Empty strings, never undefined: undefined would let undici read the environment itself.
  return new EnvHttpProxyAgent({ ...pool, httpProxy: proxy.httpProxy ?? '', httpsProxy: proxy.httpsProxy ?? '', noProxy: proxy.noProxy ?? '' })
}

/**
 * A proxy MUST forward 1xx answers (RFC 9110 §15.2): the target's (or its CDN's) `103 Early Hints` reach the client
 * before the final answer. A `100 Continue` answers this proxy's own upload and `102` is obsolete; neither is passed on.
 */
function forwardEarlyHints(res: ServerResponse, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
  if (statusCode !== 103 || res.headersSent || res.destroyed) return
  const hints = Object.fromEntries(Object.entries(headers).filter(([name, value]) => value !== undefined && !HOP_BY_HOP.has(name.toLowerCase())))
  // Node writes an Early Hints block only when it carries a `link`; one without it hints nothing.
  if (hints.link === undefined) return
  res.writeEarlyHints(hints as Record<string, string | string[]>)
}

export interface RunningProxy {
  /** `http://HOST:PORT<base path>`: what clients use as their base URL. */
  url: string
  port: number
  /** Requests forwarded and not yet answered. */
  readonly inFlight: number
  /** Stops accepting, lets answers in flight finish (up to `graceMs`), then closes every connection. */
  close(graceMs?: number): Promise<void>
}

export class Capture {
  private chunks: Buffer[] = []
  private size = 0
  truncated = false

  constructor(readonly cap: number) {}

  add(chunk: Buffer): void {
    if (this.truncated) return
    if (this.size + chunk.length > this.cap) {
      this.chunks.push(chunk.subarray(0, this.cap - this.size))
      this.size = this.cap
      this.truncated = true
      return
    }
    this.chunks.push(chunk)
    this.size += chunk.length
  }

  get bytes(): number {
    return this.size
  }

  buffer(): Buffer {
    return Buffer.concat(this.chunks, this.size)
  }

  /** The bytes in memory of their own (never Buffer's shared pool), so they can be transferred to another thread. */
  owned(): Uint8Array {
    const out = new Uint8Array(this.size)
    let offset = 0
    for (const chunk of this.chunks) {
      out.set(chunk, offset)
      offset += chunk.length
    }
    return out
  }
}

function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  // Entries, not assignments: a header named __proto__ or constructor is data like any other.
  return Object.fromEntries(
    Object.entries(headers)
      .filter((entry): entry is [string, string | string[]] => entry[1] !== undefined)
      .map(([name, value]) => [name.toLowerCase(), Array.isArray(value) ? value.join(', ') : value]),
  )
}

function forwardable(headers: Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  // Fields the Connection header names are hop-by-hop too.
  const named = new Set(
    String(headers.connection ?? '')
      .toLowerCase()
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  )
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase()
    if (value === undefined || HOP_BY_HOP.has(lower) || named.has(lower)) continue
    // defineProperty, not assignment: a header named __proto__ is forwarded as data.
    Object.defineProperty(out, lower, { value, enumerable: true, writable: true, configurable: true })
  }
  return out
}

/**
 * The captured body as a rule sees it: decoded from its content-encoding (bounded), JSON parsed when it is JSON; or
 * unjudged with a note. Never throws: whatever a client or server sent, the exchange is judged and forwarding goes on.
 */
export function bodyOf(capture: Capture, encoding: string | undefined): { body?: unknown; truncated?: boolean; note?: string } {
  if (capture.bytes === 0) return capture.truncated ? { truncated: true, note: 'the body was cut at the capture cap: not judged' } : {}
  if (capture.truncated) return { truncated: true, note: `the body is over ${capture.cap} bytes: not judged` }
  try {
    const decoded = decodeBody(capture.buffer(), encoding)
    if (!decoded.ok) return { truncated: true, note: decoded.note }
    return bodyOfText(decoded.bytes.toString('utf8'))
  } catch (error) {
    return { truncated: true, note: `the body could not be read (${(error as Error).message}): not judged` }
  }
}

/** One exchange as the proxy captured it: headers flattened, bodies the capped raw bytes (structured-clonable). */
export interface CapturedExchange {
  method: string
  url: string
  requestHeaders: Record<string, string>
  requestBody: CapturedBody
  /** Absent when the target did not answer. */
  response?: { status: number; headers: Record<string, string>; body: CapturedBody }
  startedAt: string
  endedAt: string
}

export interface CapturedBody {
  bytes: Uint8Array
  /** The capture cap was reached: `bytes` is the first `cap` bytes. */
  truncated: boolean
  cap: number
}

function capturedBody(capture: Capture): CapturedBody {
  return { bytes: capture.owned(), truncated: capture.truncated, cap: capture.cap }
}

/** A captured body as a rule sees it (see bodyOf). */
function bodyOfCaptured(body: CapturedBody, encoding: string | undefined): ReturnType<typeof bodyOf> {
  const capture = new Capture(body.cap)
  // A structured clone arrives as a Uint8Array: a Buffer view on the same memory, no copy.
  if (body.bytes.length > 0) capture.add(Buffer.from(body.bytes.buffer, body.bytes.byteOffset, body.bytes.length))
  if (body.truncated) capture.truncated = true
  return bodyOf(capture, encoding)
}

/** The captured exchange as rules see it: bodies decoded and parsed (bounded; never throws for any bytes). Secrets not yet masked. */
export function exchangeOf(captured: CapturedExchange): TrafficExchange {
  const requestBody = bodyOfCaptured(captured.requestBody, captured.requestHeaders['content-encoding'])
  const exchange: TrafficExchange = {
    seq: 0,
    source: 'proxy',
    request: {
      method: captured.method,
      url: captured.url,
      headers: captured.requestHeaders,
      ...(requestBody.body !== undefined ? { body: requestBody.body } : {}),
      ...(requestBody.truncated ? { truncated: true, note: requestBody.note } : {}),
    },
    startedAt: captured.startedAt,
    endedAt: captured.endedAt,
  }
  if (captured.response) {
    const { status, headers } = captured.response
    const body = bodyOfCaptured(captured.response.body, headers['content-encoding'])
    exchange.response = {
      status,
      headers,
      ...(body.body !== undefined ? { body: body.body } : {}),
      ...(body.truncated ? { truncated: true, note: body.note } : {}),
    }
  }
  return exchange
}

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const target = new URL(options.target)
  const basePath = target.pathname.replace(/\/+$/, '')
  const origin = target.origin
  const cap = options.captureBytes ?? DEFAULTS.maxResponseBytes
  const agent = upstreamDispatcher(options.upstreamProxy)
  let inFlight = 0

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const startedAt = new Date().toISOString()
    const path = req.url ?? '/'
    const method = req.method ?? 'GET'
    const requestCapture = new Capture(cap)
    const responseCapture = new Capture(cap)
    const hasBody = req.headers['content-length'] !== undefined ? req.headers['content-length'] !== '0' : req.headers['transfer-encoding'] !== undefined
    const abort = new AbortController()
    let status: number | undefined
    let responseHeaders: Record<string, string> = {}
    let done = false
    inFlight++

    const finish = () => {
      if (done) return
      done = true
      inFlight--
      const endedAt = new Date().toISOString()
      // Judged after the answer is out: parsing and rules never delay the client, and nothing they throw ends the proxy.
      setImmediate(() => {
        try {
          judge(endedAt)
        } catch (error) {
          options.onJudgeError?.(error as Error)
        }
      })
    }
    const judge = (endedAt: string) => {
      const captured: CapturedExchange = {
        method,
        url: `${origin}${path}`,
        requestHeaders: flatHeaders(req.headers),
        requestBody: capturedBody(requestCapture),
        ...(status !== undefined ? { response: { status, headers: responseHeaders, body: capturedBody(responseCapture) } } : {}),
        startedAt,
        endedAt,
      }
      if (options.onCapture) options.onCapture(captured)
      else options.onExchange?.(exchangeOf(captured))
    }
    res.on('close', () => {
      if (!res.writableFinished) abort.abort()
      finish()
    })

    async function* requestBody() {
      for await (const chunk of req as AsyncIterable<Buffer>) {
        requestCapture.add(chunk)
        yield chunk
      }
    }

    agent
      .request({
        origin,
        path,
        method: method as 'GET',
        headers: forwardable(req.headers),
        body: hasBody ? Readable.from(requestBody(), { objectMode: false }) : null,
        signal: abort.signal,
        onInfo: ({ statusCode, headers }) => forwardEarlyHints(res, statusCode, headers),
      })
      .then((upstream) => {
        status = upstream.statusCode
        const headers = forwardable(upstream.headers as Record<string, string | string[] | undefined>)
        responseHeaders = flatHeaders(headers)
        res.writeHead(upstream.statusCode, headers)
        upstream.body.on('data', (chunk: Buffer) => {
          responseCapture.add(chunk)
          if (!res.write(chunk)) {
            upstream.body.pause()
            res.once('drain', () => upstream.body.resume())
          }
        })
        upstream.body.on('end', () => res.end())
        upstream.body.on('error', () => res.destroy())
      })
      .catch((error: Error) => {
        if (res.headersSent) return void res.destroy()
        if (abort.signal.aborted) return
        // No answer from the target: the client is told so by the proxy, and nothing is judged of the server.
        res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8', 'x-crm-conformance-proxy': 'target-unreachable' })
        res.end(`crm-conformance proxy: the target did not answer (${error.message})\n`)
        status = undefined
        options.onUnanswered?.(error)
      })
  }

  const server: Server = createServer({ keepAlive: true }, handle)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  const host = address.family === 'IPv6' || address.address.includes(':') ? `[${address.address}]` : address.address
  return {
    url: `http://${host}:${address.port}${basePath}`,
    port: address.port,
    get inFlight() {
      return inFlight
    },
    async close(graceMs = 2_000) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeIdleConnections()
      const deadline = Date.now() + graceMs
      while (inFlight > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
      server.closeAllConnections()
      await closed
      await agent.close()
      // Exchanges that ended just now are handed over on the next turn.
      await new Promise((r) => setImmediate(r))
    },
  }
}
