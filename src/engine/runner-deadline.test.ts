// A check's deadline measures the check, not the queue: time its requests spend waiting for the key's rate
// limit (here a spent window that resets in a second) is not counted; its own waits are.
import { createServer, type Server } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CheckDefinition } from '../checks/types.ts'
import { Redactor } from '../http/redact.ts'
import { localTransport } from '../http/test-fixtures/local-transport.ts'
import type { Transport } from '../http/transport.ts'
import { runCheck } from './runner.ts'
import type { RunSession } from './session.ts'

let server: Server
let transport: Transport

beforeAll(async () => {
  // Every answer says the window is spent and resets in 1 s: each request after the first waits ~2 s in the pacer.
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'ratelimit-limit': '600', 'ratelimit-remaining': '0', 'ratelimit-reset': '1' })
    res.end('{}')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  transport = localTransport(server)
})

afterAll(async () => {
  await transport.close()
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

function sessionWith(checkTimeoutMs: number): RunSession {
  return {
    profile: 'full',
    seed: 1,
    baseUrl: transport.baseUrl,
    config: { checkTimeoutMs },
    transport,
    redactor: new Redactor(),
  } as unknown as RunSession
}

const check = (run: CheckDefinition['run'], extra: Partial<CheckDefinition> = {}): CheckDefinition => ({
  id: 'deadline.test',
  area: 'deadline',
  clauses: ['§8'],
  level: 'MUST',
  title: 'deadline test',
  run,
  ...extra,
})

describe("a check's deadline", () => {
  it('does not count the time its requests wait for the rate limit', async () => {
    const started = performance.now()
    const result = await runCheck(
      check(async (ctx) => {
        await ctx.api.get('/me')
        await ctx.api.get('/me')
      }),
      sessionWith(1_000),
    )
    expect(result.status, result.message).toBe('passed')
    // The second request did wait for the window (longer than the deadline), in the queue.
    expect(performance.now() - started).toBeGreaterThan(1_000)
  })

  it('does not count the time it awaits work another check has queued behind the spent window (a shared fixture)', async () => {
    const session = sessionWith(1_000)
    // The fixture's create is the first check's second request (it waits ~2 s for the window); the second
    // check only awaits its result, with a deadline of 1 s.
    let made!: (value: unknown) => void
    const fixture = new Promise((resolve) => (made = resolve))
    const creator = runCheck(
      check(async (ctx) => {
        await ctx.api.get('/me')
        made(await ctx.api.get('/me'))
      }),
      session,
    )
    const waiter = runCheck(
      check(async () => void (await fixture), { id: 'deadline.waiter' }),
      session,
    )
    const [first, second] = await Promise.all([creator, waiter])
    expect(first.status, first.message).toBe('passed')
    expect(second.status, second.message).toBe('passed')
  })

  it("counts the check's own waits, and says which limit it hit", async () => {
    const result = await runCheck(
      check(() => new Promise((resolve) => setTimeout(resolve, 1_500))),
      sessionWith(300),
    )
    expect(result.status).toBe('error')
    expect(result.message).toMatch(/^CRMCONF_TIMEOUT: the check did not finish within 300 ms.*CRM_CHECK_TIMEOUT_MS/)
  })

  it("a check's declared timeoutMs wins over the configured one", async () => {
    const result = await runCheck(
      check(() => new Promise((resolve) => setTimeout(resolve, 400)), { timeoutMs: 2_000 }),
      sessionWith(100),
    )
    expect(result.status, result.message).toBe('passed')
  })
})
