// A `100 Continue` nobody asked for is read past, as RFC 9110 §15.2 requires of every client ("MUST be able to
// parse one or more 1xx responses received prior to a final response, even if the client does not expect one").
// undici's HTTP/1.1 client (7.x and 8.x alike, lib/dispatcher/client-h1.js onHeadersComplete) destroys the
// connection with "bad response" on any 100, since it never sends `Expect: 100-continue`; other 1xx (a CDN's
// `103 Early Hints`, 102) it reads fine. Servers and CDNs that answer every request with an unasked 100 exist.
//
// So the bytes of each connection pass through an InterimStripper before undici's parser reads them: at the start
// of each answer (right after the client wrote a request line; undici pipelines one request at a time), whole
// `HTTP/1.x 100 …\r\n…\r\n\r\n` blocks are dropped and other interim blocks are passed on untouched; the first
// final status line (or anything else) switches it to passing bytes through unread until the next request. A block
// longer than MAX_INTERIM_BLOCK_BYTES is passed on as it came (undici then fails as before, not this module).
//
// The stripper sits on the connection's own socket object (its `push` and `write`), not on a wrapping stream: a
// wrapper would have to mirror every property undici and the error messages read (TLS state, addresses, bytesRead,
// ref/unref, setTypeOfService). It is applied through the dispatcher's `factory`, around whatever `connect` undici
// would use, so TLS options (ca, servername, rejectUnauthorized, session reuse) and proxy tunnels
// (EnvHttpProxyAgent's CONNECT, then TLS over it) are undici's own, unchanged.
import type { Socket } from 'node:net'
import { buildConnector, Client, Pool, type Dispatcher } from 'undici'

/** Bytes of one interim block held while waiting for its end: far above any real one (undici's header cap is 16 KiB). */
export const MAX_INTERIM_BLOCK_BYTES = 64 * 1024

const STATUS_PREFIX = Buffer.from('HTTP/1.', 'latin1')
/** `HTTP/1.1 100`: the bytes needed to tell an interim answer from a final one. */
const STATUS_LINE_HEAD = 12
const BLOCK_END = Buffer.from('\r\n\r\n', 'latin1')
const REQUEST_LINE = /^[^\s]+ [^\s]+ HTTP\/1\.1\r\n/

type State = 'passing' | 'answer-start' | 'upgraded'

/** Drops `100 Continue` blocks found at the start of an answer; everything else passes unchanged. */
export class InterimStripper {
  private state: State = 'passing'
  private held: Buffer = Buffer.alloc(0)

  /** The client sent a request: the next bytes begin its answer. */
  requestSent(): void {
    if (this.state === 'passing') this.state = 'answer-start'
  }

  /** The bytes to hand on for a chunk read from the connection (possibly none yet). */
  feed(chunk: Buffer): Buffer[] {
    if (this.state !== 'answer-start') return [chunk]
    this.held = this.held.length === 0 ? chunk : Buffer.concat([this.held, chunk])
    const out: Buffer[] = []
    for (;;) {
      const head = this.held.subarray(0, STATUS_LINE_HEAD)
      const prefix = head.subarray(0, STATUS_PREFIX.length)
      if (!prefix.equals(STATUS_PREFIX.subarray(0, prefix.length))) return this.release(out, 'passing')
      if (head.length < STATUS_LINE_HEAD) return out
      const status = /^HTTP\/1\.\d ([0-9]{3})$/.exec(head.toString('latin1'))?.[1]
      if (status === '101') return this.release(out, 'upgraded')
      if (status === undefined || status[0] !== '1') return this.release(out, 'passing')
      const end = this.held.indexOf(BLOCK_END)
      if (end < 0) return this.held.length > MAX_INTERIM_BLOCK_BYTES ? this.release(out, 'passing') : out
      const block = this.held.subarray(0, end + BLOCK_END.length)
      this.held = this.held.subarray(block.length)
      if (status !== '100') out.push(block)
      if (this.held.length === 0) return out
    }
  }

  /** The connection ended: whatever is held goes on as it came. */
  flush(): Buffer[] {
    return this.release([], 'passing')
  }

  private release(out: Buffer[], next: State): Buffer[] {
    if (this.held.length > 0) out.push(this.held)
    this.held = Buffer.alloc(0)
    this.state = next
    return out
  }
}

/** Puts an InterimStripper between a connected socket and the HTTP parser that reads it. */
export function readPastUnaskedContinue<S extends Socket>(socket: S): S {
  const stripper = new InterimStripper()
  const push = socket.push.bind(socket)
  const write = socket.write.bind(socket) as (...args: unknown[]) => boolean
  socket.push = (chunk: unknown, encoding?: BufferEncoding): boolean => {
    if (chunk === null) {
      for (const part of stripper.flush()) push(part)
      return push(null)
    }
    if (!Buffer.isBuffer(chunk)) return push(chunk, encoding)
    let more = socket.readableLength < socket.readableHighWaterMark
    for (const part of stripper.feed(chunk)) more = push(part)
    return more
  }
  socket.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (typeof chunk === 'string' && REQUEST_LINE.test(chunk)) stripper.requestSent()
    return write(chunk, ...rest)
  }) as typeof socket.write
  return socket
}

type Connector = buildConnector.connector
type FactoryOptions = Pool.Options & { tls?: buildConnector.BuildOptions }

/** Wraps a connector so that every socket it opens reads past an unasked `100 Continue`. */
export function continueTolerantConnector(connect: Connector): Connector {
  return (options, callback) =>
    connect(options, (error, socket) => {
      if (error !== null) return callback(error, null)
      callback(null, readPastUnaskedContinue(socket as Socket))
    })
}

/**
 * The `factory` for an Agent or an EnvHttpProxyAgent: the same Client or Pool undici would make (one connection: a
 * Client), around the connector it would use: a proxy's tunnel, or the one Pool and Client build from their options.
 */
export function continueTolerantFactory(origin: string | URL, options: object): Dispatcher {
  const opts = options as FactoryOptions
  const base =
    typeof opts.connect === 'function'
      ? opts.connect
      : buildConnector({
          ...(opts.tls as object | undefined),
          maxCachedSessions: opts.maxCachedSessions,
          allowH2: opts.allowH2,
          socketPath: opts.socketPath,
          timeout: opts.connectTimeout,
          ...(typeof opts.autoSelectFamily === 'boolean'
            ? { autoSelectFamily: opts.autoSelectFamily, autoSelectFamilyAttemptTimeout: opts.autoSelectFamilyAttemptTimeout }
            : undefined),
          ...(opts.connect as object | undefined),
        } as buildConnector.BuildOptions)
  const connect = continueTolerantConnector(base)
  return opts.connections === 1 ? new Client(origin, { ...opts, connect }) : new Pool(origin, { ...opts, connect })
}
