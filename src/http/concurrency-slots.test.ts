// The per-key cap on requests in flight, and that turning pacing off (`paced: false`) keeps it.
import { createServer, type Server } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConcurrencySlots } from './concurrency-slots.ts'
import { localTransport } from './test-fixtures/local-transport.ts'

describe('ConcurrencySlots', () => {
  it('bounds concurrency', async () => {
    const slots = new ConcurrencySlots(2)
    const a = await slots.acquire()
    await slots.acquire()
    let third = false
    const pending = slots.acquire().then((release) => {
      third = true
      release()
    })
    await new Promise((r) => setTimeout(r, 10))
    expect(third).toBe(false)
    a()
    await pending
    expect(third).toBe(true)
  })

  it('frees a slot once, however often its release is called', async () => {
    const slots = new ConcurrencySlots(1)
    const a = await slots.acquire()
    a()
    a()
    await slots.acquire()
    let second = false
    const pending = slots.acquire().then(() => (second = true))
    await new Promise((r) => setTimeout(r, 10))
    expect(second).toBe(false)
    void pending
  })
})

describe('ConcurrencySlots with a cap that moves (the main key: adaptive-concurrency.ts)', () => {
  it('lets waiting requests through when the cap grows, none while it is below those in use', async () => {
    let cap = 2
    const slots = new ConcurrencySlots(() => cap)
    const a = await slots.acquire()
    const b = await slots.acquire()
    let started = 0
    const more = [slots.acquire(), slots.acquire(), slots.acquire()].map((p) => p.then((release) => (started++, release)))
    await new Promise((r) => setTimeout(r, 5))
    expect(started).toBe(0)
    expect(slots.queued).toBe(3)
    cap = 4
    slots.poke()
    await new Promise((r) => setTimeout(r, 5))
    expect(started).toBe(2)
    cap = 1
    a()
    b()
    await new Promise((r) => setTimeout(r, 5))
    // Two still in use, above the cap of one: the third waits.
    expect(started).toBe(2)
    expect(slots.active).toBe(2)
    void more
  })
})

describe('the transport keeps the per-key cap with pacing off', () => {
  let server: Server
  let open = 0
  let most = 0

  beforeAll(async () => {
    // Answers 50 ms late, with no rate headers (the pacer would not hold anything back anyway).
    server = createServer((_req, res) => {
      open++
      most = Math.max(most, open)
      setTimeout(() => {
        open--
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end('{}')
      }, 50)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  })

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })

  it.each([true, false])('paced: %s sends at most `concurrency` requests of a key at once', async (paced) => {
    const transport = localTransport(server)
    most = 0
    try {
      const exchanges = await Promise.all(Array.from({ length: 6 }, () => transport.send({ method: 'GET', path: '/me', paced })))
      expect(exchanges.map((e) => e.response?.status)).toEqual([200, 200, 200, 200, 200, 200])
      expect(most).toBe(2)
    } finally {
      await transport.close()
    }
  })
})
