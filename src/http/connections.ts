// The connections to the target: proxies (HTTP_PROXY, HTTPS_PROXY, NO_PROXY through undici's
// EnvHttpProxyAgent), and what happens when a server or a load balancer closes an idle keep-alive connection
// just as a request is sent on it.
//
// Such a request fails before any byte of an answer arrives (UND_ERR_SOCKET "other side closed", ECONNRESET,
// EPIPE). The server never processed it, but the client cannot be sure of that, so:
// - requests that are safe to send twice (GET, HEAD, PUT, DELETE, OPTIONS, and a POST that carries an
//   Idempotency-Key, §4.1) go out on a pool of kept-alive connections and are retried, on a fresh connection,
//   by undici's retry interceptor, only while no answer has begun and only when the broken connection had
//   carried an earlier answer (a server that resets every new connection is not sent to again);
// - every other request (an unkeyed POST, a PATCH) is never retried, and never meets a stale connection
//   either: it goes out on a connection of its own, opened for it and closed after it (`reset`). That costs
//   one TCP (and TLS) handshake per such request, a few hundred per run, and no idle timeout has to be
//   guessed: load balancers close idle connections anywhere from 350 ms to minutes.
//
// Interim answers (1xx: a CDN's `103 Early Hints`) carry nothing the suite reads, and RFC 9110 §15.2 lets a
// client ignore them; undici 7's retry interceptor takes the first one for the final answer and then fails on
// the real one (UND_ERR_REQ_RETRY "Content-Range mismatch", or an assertion). So they are dropped below it.
// A `100 Continue` never reaches undici's parser at all: it refuses one it did not ask for (interim-answers.ts).
import type { IncomingHttpHeaders } from 'node:http'
import type { Duplex } from 'node:stream'
import { Agent, EnvHttpProxyAgent, interceptors, type Dispatcher } from 'undici'
import { continueTolerantFactory } from './interim-answers.ts'

export interface ProxySettings {
  httpProxy?: string
  httpsProxy?: string
  noProxy?: string
}

export interface ConnectionOptions {
  timeoutMs: number
  connections: number
  proxy?: ProxySettings
  /** Idle time after which the client closes a kept-alive connection itself. */
  keepAliveTimeoutMs?: number
}

/** A handler that never sees an interim (1xx) answer: the final answer follows on the same request. */
class FinalAnswersOnly implements Dispatcher.DispatchHandler {
  constructor(private readonly handler: Dispatcher.DispatchHandler) {}
  onRequestStart(controller: Dispatcher.DispatchController, context: unknown): void {
    this.handler.onRequestStart?.(controller, context)
  }
  onRequestUpgrade(controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders, socket: Duplex): void {
    this.handler.onRequestUpgrade?.(controller, statusCode, headers, socket)
  }
  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders, statusMessage?: string): void {
    if (statusCode < 200) return
    this.handler.onResponseStart?.(controller, statusCode, headers, statusMessage)
  }
  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.handler.onResponseData?.(controller, chunk)
  }
  onResponseEnd(controller: Dispatcher.DispatchController, trailers: IncomingHttpHeaders): void {
    this.handler.onResponseEnd?.(controller, trailers)
  }
  onResponseError(controller: Dispatcher.DispatchController, error: Error): void {
    this.handler.onResponseError?.(controller, error)
  }
}

/** Drops interim answers before the interceptors above it see them. */
export const finalAnswersOnly: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (options, handler) => dispatch(options, new FinalAnswersOnly(handler))

/** Error codes of a connection that broke before an answer began. */
const STALE_CONNECTION_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE'])
/** Fresh connections tried after the first attempt met a closed one. */
const MAX_RECONNECTS = 2
const REPLAYABLE_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS'])

/** Whether the request may be sent a second time without a second effect. */
export function isReplayable(method: string, headers: Record<string, string>): boolean {
  const upper = method.toUpperCase()
  if (REPLAYABLE_METHODS.has(upper)) return true
  return upper === 'POST' && Object.keys(headers).some((name) => name.toLowerCase() === 'idempotency-key')
}

function baseDispatcher(options: ConnectionOptions): Dispatcher {
  const agentOptions = {
    connect: { timeout: options.timeoutMs },
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? 10_000,
    connections: options.connections,
    // An unasked `100 Continue` is read past below undici's parser (interim-answers.ts).
    factory: continueTolerantFactory,
  }
  const proxy = options.proxy ?? {}
  if (!proxy.httpProxy && !proxy.httpsProxy) return new Agent(agentOptions)
  // Empty strings, never undefined: undefined would let undici read the environment itself, and the
  // configuration loader is the only reader of the environment.
  return new EnvHttpProxyAgent({ ...agentOptions, httpProxy: proxy.httpProxy ?? '', httpsProxy: proxy.httpsProxy ?? '', noProxy: proxy.noProxy ?? '' })
}

export interface Connections {
  /** The dispatcher for one request, and the request options that go with it. */
  forRequest(method: string, headers: Record<string, string>): { dispatcher: Dispatcher; extra: Record<string, unknown>; answered(): void }
  close(): Promise<void>
}

export function openConnections(options: ConnectionOptions): Connections {
  const pooled = baseDispatcher(options)
  const retrying = pooled.compose(
    finalAnswersOnly,
    interceptors.retry({
      maxRetries: MAX_RECONNECTS,
      // 429 and 5xx are answers: the transport's own policy (the pacer, Retry-After) handles them.
      statusCodes: [],
      errorCodes: [...STALE_CONNECTION_CODES],
      methods: [...REPLAYABLE_METHODS, 'POST'],
    }),
  )
  const single = baseDispatcher(options)
  return {
    forRequest(method, headers) {
      if (!isReplayable(method, headers)) return { dispatcher: single, extra: { reset: true }, answered: () => {} }
      let answered = false
      const retry = (
        error: Error & { code?: string; socket?: { bytesRead?: number } },
        { state }: { state: { counter: number } },
        callback: (error?: Error | null) => void,
      ) => {
        // Once an answer has begun the server did process the request: never again. And only a connection
        // that had carried an earlier answer (undici's SocketError tells what the socket read) was a stale
        // one: a server that resets every new connection is a genuine error, not sent to again.
        const reused = error.socket?.bytesRead === undefined || error.socket.bytesRead > 0
        // "bad response": the server did answer, with something undici refuses (an unasked 100 Continue).
        if (answered || !reused || error.message === 'bad response' || !STALE_CONNECTION_CODES.has(error.code ?? '') || state.counter > MAX_RECONNECTS)
          return callback(error)
        setImmediate(() => callback(null))
      }
      return { dispatcher: retrying, extra: { retryOptions: { retry } }, answered: () => void (answered = true) }
    },
    async close() {
      await Promise.all([pooled.close(), single.close()])
    },
  }
}
