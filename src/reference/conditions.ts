// Deployment conditions the reference server can play, so self-validation proves the verdict does not depend
// on them (issue 16): the limiter's shape, a slow server, a load balancer that closes idle keep-alive
// connections, seen across a network. Kept out of the app's business logic: a wrapper around the app's fetch
// (the delay), the server's sockets (the idle close) and a TCP relay in front of it (the network).
import type { Server as HttpServer, ServerResponse } from 'node:http'
import { createServer as createTcpServer, connect, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net'
import type { LimiterShape } from './rate-limit.ts'

export interface ServerConditions {
  /** The shape of every key's per-minute limit (default `token-bucket`; rate-limit.ts). */
  limiter?: LimiterShape
  /** Every response is held back this long, after the request was handled (a slow backend behind the gateway). */
  responseDelayMs?: number
  /** The delay varies uniformly by up to this much either way. */
  responseJitterMs?: number
  /**
   * The server closes a keep-alive connection idle this long, without announcing it (no `Keep-Alive: timeout`
   * hint, as a load balancer in front of an application does not send one).
   */
  idleCloseMs?: number
  /**
   * Every request is answered 503 with `Retry-After: 1` without being handled (an overloaded backend). Read at each
   * request, as the delay is: a test may switch it on mid-run (test/network/adaptive-concurrency.test.ts).
   */
  unavailable?: boolean
  /** A TCP relay in front of the server delays every byte and every close this long each way; the advertised base URL points at it. */
  relayDelayMs?: number
}

/** The app's fetch, answering every response `responseDelayMs ± responseJitterMs` late (both read at each request). */
export function delayed<E>(
  fetch: (request: Request, env: E) => Response | Promise<Response>,
  conditions: ServerConditions,
): (request: Request, env: E) => Promise<Response> | Response {
  if (!conditions.responseDelayMs && !conditions.responseJitterMs && conditions.unavailable === undefined) return fetch
  return async (request, env) => {
    const response = conditions.unavailable
      ? new Response(JSON.stringify({ error: { code: 'unavailable', message: 'overloaded' } }), {
          status: 503,
          headers: { 'content-type': 'application/json', 'retry-after': '1' },
        })
      : await fetch(request, env)
    const base = conditions.responseDelayMs ?? 0
    const jitter = conditions.responseJitterMs ?? 0
    const ms = Math.max(0, base + (Math.random() * 2 - 1) * jitter)
    await new Promise((resolve) => setTimeout(resolve, ms))
    return response
  }
}

/** Closes each of the server's connections once it has been idle (no request in progress) for `idleMs`. */
export function closeIdleConnections(server: HttpServer, idleMs: number): void {
  // Node's own idle timer would announce itself in a `Keep-Alive: timeout=…` header, which clients honour.
  server.keepAliveTimeout = 0
  const timers = new WeakMap<Socket, NodeJS.Timeout>()
  const inFlight = new WeakMap<Socket, number>()
  const arm = (socket: Socket) => {
    clearTimeout(timers.get(socket))
    timers.set(socket, setTimeout(() => socket.destroy(), idleMs).unref())
  }
  server.on('connection', (socket: Socket) => {
    arm(socket)
    socket.once('close', () => clearTimeout(timers.get(socket)))
  })
  server.on('request', (req: { socket: Socket }, res: ServerResponse) => {
    const socket = req.socket
    clearTimeout(timers.get(socket))
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1)
    res.once('close', () => {
      const left = (inFlight.get(socket) ?? 1) - 1
      inFlight.set(socket, left)
      if (left === 0 && !socket.destroyed) arm(socket)
    })
  })
}

export interface Relay {
  port: number
  /** Remote ports of the connections it accepted, in order: which client opened each (a test tells a proxy's from the suite's). */
  clientPorts: number[]
  close(): Promise<void>
}

/**
 * A TCP relay to `target` that delays each chunk, end and reset by `delayMs` in its direction, as a network
 * between the client and the server does: a request sent on a connection the server has just closed is already
 * on its way when the close arrives, so the client meets the race a real deployment has, not an instant one.
 */
export async function startRelay(target: { host: string; port: number }, delayMs: number, host = '127.0.0.1', port = 0): Promise<Relay> {
  const sockets = new Set<Socket>()
  const clientPorts: number[] = []
  const later = (fn: () => void) => setTimeout(fn, delayMs)
  const forward = (from: Socket, to: Socket) => {
    from.on('data', (chunk) => later(() => !to.destroyed && to.write(chunk)))
    from.on('end', () => later(() => !to.destroyed && to.end()))
    from.on('error', () => undefined)
    from.on('close', (hadError) => later(() => (hadError ? to.resetAndDestroy() : to.destroySoon())))
  }
  const relay: TcpServer = createTcpServer({ allowHalfOpen: true }, (client) => {
    clientPorts.push(client.remotePort ?? 0)
    const upstream = connect({ host: target.host, port: target.port, allowHalfOpen: true })
    for (const s of [client, upstream]) {
      sockets.add(s)
      s.once('close', () => sockets.delete(s))
    }
    forward(client, upstream)
    forward(upstream, client)
  })
  await new Promise<void>((resolve, reject) => {
    relay.once('error', reject)
    relay.listen(port, host, () => resolve())
  })
  return {
    port: (relay.address() as AddressInfo).port,
    clientPorts,
    close: () =>
      new Promise<void>((resolve) => {
        relay.close(() => resolve())
        for (const s of sockets) s.destroy()
      }),
  }
}
