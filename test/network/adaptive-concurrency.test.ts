// The main key's requests in flight adapt to the server (issue 30, src/http/adaptive-concurrency.ts): against the
// reference server answering every request ~400 ms late they rise above the old fixed four (a slow server's
// answers are waited for, not a sign of trouble); once it starts answering 503 they fall again. The other keys
// keep four. Read from the transport's own figures (stats.maxInFlight, stats.mainTimeline).
import { afterAll, beforeAll, expect, test } from 'vitest'
import { DEFAULTS } from '../../src/config/config.ts'
import { Redactor } from '../../src/http/redact.ts'
import { Transport } from '../../src/http/transport.ts'
import { startReferenceServer, type ReferenceServer, type ServerConditions } from '../../src/reference/index.ts'

const DELAY_MS = 400
/** Requests the test keeps wanting to send at once: more than the ceiling, so the cap, not the test, limits. */
const DEMAND = 24
const OLD_FIXED_CAP = 4

const conditions: ServerConditions = { responseDelayMs: DELAY_MS, responseJitterMs: 50 }
let server: ReferenceServer
let transport: Transport

beforeAll(async () => {
  // No practical rate limit: the slow answers alone set how many requests are worth keeping in flight.
  server = await startReferenceServer({ rateLimitPerMinute: 100_000, conditions })
  transport = new Transport({
    baseUrl: server.baseUrl,
    keys: server.keys,
    redactor: new Redactor([]),
    timeoutMs: 15_000,
    maxResponseBytes: DEFAULTS.maxResponseBytes,
    concurrency: DEFAULTS.concurrency,
    requestBudget: 100_000,
    maxRetryAfterS: DEFAULTS.maxRetryAfterS,
  })
})

afterAll(async () => {
  await transport?.close()
  await server?.close()
})

/** `DEMAND` loops sending `GET /me` as `role` until `untilMs` has passed; the statuses they got. */
async function load(role: 'main' | 'foreign', forMs: number, demand = DEMAND): Promise<number[]> {
  const until = performance.now() + forMs
  const statuses: number[] = []
  await Promise.all(
    Array.from({ length: demand }, async () => {
      while (performance.now() < until) {
        const exchange = await transport.send({ method: 'GET', path: '/me' }, role)
        statuses.push(exchange.response?.status ?? 0)
      }
    }),
  )
  return statuses
}

test('in flight rises above the old four on a slow server, falls again once it answers 503; other keys keep four', { timeout: 60_000 }, async () => {
  const [slow, foreign] = await Promise.all([load('main', 8_000), load('foreign', 3_000, 12)])
  expect(slow.every((s) => s === 200)).toBe(true)
  expect(foreign.every((s) => s === 200)).toBe(true)
  const risen = transport.stats.maxInFlight.main ?? 0
  console.log(`slow server: main key's in flight reached ${risen} (cap now ${transport.mainCap}); foreign key's ${transport.stats.maxInFlight.foreign}`)
  expect(risen, 'the main key keeps more than the old fixed four in flight').toBeGreaterThan(OLD_FIXED_CAP)
  expect(risen, 'never above the ceiling (CRM_CONCURRENCY)').toBeLessThanOrEqual(DEFAULTS.concurrency)
  expect(transport.stats.maxInFlight.foreign ?? 0, 'another key keeps the fixed four').toBeLessThanOrEqual(DEFAULTS.concurrencyStart)

  conditions.unavailable = true
  const overloaded = await load('main', 6_000)
  expect(overloaded.filter((s) => s === 503).length).toBeGreaterThan(0)
  // The last second of the 503s: what the cap let through once it had shrunk.
  const lastAt = transport.stats.mainTimeline.at(-1)!.atMs
  const lastSecond = transport.stats.mainTimeline.filter((t) => t.atMs >= lastAt - 1_000)
  const fallen = Math.max(...lastSecond.map((t) => t.inFlight))
  console.log(`answering 503: cap ${transport.mainCap}, in flight at most ${fallen} in the last second (${overloaded.length} requests)`)
  expect(transport.mainCap, 'the cap halves on 503s').toBeLessThanOrEqual(Math.floor(risen / 2))
  expect(fallen, 'fewer requests in flight than at the peak').toBeLessThan(risen)
  expect(fallen).toBeLessThanOrEqual(OLD_FIXED_CAP)
})
