// Issue 28: the proxy in front of a CDN-like gateway that compresses answers as real ones do (zstd, which
// Chromium asks for on every fetch(), br, gzip, stacked codings), and hostile traffic through it: a gzip bomb in
// an answer and in a request body, JSON nested 100,000 deep, and a target that never answers. Each ends with the
// proxy still forwarding, the server judged only on what it answered, and no violation for a body left unjudged.
import { spawnSync } from 'node:child_process'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { brotliCompressSync, gzipSync } from 'node:zlib'
import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startReferenceServer, type ReferenceServer } from '../../src/reference/index.ts'
import { startProxy, type RunningProxy } from '../../src/traffic/proxy.ts'
import { trafficExitCode } from '../../src/traffic/report.ts'
import { TrafficSession } from '../../src/traffic/session.ts'
import type { TrafficExchange } from '../../src/traffic/types.ts'

/** zstd from the command line tool (Debian's zstd, installed by .ci/run): Node 20's zlib cannot compress it. */
function zstd(bytes: Buffer): Buffer {
  const out = spawnSync('zstd', ['-q', '-c'], { input: bytes })
  if (out.status !== 0) throw new Error(`zstd failed: ${out.stderr?.toString()}`)
  return out.stdout
}

const COMPRESS: Record<string, (b: Buffer) => Buffer> = {
  gzip: gzipSync,
  br: brotliCompressSync,
  zstd,
  'gzip, br': (b) => brotliCompressSync(gzipSync(b)),
}

/** Ten gzip members of 64 MiB of zeros each: 640 MiB inflated, about 650 kB on the wire. */
let bomb: Buffer | undefined
const gzipBomb = () => (bomb ??= Buffer.concat(Array.from({ length: 10 }, () => gzipSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 }))))

const DEEP = `${'['.repeat(100_000)}${']'.repeat(100_000)}`

/** Forwards to the reference server and answers in the coding the test names (x-test-coding), as a CDN would. */
function startGateway(upstream: string): Promise<Server> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const chunks: Buffer[] = []
      for await (const c of req) chunks.push(c as Buffer)
      const coding = String(req.headers['x-test-coding'] ?? '')
      const headers: Record<string, string> = {}
      for (const [name, value] of Object.entries(req.headers))
        if (typeof value === 'string' && !['host', 'content-length', 'accept-encoding'].includes(name)) headers[name] = value
      const answer = await request(`${upstream}${req.url}`, { method: req.method as 'GET', headers, body: chunks.length ? Buffer.concat(chunks) : undefined })
      const body = Buffer.from(await answer.body.arrayBuffer())
      const out: Record<string, string> = {}
      for (const [name, value] of Object.entries(answer.headers))
        if (typeof value === 'string' && name !== 'content-length' && name !== 'connection') out[name] = value
      if (coding === 'bomb') {
        res.writeHead(200, { ...out, 'content-encoding': 'gzip' }).end(gzipBomb())
      } else if (coding === 'deep') {
        res.writeHead(200, { ...out, 'content-encoding': 'gzip' }).end(gzipSync(DEEP))
      } else if (COMPRESS[coding]) {
        res.writeHead(answer.statusCode, { ...out, 'content-encoding': coding, vary: 'accept-encoding' }).end(COMPRESS[coding]!(body))
      } else {
        res.writeHead(answer.statusCode, out).end(body)
      }
    })().catch((error: Error) => res.writeHead(500).end(error.message))
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

let reference: ReferenceServer
let gateway: Server
let proxy: RunningProxy
let session: TrafficSession
const exchanges: TrafficExchange[] = []
const judgeErrors: Error[] = []

beforeAll(async () => {
  reference = await startReferenceServer({ port: 0 })
  const origin = new URL(reference.baseUrl).origin
  gateway = await startGateway(origin)
  const basePath = new URL(reference.baseUrl).pathname
  session = new TrafficSession({ basePath, failOn: 'must', config: { keys: { main: reference.keys.main }, extraHeaders: {} } })
  proxy = await startProxy({
    target: `http://127.0.0.1:${(gateway.address() as AddressInfo).port}${basePath}`,
    host: '127.0.0.1',
    port: 0,
    onExchange(raw) {
      const exchange = session.redact(raw)
      exchanges.push(exchange)
      session.judge(exchange)
    },
    onJudgeError: (error) => void judgeErrors.push(error),
  })
}, 60_000)

afterAll(async () => {
  await proxy?.close()
  await new Promise((resolve) => gateway?.close(resolve))
  await reference?.close()
})

const call = async (path: string, coding: string, init: { method?: string; body?: Buffer; headers?: Record<string, string> } = {}) => {
  const res = await request(`${proxy.url}${path}`, {
    method: (init.method ?? 'GET') as 'GET',
    headers: { authorization: `Bearer ${reference.keys.main}`, 'accept-encoding': 'zstd, br, gzip', 'x-test-coding': coding, ...init.headers },
    body: init.body,
  })
  await res.body.arrayBuffer()
  return res.statusCode
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 100))

describe('the proxy in front of a gateway that compresses answers', () => {
  it('decodes zstd, br, gzip and stacked codings: the server is judged on its answers, with no false violation', async () => {
    for (const coding of ['zstd', 'br', 'gzip', 'gzip, br']) {
      expect(await call('/accounts?limit=5', coding)).toBe(200)
      expect(await call('/me', coding)).toBe(200)
    }
    await settle()
    const judged = exchanges.filter((e) => e.response?.headers['content-encoding'])
    expect(judged).toHaveLength(8)
    for (const e of judged) expect(e.response!.truncated, `${e.response!.headers['content-encoding']}: ${e.response!.note}`).toBeUndefined()
    expect(judged.filter((e) => e.request.url.includes('/accounts')).every((e) => Array.isArray((e.response!.body as { data?: unknown }).data))).toBe(true)
    expect(session.tally.server).toBe(0)
  }, 60_000)

  it('leaves a gzip bomb (answer or request body) and JSON nested 100,000 deep unjudged, and keeps forwarding', async () => {
    const before = exchanges.length
    expect(await call('/accounts', 'bomb')).toBe(200)
    expect(await call('/accounts', 'deep')).toBe(200)
    const refused = await call('/accounts', '', {
      method: 'POST',
      body: gzipBomb(),
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    })
    expect(refused).toBeGreaterThanOrEqual(400)
    expect(await call('/me', '')).toBe(200)
    await settle()
    const mine = exchanges.slice(before)
    expect(mine).toHaveLength(4)
    expect(mine[0]!.response).toMatchObject({ truncated: true, note: expect.stringMatching(/decodes to more than/) })
    expect(mine[1]!.response).toMatchObject({ truncated: true, note: expect.stringMatching(/nested more than \d+ levels deep/) })
    expect(mine[2]!.request).toMatchObject({ truncated: true, note: expect.stringMatching(/decodes to more than/) })
    expect(judgeErrors).toEqual([])
    expect(session.tally.server).toBe(0)
  }, 60_000)
})

describe('a target that never answers', () => {
  it('says so at once, answers 502, and verifies nothing (exit 2)', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', () => resolve()))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    const lonely = new TrafficSession({ basePath: '/v1', failOn: 'must', config: { keys: {}, extraHeaders: {} } })
    const unanswered: Error[] = []
    const dead = await startProxy({
      target: `http://127.0.0.1:${port}/v1`,
      host: '127.0.0.1',
      port: 0,
      onExchange: (raw) => void lonely.judge(lonely.redact(raw)),
      onUnanswered: (error) => void unanswered.push(error),
    })
    try {
      const res = await request(`${dead.url}/me`, { headers: { authorization: 'Bearer x' } })
      await res.body.arrayBuffer()
      expect(res.statusCode).toBe(502)
    } finally {
      await dead.close()
    }
    expect(unanswered).toHaveLength(1)
    const rows = lonely.finish()
    expect(lonely.exchanges).toBe(1)
    expect(lonely.answered).toBe(0)
    expect(trafficExitCode(rows, 'must', lonely.answered)).toBe(2)
  }, 30_000)
})
