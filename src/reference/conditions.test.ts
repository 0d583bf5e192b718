import { connect } from 'node:net'
import { Agent, ProxyAgent, request } from 'undici'
import { afterEach, expect, test } from 'vitest'
import { startForwardProxy } from '../selfcheck/forward-proxy.ts'
import { startReferenceServer, type ReferenceServer } from './index.ts'

let server: ReferenceServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

test('every response comes late by the delay, within the jitter', async () => {
  server = await startReferenceServer({ conditions: { responseDelayMs: 300, responseJitterMs: 50 } })
  const started = performance.now()
  const res = await request(`${server.baseUrl}/me`, { headers: { authorization: `Bearer ${server.keys.main}` } })
  await res.body.dump()
  expect(res.statusCode).toBe(200)
  expect(performance.now() - started).toBeGreaterThanOrEqual(249)
})

test('the limiter shape applies to every key: a fixed window refuses past the budget until the minute', async () => {
  server = await startReferenceServer({ conditions: { limiter: 'fixed-window' } })
  const headers = { authorization: `Bearer ${server.keys.rateLimited}` }
  const statuses: number[] = []
  let last: Record<string, unknown> = {}
  for (let i = 0; i < 21; i++) {
    const res = await request(`${server.baseUrl}/me`, { headers })
    await res.body.dump()
    statuses.push(res.statusCode)
    last = res.headers
  }
  expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true)
  expect(statuses[20]).toBe(429)
  expect(Number(last['retry-after'])).toBe(Number(last['ratelimit-reset']))
})

test('behind the relay, an idle keep-alive connection is closed by the server, unannounced', async () => {
  server = await startReferenceServer({ conditions: { idleCloseMs: 200, relayDelayMs: 20 } })
  const port = Number(new URL(server.baseUrl).port)
  const socket = connect({ host: '127.0.0.1', port })
  const chunks: Buffer[] = []
  socket.on('data', (c) => chunks.push(c))
  const closedAt = new Promise<number>((resolve) => socket.once('close', () => resolve(performance.now())))
  socket.write(`GET /v1/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.keys.main}\r\n\r\n`)
  const sentAt = performance.now()
  const closed = await closedAt
  const head = Buffer.concat(chunks).toString('latin1').split('\r\n\r\n')[0]!
  expect(head).toMatch(/^HTTP\/1.1 200/)
  expect(head.toLowerCase()).not.toContain('keep-alive: timeout')
  // One round trip through the relay (2 × 20 ms), the idle wait, and the close on its way back.
  expect(closed - sentAt).toBeGreaterThanOrEqual(200)
})

test("a reused connection that crosses the server's close fails on the client, as behind a load balancer", async () => {
  server = await startReferenceServer({ conditions: { idleCloseMs: 100, relayDelayMs: 40 } })
  const agent = new Agent({ keepAliveTimeout: 10_000, connections: 1 })
  const get = async () => {
    const res = await request(`${server!.baseUrl}/me`, { headers: { authorization: `Bearer ${server!.keys.main}` }, dispatcher: agent })
    await res.body.dump()
    return res.statusCode
  }
  try {
    // Sent 60 ms after the last answer arrived: the server closes 100 ms after it sent it, the request reaches it
    // 40 ms later (too late) while its close is still 40 ms away from the client, which reused the socket.
    const outcomes: string[] = []
    for (let i = 0; i < 10 && !outcomes.includes('closed'); i++) {
      await get().catch(() => undefined)
      await new Promise((r) => setTimeout(r, 60))
      outcomes.push(await get().then(String, (e: Error) => (/other side closed|socket|reset/i.test(e.message) ? 'closed' : e.message)))
    }
    expect(outcomes).toContain('closed')
  } finally {
    await agent.close()
  }
})

test('the forward proxy forwards and counts, and refuses targets off the machine', async () => {
  server = await startReferenceServer()
  const proxy = await startForwardProxy()
  const plain = new ProxyAgent({ uri: proxy.url, proxyTunnel: false })
  const tunnel = new ProxyAgent({ uri: proxy.url, proxyTunnel: true })
  try {
    for (const dispatcher of [plain, tunnel]) {
      const res = await request(`${server.baseUrl}/me`, { headers: { authorization: `Bearer ${server.keys.main}` }, dispatcher })
      await res.body.dump()
      expect(res.statusCode).toBe(200)
    }
    expect({ requests: proxy.requests, tunnels: proxy.tunnels }).toEqual({ requests: 1, tunnels: 1 })
    const res = await request('http://192.0.2.1/v1/me', { dispatcher: plain })
    await res.body.dump()
    expect(res.statusCode).toBe(403)
    expect(proxy.refused).toBe(1)
  } finally {
    await plain.close()
    await tunnel.close()
    await proxy.close()
  }
})
