// Someone else posting to the webhook sink's port while a run is going: forged signatures, byte-identical replays
// of real deliveries, timestamps 400 s in the future, 50 MiB bodies and slow connections. To replay real
// deliveries it sits between the server and the sink as a tap (someone who sees the traffic): every delivery is
// forwarded untouched, its answer passed back, and a copy kept.
import { randomUUID } from 'node:crypto'
import { Agent, createServer, request, type IncomingHttpHeaders } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'

export interface Captured {
  headers: Record<string, string>
  body: Buffer
  /** What the sink answered to the server. */
  status: number
}

export interface Tap {
  /** Where the server under test should deliver. */
  url: string
  captured: Captured[]
  close(): Promise<void>
}

const FORWARDED = /^(content-type|webhook-|svix-|x-webhook-)/

function forwardedHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name, value]) => FORWARDED.test(name) && typeof value === 'string') as [string, string][])
}

interface Answer {
  status: number
}

function post(url: string, headers: Record<string, string>, body: Buffer | string, agent?: Agent): Promise<Answer> {
  return new Promise((resolve) => {
    const req = request(url, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, agent }, (res) => {
      res.resume()
      res.on('end', () => resolve({ status: res.statusCode ?? 0 }))
      res.on('error', () => resolve({ status: 0 }))
    })
    req.on('error', () => resolve({ status: 0 }))
    req.end(body)
  })
}

function get(url: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request(url, { method: 'GET', agent: false }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
    })
    req.on('error', () => resolve(0))
    req.end()
  })
}

/**
 * A pass-through in front of the sink that keeps a copy of every delivery and of the sink's answer. `unchanged`
 * plays a sender that signs a message once and resends those bytes on every retry: each later attempt of a
 * webhook-id is forwarded as the first one was.
 */
export async function startTap(sinkUrl: string, options: { unchanged?: boolean } = {}): Promise<Tap> {
  const captured: Captured[] = []
  const firsts = new Map<string, { headers: Record<string, string>; body: Buffer }>()
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', async () => {
      let body: Buffer = Buffer.concat(chunks)
      let headers = forwardedHeaders(req.headers)
      const id = headers['webhook-id']
      if (options.unchanged && id !== undefined) {
        const first = firsts.get(id) ?? { headers, body }
        firsts.set(id, first)
        ;({ headers, body } = first)
      }
      const { status } = await post(sinkUrl, headers, body)
      if (status > 0) captured.push({ headers, body, status })
      res.writeHead(status || 502).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    captured,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

export interface NeighbourStats {
  forged: number
  copiedWithForgedSignature: number
  replayed: number
  /** Of those, replays of attempts the sink answered non-2xx (which must not pass for the server's retry). */
  replayedBounced: number
  future: number
  huge: number
  slow: number
}

export interface Neighbour {
  stats: NeighbourStats
  stop(): Promise<void>
}

const GARBAGE_SIGNATURE = 'v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc='
const HUGE_BYTES = 50 * 1024 * 1024
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const nowS = () => Math.floor(Date.now() / 1000)

function strangerEvent(): string {
  const id = randomUUID()
  return JSON.stringify({
    type: 'case.created',
    timestamp: new Date().toISOString(),
    data: { id, entityType: 'case', object: { id, subject: 'not yours' }, changes: {} },
  })
}

function strangerHeaders(ts = nowS()): Record<string, string> {
  return {
    'content-type': 'application/json',
    'webhook-id': `msg_${randomUUID().replace(/-/g, '')}`,
    'webhook-timestamp': String(ts),
    'webhook-signature': GARBAGE_SIGNATURE,
  }
}

/** A 50 MiB body, sent in full (with its content-length, or chunked), whatever the sink answers. */
function postHuge(url: string, chunked: boolean): Promise<void> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = { ...strangerHeaders(), ...(chunked ? {} : { 'content-length': String(HUGE_BYTES) }) }
    const req = request(url, { method: 'POST', headers, agent: false }, (res) => {
      res.resume()
      res.on('end', resolve)
      res.on('error', () => resolve())
    })
    req.on('error', () => resolve())
    req.on('close', () => resolve())
    const piece = Buffer.alloc(1024 * 1024, 0x20)
    let sent = 0
    const pump = (): void => {
      while (sent < HUGE_BYTES && !req.destroyed) {
        sent += piece.length
        if (!req.write(piece)) return void req.once('drain', pump)
      }
      req.end()
    }
    pump()
  })
}

/** A connection that sends its request a byte at a time, never finishing the headers or the body. */
function slowConnection(url: string, inBody: boolean, sockets: Set<Socket>): void {
  const { hostname, port } = new URL(url)
  const socket = connect(Number(port), hostname)
  sockets.add(socket)
  socket.on('error', () => undefined)
  socket.on('close', () => sockets.delete(socket))
  socket.on('connect', async () => {
    socket.write(inBody ? 'POST / HTTP/1.1\r\nHost: sink\r\ncontent-length: 1000\r\n\r\n' : 'POST / HTTP/1.1\r\nHost: sink\r\n')
    while (!socket.destroyed) {
      socket.write('x')
      await sleep(200)
    }
  })
}

/** Starts posting noise to the sink until stop(); replays and copies come from what the tap captured. */
export function startNeighbour(sinkUrl: string, tap: Tap): Neighbour {
  const stats: NeighbourStats = { forged: 0, copiedWithForgedSignature: 0, replayed: 0, replayedBounced: 0, future: 0, huge: 0, slow: 0 }
  const agent = new Agent({ keepAlive: true, maxSockets: 8 })
  const sockets = new Set<Socket>()
  let stopped = false
  const replayedOnce = new Set<Captured>()

  // The sink opens with the run's session: the noise starts once it answers.
  const listening = (async () => {
    while (!stopped && (await get(sinkUrl)) !== 200) await sleep(20)
  })()

  const forgeries = listening.then(async () => {
    while (!stopped) {
      await post(sinkUrl, strangerHeaders(), strangerEvent(), agent)
      stats.forged++
      // Real deliveries, answered 2xx or not: posted again byte for byte (a replay of an attempt the sink answered
      // 503 must not pass for the server's retry, issue 32), and their bodies under a forged signature or a
      // timestamp 400 s ahead.
      for (const c of tap.captured) {
        if (stopped) break
        await post(sinkUrl, c.headers, c.body, agent)
        stats.replayed++
        if (c.status >= 300) stats.replayedBounced++
        if (replayedOnce.has(c)) continue
        replayedOnce.add(c)
        await post(sinkUrl, { ...c.headers, 'webhook-signature': GARBAGE_SIGNATURE }, c.body, agent)
        stats.copiedWithForgedSignature++
        await post(sinkUrl, { ...c.headers, 'webhook-timestamp': String(nowS() + 400), 'webhook-signature': GARBAGE_SIGNATURE }, c.body, agent)
        stats.future++
      }
      await post(sinkUrl, strangerHeaders(nowS() + 400), strangerEvent(), agent)
      stats.future++
      await sleep(10)
    }
  })

  const huge = listening.then(async () => {
    if (stopped) return
    for (let i = 0; i < 4; i++) {
      slowConnection(sinkUrl, i % 2 === 0, sockets)
      stats.slow++
    }
    await Promise.all([postHuge(sinkUrl, false), postHuge(sinkUrl, true)])
    stats.huge += 2
  })

  return {
    stats,
    async stop() {
      stopped = true
      await forgeries
      await huge
      for (const s of sockets) s.destroy()
      agent.destroy()
    },
  }
}
