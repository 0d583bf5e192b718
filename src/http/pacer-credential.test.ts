// The key's pacer reads only answers to the key's own credential: a call sent without it (`auth: 'none'`, a
// credential of its own) is answered from another bucket, the reference server's per-address one, whose
// RateLimit-Remaining once told a main key nearly spent that its whole minute was left (one 429 on the main key
// in a loaded CI, under fixed and sliding windows).
import { createServer, type Server } from 'node:http'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { localTransport } from './test-fixtures/local-transport.ts'

let server: Server
/** The main key's bucket: 10 left of 600 for 40 s; a call without it: the address's bucket, 599 left. */
let keyRemaining = 10

beforeAll(async () => {
  server = createServer((req, res) => {
    const ownKey = req.headers.authorization === 'Bearer crm_ws_main_0123456789abcdef'
    const remaining = ownKey ? Math.max(0, --keyRemaining) : 599
    res.writeHead(ownKey ? 200 : 401, {
      'content-type': 'application/json',
      'ratelimit-limit': '600',
      'ratelimit-remaining': String(remaining),
      'ratelimit-reset': '40',
    })
    res.end(ownKey ? '{"data":[]}' : '{"error":{"code":"unauthorized","message":"no key"}}')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

it("answers to calls without the key's credential leave its quota as the key's own answers told it", async () => {
  const transport = localTransport(server)
  try {
    await transport.send({ method: 'GET', path: '/accounts' }, 'main')
    const told = transport.pacerFor('main').snapshot.remaining
    expect(told).toBe(9)
    await transport.send({ method: 'GET', path: '/accounts', auth: 'none' }, 'main')
    await transport.send({ method: 'GET', path: '/accounts', auth: { header: 'Basic bm90LWEta2V5' } }, 'main')
    // Each was let through the key's pacer, so each is counted as spent; neither raised the count to 599.
    expect(transport.pacerFor('main').snapshot.remaining).toBeLessThanOrEqual(told!)
    await transport.send({ method: 'GET', path: '/accounts' }, 'main')
    expect(transport.pacerFor('main').snapshot.remaining).toBe(8)
  } finally {
    await transport.close()
  }
})
