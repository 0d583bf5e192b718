// A server (or load balancer) that closes idle keep-alive connections after 500 ms, seen through a relay that
// adds 40 ms each way: requests sent ~500 ms apart meet connections the server is closing. Requests that are
// safe to repeat are sent again on a fresh connection (undici's retry interceptor); an unkeyed POST is never
// sent twice and never sent on a kept-alive connection.
import { createServer, type Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { Agent, request } from 'undici'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { Redactor } from '../../src/http/redact.ts'
import { Transport } from '../../src/http/transport.ts'
import { startRelay, type Relay } from '../../src/reference/conditions.ts'

const IDLE_CLOSE_MS = 500
const RELAY_DELAY_MS = 40

let server: Server
let relay: Relay
const received: Record<string, number> = {}
let idleCloses = 0

beforeAll(async () => {
  // The idle close is the server's own, as a load balancer's: no `Keep-Alive: timeout=` header tells the
  // client about it (Node's own keepAliveTimeout would, and undici would then close first).
  const idleTimers = new Map<Socket, NodeJS.Timeout>()
  server = createServer((req, res) => {
    clearTimeout(idleTimers.get(req.socket))
    const name = `${req.method} ${req.url}`
    received[name] = (received[name] ?? 0) + 1
    req.resume()
    req.on('end', () => {
      res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' })
      res.end('{"ok":true}')
    })
    res.on('finish', () => {
      idleTimers.set(
        req.socket,
        setTimeout(() => {
          idleCloses++
          req.socket.destroy()
        }, IDLE_CLOSE_MS),
      )
    })
  })
  server.keepAliveTimeout = 0
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  relay = await startRelay({ host: '127.0.0.1', port: (server.address() as AddressInfo).port }, RELAY_DELAY_MS)
})

afterAll(async () => {
  await relay?.close()
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
/** Spacing around the idle close as the client sees it (500 ms + the FIN's 40 ms), so that some requests cross it. */
const spacing = (i: number) => IDLE_CLOSE_MS - 40 + ((i * 37) % 120)

describe('connections a server closes when idle', () => {
  test('requests ~500 ms apart: no error, safe ones retried on a fresh connection, an unkeyed POST counted once', async () => {
    const transport = new Transport({
      baseUrl: `http://127.0.0.1:${relay.port}/v1`,
      keys: { main: 'crm_ws_main_0123456789abcdef' },
      redactor: new Redactor(),
      timeoutMs: 5_000,
      maxResponseBytes: 1024 * 1024,
      concurrency: 2,
      requestBudget: 1_000,
      maxRetryAfterS: 1,
    })
    const errors: string[] = []
    const plan: { method: string; path: string; idempotencyKey?: string }[] = []
    for (let i = 0; i < 24; i++) {
      if (i % 6 === 5) plan.push({ method: 'POST', path: `/unkeyed-${i}` })
      else if (i % 6 === 4) plan.push({ method: 'POST', path: `/keyed-${i}`, idempotencyKey: `key-${i}` })
      else if (i % 6 === 3) plan.push({ method: 'PUT', path: `/put-${i}` })
      else if (i % 6 === 2) plan.push({ method: 'DELETE', path: `/delete-${i}` })
      else plan.push({ method: 'GET', path: `/get-${i}` })
    }
    try {
      for (const [i, step] of plan.entries()) {
        const exchange = await transport.send({ ...step, body: step.method === 'POST' || step.method === 'PUT' ? { n: i } : undefined })
        if (!exchange.response) errors.push(`${step.method} ${step.path}: ${exchange.error?.message}`)
        await sleep(spacing(i))
      }
    } finally {
      await transport.close()
    }
    console.log(`keep-alive: ${idleCloses} idle connections closed by the server; received ${JSON.stringify(received)}`)
    expect(errors).toEqual([])
    // Every unkeyed POST reached the server exactly once.
    for (const step of plan.filter((s) => s.method === 'POST' && !s.idempotencyKey)) expect(received[`POST /v1${step.path}`], step.path).toBe(1)
    for (const step of plan) expect(received[`${step.method} /v1${step.path}`], step.path).toBeGreaterThanOrEqual(1)
  }, 60_000)

  test('control: the same pattern on a kept-alive connection without retries meets the closed connections', async () => {
    // Shows the race is real here: a plain client sees "other side closed" on some of these requests.
    const plain = new Agent({ keepAliveTimeout: 10_000 })
    let failures = 0
    try {
      for (let i = 0; i < 16; i++) {
        try {
          const res = await request(`http://127.0.0.1:${relay.port}/control/${i}`, { dispatcher: plain })
          await res.body.text()
        } catch {
          failures++
        }
        await sleep(spacing(i))
      }
    } finally {
      await plain.close()
    }
    console.log(`keep-alive control: ${failures} of 16 plain requests failed`)
    expect(failures).toBeGreaterThan(0)
  }, 60_000)
})
