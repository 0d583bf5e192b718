// A forward HTTP proxy for the proxy condition (issue 16: "HTTP_PROXY is honoured"), with a counter of what
// went through it: requests in absolute form (`GET http://host/path`, what a client sends to a plain-HTTP
// proxy) and CONNECT tunnels (what it opens when it tunnels). Loopback targets only: anything else is refused,
// so a test can never send traffic off the machine.
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http'
import { connect, isIP, type AddressInfo, type Socket } from 'node:net'

export interface ForwardProxy {
  /** `http://127.0.0.1:PORT`, the value for HTTP_PROXY. */
  url: string
  /** Requests forwarded in absolute form. */
  readonly requests: number
  /** CONNECT tunnels opened (each may carry many requests). */
  readonly tunnels: number
  /** Requests refused (a non-loopback or unparseable target). */
  readonly refused: number
  /** Local ports of its own connections to targets: a target's view of which connections came through it. */
  readonly upstreamPorts: ReadonlySet<number>
  close(): Promise<void>
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1', '[::1]'])
const isLoopback = (host: string): boolean => LOOPBACK_NAMES.has(host) || (isIP(host) === 4 && host.startsWith('127.'))

export async function startForwardProxy(host = '127.0.0.1'): Promise<ForwardProxy> {
  const counts = { requests: 0, tunnels: 0, refused: 0 }
  const upstreamPorts = new Set<number>()
  const sockets = new Set<Socket>()
  const server: Server = createServer((req, res) => {
    let target: URL
    try {
      target = new URL(req.url ?? '')
    } catch {
      target = new URL('http://invalid./')
    }
    if (target.protocol !== 'http:' || !isLoopback(target.hostname)) {
      counts.refused++
      res.writeHead(403, { 'Content-Type': 'text/plain' }).end('This proxy forwards to loopback addresses only.')
      return
    }
    counts.requests++
    const upstream = httpRequest(
      {
        host: target.hostname.replace(/^\[|\]$/g, ''),
        port: target.port || 80,
        method: req.method,
        path: `${target.pathname}${target.search}`,
        headers: withoutHopByHop(req),
      },
      (answer) => {
        const raw = answer.rawHeaders
        const kept: string[] = []
        for (let i = 0; i < raw.length; i += 2) if (!['connection', 'keep-alive'].includes(raw[i]!.toLowerCase())) kept.push(raw[i]!, raw[i + 1]!)
        res.writeHead(answer.statusCode ?? 502, kept)
        answer.pipe(res)
      },
    )
    upstream.on('socket', (socket) => socket.on('connect', () => upstreamPorts.add(socket.localPort ?? 0)))
    upstream.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()))
    req.pipe(upstream)
  })
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const [targetHost = '', targetPort = ''] = splitHostPort(req.url ?? '')
    if (!isLoopback(targetHost) || !/^\d+$/.test(targetPort)) {
      counts.refused++
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n')
      return
    }
    counts.tunnels++
    const upstream = connect({ host: targetHost.replace(/^\[|\]$/g, ''), port: Number(targetPort) }, () => {
      upstreamPorts.add(upstream.localPort ?? 0)
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      if (head.length > 0) upstream.write(head)
      upstream.pipe(client)
      client.pipe(upstream)
    })
    for (const s of [client, upstream]) {
      sockets.add(s)
      s.once('close', () => sockets.delete(s))
      s.on('error', () => (s === client ? upstream : client).destroy())
    }
  })
  server.on('connection', (s: Socket) => {
    sockets.add(s)
    s.once('close', () => sockets.delete(s))
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, host, () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://${host}:${port}`,
    get requests() {
      return counts.requests
    },
    get tunnels() {
      return counts.tunnels
    },
    get refused() {
      return counts.refused
    },
    upstreamPorts,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        for (const s of sockets) s.destroy()
      }),
  }
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade'])

function withoutHopByHop(req: IncomingMessage): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {}
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value
  // The body is re-framed by Node: keep its length, or let it chunk.
  return headers
}

function splitHostPort(authority: string): [string, string] {
  const i = authority.lastIndexOf(':')
  return i < 0 ? [authority, ''] : [authority.slice(0, i), authority.slice(i + 1)]
}
