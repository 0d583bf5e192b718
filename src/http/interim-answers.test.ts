import { once } from 'node:events'
import { createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net'
import { createServer as createTlsServer } from 'node:tls'
import { Agent, EnvHttpProxyAgent, request, type Dispatcher } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startForwardProxy, type ForwardProxy } from '../selfcheck/forward-proxy.ts'
import { selfSignedCertificate } from '../webhooks/sink-tls.ts'
import { continueTolerantFactory, InterimStripper, MAX_INTERIM_BLOCK_BYTES } from './interim-answers.ts'

const CONTINUE = 'HTTP/1.1 100 Continue\r\n\r\n'
const HINTS = 'HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n'
const FINAL = 'HTTP/1.1 200 OK\r\ncontent-length: 29\r\n\r\nHTTP/1.1 100 Continue\r\n\r\nok'

/** Feeds `input` to a fresh stripper cut at the given offsets; returns what came out, as text. */
function stripped(input: string, cuts: number[], requestsAt: number[] = [0]): string {
  const stripper = new InterimStripper()
  const bytes = Buffer.from(input, 'latin1')
  const bounds = [...new Set([0, ...cuts, ...requestsAt, bytes.length])].sort((a, b) => a - b)
  const out: Buffer[] = []
  for (let i = 0; i < bounds.length - 1; i++) {
    if (requestsAt.includes(bounds[i]!)) stripper.requestSent()
    out.push(...stripper.feed(bytes.subarray(bounds[i], bounds[i + 1])))
  }
  out.push(...stripper.flush())
  return Buffer.concat(out).toString('latin1')
}

/** Every way of cutting the input once, and byte by byte. */
function everyCut(input: string): number[][] {
  const length = Buffer.byteLength(input, 'latin1')
  return [[], ...Array.from({ length: length - 1 }, (_, i) => [i + 1]), Array.from({ length: length - 1 }, (_, i) => i + 1)]
}

describe('InterimStripper, cut at every byte offset', () => {
  const cases: Array<[string, string, string]> = [
    ['one 100 before the answer', CONTINUE + FINAL, FINAL],
    ['two 100 in a row', CONTINUE + CONTINUE + FINAL, FINAL],
    ['a 103 kept, the 100 after it dropped', HINTS + CONTINUE + FINAL, HINTS + FINAL],
    ['a 100 with fields and no reason phrase', 'HTTP/1.1 100\r\nX-A: 1\r\n\r\n' + FINAL, FINAL],
    ['no interim answer', FINAL, FINAL],
    [
      '101 Switching Protocols and what follows untouched',
      'HTTP/1.1 101 Switching Protocols\r\n\r\n' + CONTINUE,
      'HTTP/1.1 101 Switching Protocols\r\n\r\n' + CONTINUE,
    ],
    ['bytes that are not HTTP', 'garbage' + CONTINUE, 'garbage' + CONTINUE],
    ['an unfinished 100 at the end of the connection', 'HTTP/1.1 100 Cont', 'HTTP/1.1 100 Cont'],
  ]
  for (const [name, input, expected] of cases) {
    it(name, () => {
      for (const cuts of everyCut(input)) expect(stripped(input, cuts), `cut at ${cuts.join(',')}`).toBe(expected)
    })
  }

  it('keep-alive: each request opens a new answer; a 100 inside a body is body', () => {
    const input = CONTINUE + FINAL + CONTINUE + CONTINUE + FINAL
    const second = Buffer.byteLength(CONTINUE + FINAL, 'latin1')
    for (const cuts of everyCut(input)) expect(stripped(input, cuts, [0, second]), `cut at ${cuts.join(',')}`).toBe(FINAL + FINAL)
  })

  it('bytes before any request, and a second answer nobody asked for, pass untouched', () => {
    expect(stripped(CONTINUE + FINAL, [], [])).toBe(CONTINUE + FINAL)
    expect(stripped(CONTINUE + FINAL + CONTINUE + FINAL, [])).toBe(FINAL + CONTINUE + FINAL)
  })

  it('an interim block past the bound is passed on as it came, never held without end', () => {
    const huge = `HTTP/1.1 100 Continue\r\nX-Pad: ${'x'.repeat(MAX_INTERIM_BLOCK_BYTES)}\r\n\r\n`
    const stripper = new InterimStripper()
    stripper.requestSent()
    const out = [...stripper.feed(Buffer.from(huge.slice(0, MAX_INTERIM_BLOCK_BYTES + 10), 'latin1'))]
    expect(Buffer.concat(out).length).toBe(MAX_INTERIM_BLOCK_BYTES + 10)
    expect(stripper.feed(Buffer.from('rest'))).toEqual([Buffer.from('rest')])
  })
})

/** A raw server: for every request a connection carries (one at a time), the given chunks, written with a pause between. */
function answering(server: Server, chunks: (request: number) => string[]): Server {
  return server
    .on('secureConnection', (socket: Socket) => serve(socket))
    .on('connection', (socket: Socket) => {
      if (!('encrypted' in socket)) serve(socket)
    })
  function serve(socket: Socket): void {
    socket.setNoDelay(true)
    let requests = 0
    let seen = ''
    socket.on('error', () => {})
    socket.on('data', async (data: Buffer) => {
      seen += data.toString('latin1')
      while (seen.includes('\r\n\r\n')) {
        seen = seen.slice(seen.indexOf('\r\n\r\n') + 4)
        for (const chunk of chunks(++requests)) {
          socket.write(chunk)
          await new Promise((resolve) => setTimeout(resolve, 5))
        }
      }
    })
  }
}

async function listen(server: Server): Promise<number> {
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return (server.address() as AddressInfo).port
}

/** 100, 100 again on every second request, then an answer whose body arrives in three TCP chunks. */
function hostileAnswer(n: number): string[] {
  const body = JSON.stringify({ request: n })
  const interim = n % 2 === 0 ? CONTINUE + CONTINUE : CONTINUE
  return [
    interim,
    `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body.slice(0, 3)}`,
    body.slice(3, 7),
    body.slice(7),
  ]
}

async function fiveRequests(url: string, dispatcher: Dispatcher): Promise<unknown[]> {
  const bodies: unknown[] = []
  for (let i = 0; i < 5; i++) {
    const method = i === 2 ? 'POST' : 'GET'
    const answer = await request(url, { dispatcher, method, body: method === 'POST' ? '{"a":1}' : undefined })
    expect(answer.statusCode).toBe(200)
    bodies.push(await answer.body.json())
  }
  return bodies
}

const FIVE = [1, 2, 3, 4, 5].map((request) => ({ request }))

describe('undici with continueTolerantFactory against a server that sends unasked 100 Continue', () => {
  let plain: Server
  let secure: Server
  let plainPort: number
  let securePort: number
  let ca: string
  let forward: ForwardProxy

  beforeAll(async () => {
    const { cert, key } = await selfSignedCertificate('127.0.0.1')
    ca = cert
    plain = answering(createNetServer(), hostileAnswer)
    secure = answering(createTlsServer({ cert, key }) as unknown as Server, hostileAnswer)
    plainPort = await listen(plain)
    securePort = await listen(secure)
    forward = await startForwardProxy()
  })

  afterAll(async () => {
    await forward?.close()
    for (const server of [plain, secure]) server?.close()
  })

  it('plain undici fails on it (why the factory exists)', async () => {
    const agent = new Agent()
    try {
      await expect(request(`http://127.0.0.1:${plainPort}/`, { dispatcher: agent })).rejects.toThrow(/bad response/)
    } finally {
      await agent.close()
    }
  })

  it('http: five requests on one kept-alive connection, one and two 100s each, bodies split across chunks', async () => {
    const agent = new Agent({ factory: continueTolerantFactory, connections: 1 })
    try {
      expect(await fiveRequests(`http://127.0.0.1:${plainPort}/x`, agent)).toEqual(FIVE)
    } finally {
      await agent.close()
    }
  })

  it('https: the TLS options undici was given (ca, servername) still apply', async () => {
    const agent = new Agent({ factory: continueTolerantFactory, connections: 1, connect: { ca, servername: 'localhost', timeout: 5_000 } })
    const refusing = new Agent({ factory: continueTolerantFactory, connect: { timeout: 5_000 } })
    try {
      expect(await fiveRequests(`https://127.0.0.1:${securePort}/x`, agent)).toEqual(FIVE)
      await expect(request(`https://127.0.0.1:${securePort}/x`, { dispatcher: refusing })).rejects.toThrow(/self.signed/)
    } finally {
      await Promise.all([agent.close(), refusing.close()])
    }
  })

  it('through a forward proxy (EnvHttpProxyAgent: a CONNECT tunnel, TLS over it for https)', async () => {
    const before = forward.tunnels
    const agent = new EnvHttpProxyAgent({
      factory: continueTolerantFactory,
      connections: 1,
      httpProxy: forward.url,
      httpsProxy: forward.url,
      noProxy: '',
      requestTls: { ca, servername: 'localhost' },
    })
    try {
      expect(await fiveRequests(`http://127.0.0.1:${plainPort}/x`, agent)).toEqual(FIVE)
      expect(await fiveRequests(`https://127.0.0.1:${securePort}/x`, agent)).toEqual(FIVE)
      expect(forward.tunnels - before).toBeGreaterThanOrEqual(2)
    } finally {
      await agent.close()
    }
  })
})
