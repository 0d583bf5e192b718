// A server that misbehaves on purpose, for the robustness tests. One listener on 127.0.0.1; the first path
// segment picks the behaviour (`http://127.0.0.1:PORT/<mode>/v1`), so one server serves every mode at once.
// Requests it does not sabotage are passed through to a real reference server, so a check meets a hostile
// answer where it would otherwise have progressed (the `flaky` and `dies-after` modes).
//
// A second listener, on another host name (`localhost`) and port, is the target of the `redirect` mode: it
// records every request that reaches it, so a test can prove that no redirect was followed with the key.
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { gzipSync } from 'node:zlib'
import { HOSTILE_ALL, HOSTILE_WELL_FORMED } from './corpus.ts'

export const HOSTILE_MODES = [
  /** Passed through untouched: a faithful stand-in for the reference server that records every method it is sent. */
  'pass',
  /** Accepts the connection, reads the request, never answers. */
  'hang',
  /** Destroys the connection as soon as the request arrives. */
  'reset',
  /** Sends the status line and headers, then the body one byte at a time, far slower than any timeout. */
  'trickle',
  /** 200, `Content-Type: application/json`, a body that is HTML. */
  'not-json',
  /** 200 and a chunked JSON body that never ends, sent as fast as the client reads. */
  'endless',
  /** 200 and a complete JSON body bigger than the client's size cap, with its Content-Length. */
  'huge',
  /** 302 (307 for writes, which keep method and body) to the other host's listener, same path. */
  'redirect',
  /** 500 with a plain-text body, on every request. */
  'error-500',
  /** Passed through, but every response is labelled `text/html`. */
  'wrong-type',
  /** Passed through, but every fifth request meets one of the behaviours above, in turn. */
  'flaky',
  /** Passed through for the first `diesAfter` requests, then never answers again (a server dying mid-run). */
  'dies-after',
  /**
   * Passed through, but the server repeats what it was sent: the Authorization header in a response header,
   * in `/me` and in every error body (with all request headers), and every seventh success becomes such an
   * error, so that the run has failures whose evidence carries the key. For the secret-leak test.
   */
  'echo',
  /** 200, a JSON array nested 200,000 levels deep, on every request. */
  'deep',
  /** 200, `Content-Encoding: gzip` (never asked for), a body that inflates to 2 GiB of zeros; on every request. */
  'gzip-bomb',
  /**
   * As `echo`, but the key (from the Authorization header) and the webhook secret are echoed only in the
   * encoded forms a server writes them in: URL-encoded in a `Location` header, form-encoded in a header,
   * JSON-escaped, HTML-escaped and URL-encoded in error bodies. For the redaction of every form.
   */
  'echo-encoded',
  /** 200 with a 64 KiB response header. */
  'huge-headers',
  /** 200, `Content-Length: 1000`, 20 bytes, then the connection is closed. */
  'length-lie',
  /** Passed through, each answer preceded by a `103 Early Hints` (a CDN in front). */
  'early-hints',
  /** Passed through, each answer preceded by a `100 Continue` nobody asked for (legal: RFC 9110 §15.2). */
  'unasked-continue',
  /**
   * Passed through, with the hostile corpus (test/hostile/corpus.ts: terminal escapes, characters XML forbids,
   * live Markdown) in what a run prints and reports: every error's code and message, `/me`'s workspace name, and
   * the id of every record created (less lone surrogates; so later requests miss it, checks fail quoting it, and it is left behind).
   */
  'poison',
  /** Passed through, each answer preceded by `100 Continue`, `103 Early Hints` and `100 Continue` again, none asked for. */
  'interim-mix',
] as const

export type HostileMode = (typeof HOSTILE_MODES)[number]

/** The behaviours `flaky` rotates through (not `hang`: it would only add timeouts to the same verdicts). */
const FLAKY_ROTATION: HostileMode[] = ['reset', 'not-json', 'error-500', 'trickle', 'endless', 'huge', 'redirect', 'wrong-type']
const FLAKY_EVERY = 5

export interface RedirectHit {
  method: string
  url: string
  /** The Authorization header as received, if any. */
  authorization?: string
}

export interface HostileServer {
  /** `http://127.0.0.1:PORT/<mode>/v1`. */
  baseUrl(mode: HostileMode): string
  /** Origin of the redirect target: another host name and port. */
  redirectOrigin: string
  /** Every request the redirect target received. */
  redirectHits: RedirectHit[]
  /** Requests received per mode. */
  received: Record<string, number>
  /** Requests received per mode and method: `{ pass: { GET: 12 } }`. */
  methods: Record<string, Record<string, number>>
  close(): Promise<void>
}

export interface HostileServerOptions {
  /** Origin (`http://127.0.0.1:PORT`) of the reference server that unsabotaged requests are passed to. */
  upstream: string
  /** `dies-after`: requests answered before the server stops answering. Default 40. */
  diesAfter?: number
  /** Bytes of the `huge` body. Default 6 MiB (the client's cap is 4 MiB). */
  hugeBytes?: number
  /** Milliseconds between the bytes of a `trickle` body. Default 200. */
  trickleIntervalMs?: number
  /** The webhook secret the `echo-encoded` mode echoes. */
  webhookSecret?: string
}

/** Bytes the `gzip-bomb` body inflates to. */
export const GZIP_BOMB_INFLATED = 2 * 1024 ** 3

/** A gzip stream of 2 GiB of zeros, about 2 MB: one member of 64 MiB, repeated (gzip allows many members). Built once. */
let gzipBomb: Buffer | undefined
function gzipBombBody(): Buffer {
  if (!gzipBomb) {
    const member = gzipSync(Buffer.alloc(64 * 1024 ** 2), { level: 9 })
    gzipBomb = Buffer.concat(Array.from({ length: GZIP_BOMB_INFLATED / (64 * 1024 ** 2) }, () => member))
  }
  return gzipBomb
}

/** A JSON array nested 200,000 levels deep. Built once. */
const DEEP_BODY = Buffer.from(`${'['.repeat(200_000)}${']'.repeat(200_000)}`)

const htmlEscaped = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')

/** The body of a `huge` answer: a valid list envelope, only far too big. Built once. */
function hugeBody(bytes: number): Buffer {
  const item = JSON.stringify({ id: '00000000-0000-4000-8000-000000000000', name: 'x'.repeat(200) })
  const count = Math.ceil(bytes / (item.length + 1))
  return Buffer.from(`{"data":[${Array.from({ length: count }, () => item).join(',')}],"nextCursor":null}`)
}

export async function startHostileServer(options: HostileServerOptions): Promise<HostileServer> {
  const sockets = new Set<Socket>()
  const timers = new Set<NodeJS.Timeout>()
  const received: Record<string, number> = {}
  const methods: Record<string, Record<string, number>> = {}
  const redirectHits: RedirectHit[] = []
  const huge = hugeBody(options.hugeBytes ?? 6 * 1024 * 1024)
  const trickleMs = options.trickleIntervalMs ?? 200
  const diesAfter = options.diesAfter ?? 40
  let flakyCount = 0
  let echoCount = 0
  let diesCount = 0

  const redirectTarget = createServer((req, res) => {
    redirectHits.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization })
    // A plausible answer: were a client to follow, nothing here would stop it.
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end('{"data":[],"nextCursor":null}')
  })
  redirectTarget.on('connection', (s) => track(s))
  await listen(redirectTarget, 'localhost')
  const redirectOrigin = `http://localhost:${(redirectTarget.address() as AddressInfo).port}`

  function track(socket: Socket): void {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    // A client that gives up resets the socket; that is expected here, never an error of the test.
    socket.on('error', () => {})
  }

  function later(ms: number, fn: () => void): void {
    const timer = setTimeout(() => {
      timers.delete(timer)
      fn()
    }, ms)
    timers.add(timer)
  }

  function passThrough(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    rewrite?: (headers: Record<string, string | string[] | undefined>) => void,
  ): void {
    const upstream = new URL(options.upstream)
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: req.method, path, headers: { ...req.headers, host: upstream.host } },
      (answer) => {
        const headers = { ...answer.headers }
        rewrite?.(headers)
        res.writeHead(answer.statusCode ?? 502, headers)
        answer.pipe(res)
      },
    )
    forward.on('error', () => res.destroy())
    req.pipe(forward)
  }

  /** Forwarded to the upstream, whose answer is read whole and handed to `answered` to write `res`. */
  function forwardWhole(req: IncomingMessage, res: ServerResponse, path: string, answered: (answer: IncomingMessage, text: string) => void): void {
    const upstream = new URL(options.upstream)
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: req.method, path, headers: { ...req.headers, host: upstream.host } },
      (answer) => {
        const chunks: Buffer[] = []
        answer.on('data', (chunk: Buffer) => chunks.push(chunk))
        answer.on('end', () => answered(answer, Buffer.concat(chunks).toString('utf8')))
      },
    )
    forward.on('error', () => res.destroy())
    req.pipe(forward)
  }

  /** Passed through with the upstream's JSON answer rewritten by `rewrite` (any other answer as it is). */
  function rewritten(req: IncomingMessage, res: ServerResponse, path: string, rewrite: (status: number, body: any) => unknown): void {
    forwardWhole(req, res, path, (answer, received) => {
      let text = received
      try {
        text = JSON.stringify(rewrite(answer.statusCode ?? 502, JSON.parse(text)))
      } catch {
        /* not JSON: passed as it is */
      }
      const headers = { ...answer.headers, 'content-length': String(Buffer.byteLength(text)) }
      delete headers['transfer-encoding']
      res.writeHead(answer.statusCode ?? 502, headers)
      res.end(text)
    })
  }

  function poison(status: number, body: any, path: string, method: string): unknown {
    if (body && typeof body === 'object' && body.error && typeof body.error === 'object') {
      body.error.code = `${body.error.code}${HOSTILE_ALL}`
      body.error.message = `${body.error.message}${HOSTILE_ALL}`
    }
    if (/\/me(\?|$)/.test(path) && status === 200 && body && typeof body === 'object') {
      const ws = body.workspace
      if (ws && typeof ws === 'object') body.workspace = { ...ws, id: `${ws.id ?? ''}${HOSTILE_ALL}`, name: HOSTILE_ALL }
      else body.workspace = `${ws ?? ''}${HOSTILE_ALL}`
    }
    // Ids travel in URLs: the corpus less lone surrogates, which no URL can carry.
    if (method === 'POST' && status === 201 && body && typeof body === 'object' && typeof body.id === 'string') body.id = `${body.id}${HOSTILE_WELL_FORMED}`
    return body
  }

  function echo(req: IncomingMessage, res: ServerResponse, path: string, encoded = false): void {
    const n = ++echoCount
    forwardWhole(req, res, path, (answer, received) => {
      const authorization = req.headers.authorization ?? ''
      let status = answer.statusCode ?? 502
      let text = received
      const key = authorization.replace(/^Bearer\s+/i, '')
      const secret = options.webhookSecret ?? ''
      const errorBody = () =>
        encoded
          ? JSON.stringify({
              error: {
                code: 'echo',
                message: `refused <b>${htmlEscaped(key)}</b> and ${htmlEscaped(secret)}`,
                details: {
                  json: JSON.stringify({ key, secret }),
                  query: new URLSearchParams({ key, secret }).toString(),
                  part: encodeURIComponent(secret.slice('whsec_'.length)),
                },
              },
            })
          : JSON.stringify({ error: { code: 'echo', message: `refused, you sent Authorization: ${authorization}`, details: { headers: req.headers } } })
      if (status >= 400 || n % 7 === 0) {
        status = status >= 400 ? status : 500
        text = errorBody()
      } else if (!encoded && /\/me(\?|$)/.test(path)) {
        try {
          text = JSON.stringify({ ...JSON.parse(text), echo: { authorization, secret: authorization.split('_').at(-1) } })
        } catch {
          /* not JSON: left as it is */
        }
      }
      const headers: Record<string, string | string[] | undefined> = encoded
        ? {
            ...answer.headers,
            location: `https://crm.example/callback?key=${encodeURIComponent(key)}&secret=${encodeURIComponent(secret)}&part=${encodeURIComponent(secret.slice('whsec_'.length))}`,
            'x-echo-form': new URLSearchParams({ key, secret }).toString(),
            'content-length': String(Buffer.byteLength(text)),
          }
        : { ...answer.headers, 'x-echo-authorization': authorization, 'content-length': String(Buffer.byteLength(text)) }
      delete headers['transfer-encoding']
      res.writeHead(status, headers)
      res.end(text)
    })
  }

  function sabotage(mode: HostileMode, req: IncomingMessage, res: ServerResponse, path: string): void {
    switch (mode) {
      case 'pass':
        return passThrough(req, res, path)
      case 'hang':
        return // the socket stays open until the client gives up or the server closes
      case 'reset':
        req.socket.destroy()
        return
      case 'trickle': {
        const text = '{"data":[{"id":"00000000-0000-4000-8000-000000000000"}],"nextCursor":null}'
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(text.length) })
        let i = 0
        const next = () => {
          if (res.destroyed || i >= text.length) return void res.end()
          res.write(text[i++])
          later(trickleMs, next)
        }
        next()
        return
      }
      case 'not-json':
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end('<html><body><h1>Welcome to nginx!</h1></body></html>')
        return
      case 'endless': {
        res.writeHead(200, { 'content-type': 'application/json' })
        const chunk = Buffer.from(`${JSON.stringify({ id: '00000000-0000-4000-8000-000000000000', name: 'y'.repeat(1000) })},`.repeat(64))
        res.write('{"data":[')
        const pump = () => {
          while (!res.destroyed && res.write(chunk)) {
            /* keep writing while the socket takes it */
          }
          if (!res.destroyed) res.once('drain', pump)
        }
        pump()
        return
      }
      case 'huge':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(huge.length) })
        res.end(huge)
        return
      case 'redirect': {
        const keepsMethod = req.method !== 'GET' && req.method !== 'HEAD'
        res.writeHead(keepsMethod ? 307 : 302, { location: `${redirectOrigin}${path}`, 'content-type': 'text/plain' })
        res.end('moved')
        return
      }
      case 'error-500':
        res.writeHead(500, { 'content-type': 'text/plain' })
        res.end('Internal Server Error')
        return
      case 'wrong-type':
        passThrough(req, res, path, (headers) => {
          headers['content-type'] = 'text/html; charset=utf-8'
        })
        return
      case 'flaky': {
        const n = ++flakyCount
        if (n % FLAKY_EVERY !== 0) return passThrough(req, res, path)
        return sabotage(FLAKY_ROTATION[(n / FLAKY_EVERY) % FLAKY_ROTATION.length]!, req, res, path)
      }
      case 'dies-after':
        if (++diesCount <= diesAfter) return passThrough(req, res, path)
        return sabotage('hang', req, res, path)
      case 'echo':
        return echo(req, res, path)
      case 'echo-encoded':
        return echo(req, res, path, true)
      case 'deep':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(DEEP_BODY.length) })
        res.end(DEEP_BODY)
        return
      case 'gzip-bomb': {
        const body = gzipBombBody()
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(body.length) })
        res.end(body)
        return
      }
      case 'huge-headers':
        res.writeHead(200, { 'content-type': 'application/json', 'x-padding': 'x'.repeat(64 * 1024) })
        res.end('{}')
        return
      case 'early-hints':
        res.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' })
        return passThrough(req, res, path)
      case 'unasked-continue':
        res.writeContinue()
        return passThrough(req, res, path)
      case 'interim-mix':
        res.writeContinue()
        res.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' })
        res.writeContinue()
        return passThrough(req, res, path)
      case 'poison':
        return rewritten(req, res, path, (status, body) => poison(status, body, path, req.method ?? 'GET'))
      case 'length-lie':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' })
        res.write('{"data":[],"nextCurs')
        later(20, () => req.socket.destroy())
        return
    }
  }

  const server = createServer((req, res) => {
    const match = /^\/([a-z0-9-]+)(\/.*)$/.exec(req.url ?? '')
    const mode = match?.[1] as HostileMode | undefined
    if (!match || !mode || !HOSTILE_MODES.includes(mode)) {
      res.writeHead(404, { 'content-type': 'text/plain' })
      return void res.end('no such mode')
    }
    received[mode] = (received[mode] ?? 0) + 1
    const byMethod = (methods[mode] ??= {})
    byMethod[req.method ?? '?'] = (byMethod[req.method ?? '?'] ?? 0) + 1
    // Read (and drop) the request body before sabotaging, except where the body is passed through.
    if (
      mode === 'pass' ||
      mode === 'wrong-type' ||
      mode === 'flaky' ||
      mode === 'dies-after' ||
      mode === 'echo' ||
      mode === 'echo-encoded' ||
      mode === 'early-hints' ||
      mode === 'unasked-continue' ||
      mode === 'interim-mix' ||
      mode === 'poison'
    )
      return sabotage(mode, req, res, match[2]!)
    req.resume()
    sabotage(mode, req, res, match[2]!)
  })
  server.on('connection', (s) => track(s))
  // Hostile, not fragile: a client that hangs up mid-answer is never this server's crash.
  server.on('clientError', (_error, socket) => socket.destroy())
  await listen(server, '127.0.0.1')
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  return {
    baseUrl: (mode) => `${origin}/${mode}/v1`,
    redirectOrigin,
    redirectHits,
    received,
    methods,
    async close() {
      for (const timer of timers) clearTimeout(timer)
      for (const socket of sockets) socket.destroy()
      await Promise.all([server, redirectTarget].map((s) => new Promise<void>((resolve) => s.close(() => resolve()))))
    },
  }
}

function listen(server: Server, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, host, () => resolve())
  })
}
