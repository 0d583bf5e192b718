// The whole suite against a server that misbehaves on purpose (test/hostile/server.ts): no answer, a reset
// connection, a body trickled byte by byte, a body that is not JSON, an endless or a huge body, a redirect
// to another host, a 500 on everything, a wrong Content-Type, a mix of all of them, and a server that dies
// mid-run. Every check must end with a verdict and a reason, the run must end, the key must never follow a
// redirect, and the CLI must exit with a documented code rather than crash or hang.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Agent, interceptors, request } from 'undici'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { catalogue } from '../suites/index.ts'
import type { CheckResult } from '../src/checks/types.ts'
import { runInProcess, type InProcessRun } from '../src/engine/in-process.ts'
import { Redactor } from '../src/http/redact.ts'
import { Transport } from '../src/http/transport.ts'
import { exitCodeFor, verdictOf } from '../src/report/build.ts'
import type { RunReport } from '../src/report/types.ts'
import { baseEnv, runCli, targetEnv } from './hostile/cli.ts'
import { startHostileProcess, type HostileProcess } from './hostile/process.ts'
import type { HostileMode } from './hostile/server.ts'

/**
 * Per mode: the request timeout (short where waiting out the timeout is the point, ample where the server
 * answers, so that a busy machine never turns an answer into a timeout), and whether the server ever answers.
 */
const MODES: { mode: HostileMode; requestTimeoutMs: number; answers: boolean }[] = [
  { mode: 'hang', requestTimeoutMs: 1_000, answers: false },
  { mode: 'reset', requestTimeoutMs: 1_000, answers: false },
  { mode: 'trickle', requestTimeoutMs: 1_000, answers: false },
  { mode: 'not-json', requestTimeoutMs: 10_000, answers: true },
  { mode: 'endless', requestTimeoutMs: 10_000, answers: true },
  { mode: 'huge', requestTimeoutMs: 10_000, answers: true },
  { mode: 'redirect', requestTimeoutMs: 10_000, answers: true },
  { mode: 'error-500', requestTimeoutMs: 10_000, answers: true },
  { mode: 'wrong-type', requestTimeoutMs: 10_000, answers: true },
  { mode: 'flaky', requestTimeoutMs: 2_000, answers: true },
]

/** The client's response cap in these runs; the `huge` body is four times as big. Small, so the test stays fast. */
const MAX_RESPONSE_BYTES = 64 * 1024
const DIES_AFTER = 150

// The servers run in a child process: they answer (or do not) on time however busy the suites keep this one.
let hostile: HostileProcess

beforeAll(async () => {
  hostile = await startHostileProcess({ hugeBytes: 4 * MAX_RESPONSE_BYTES, diesAfter: DIES_AFTER })
})

afterAll(async () => {
  await hostile?.close()
})

function runAgainst(mode: HostileMode, requestTimeoutMs: number): Promise<InProcessRun> {
  return runInProcess({
    checks: catalogue,
    config: {
      baseUrl: hostile.baseUrls[mode],
      keys: hostile.reference.keys,
      restrictedScopes: hostile.reference.restrictedScopes,
      fixtures: hostile.reference.fixtures,
      webhookSecret: hostile.reference.webhookSecret,
      // An ephemeral port for the webhook sink (runs side by side), and no long wait for deliveries that never come.
      sinkPort: 0,
      webhookTimeoutS: 2,
      requestTimeoutMs,
      maxResponseBytes: MAX_RESPONSE_BYTES,
      concurrency: 16,
    },
    profile: 'full',
    concurrency: 16,
    runId: `hostile-${mode}`,
  })
}

/** Every check of the catalogue has exactly one result, and every result that is not a pass says why. */
function expectEveryCheckJudged(results: CheckResult[]): void {
  expect(results.map((r) => r.id)).toEqual(catalogue.map((c) => c.id))
  for (const result of results) {
    expect(['passed', 'failed', 'skipped', 'error'], result.id).toContain(result.status)
    if (result.status !== 'passed') expect(result.message.trim(), `${result.id} (${result.status}) gives no reason`).not.toBe('')
  }
}

function tally(results: CheckResult[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const r of results) counts[r.status] = (counts[r.status] ?? 0) + 1
  return counts
}

/** Far beyond what the CLI run needs; reaching it means the process hung. */
const HARD_LIMIT_MS = 150_000

// The runs wait on timeouts and on the server far more than they compute: they run side by side.
describe('the whole suite against a hostile server', () => {
  test.concurrent('the CLI against a server that dies mid-run exits with a documented code and a report, never hanging', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crmconf-hostile-cli-'))
    try {
      const { webhookSecret: _none, ...target } = hostile.reference
      const env = baseEnv({ ...targetEnv(hostile.baseUrls['dies-after'], target), CRM_REQUEST_TIMEOUT_MS: '2000', CRM_SEED: '7' })
      const reportDir = join(dir, 'report')
      const run = await runCli(['run', '--report-dir', reportDir, '--quiet'], { cwd: dir, env, hardLimitMs: HARD_LIMIT_MS })
      const output = run.stdout + run.stderr
      expect(run.hung, `the CLI hung and was killed after ${HARD_LIMIT_MS} ms; output:\n${output.slice(-3000)}`).toBe(false)
      // 1: a MUST check failed or could not be verified (README, "Exit codes").
      expect(run.code, output.slice(-3000)).toBe(1)
      expect((await hostile.stats()).received['dies-after']).toBeGreaterThan(DIES_AFTER)
      const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as RunReport
      expect(report.checks.length).toBeGreaterThan(0)
      expect(report.summary.errored).toBeGreaterThan(0)
      for (const check of report.checks) if (check.status !== 'passed') expect(check.message, check.id).not.toBe('')
      // What the dead server kept is listed, with its id and the reason, in the report and in the output.
      expect(report.leftovers.length).toBeGreaterThan(0)
      for (const leftover of report.leftovers) expect(output).toContain(`left behind: ${leftover.resource} ${leftover.id}`)
      expect(output).toMatch(/reports: /)
      expect(output).not.toMatch(/Unhandled|ERR_UNHANDLED/i)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 180_000)

  test.concurrent.each(MODES)('$mode: every check ends with a verdict and a reason, and the run is not compliant', async ({ mode, requestTimeoutMs, answers }) => {
    const run = await runAgainst(mode, requestTimeoutMs)
    console.log(`hostile ${mode}: ${JSON.stringify(tally(run.results))}, ${run.session.transport.stats.total} requests, ${run.leftovers.length} left behind`)
    expect((await hostile.stats()).received[mode] ?? 0, 'the run reached the hostile server').toBeGreaterThan(0)
    expectEveryCheckJudged(run.results)
    expect(verdictOf(run.results).verdict).not.toBe('compliant')
    expect(exitCodeFor({ checks: run.results })).toBe(1)
    if (!answers) {
      // Nothing was ever answered: a MUST check that passed would have judged nothing.
      expect(run.results.filter((r) => r.level === 'MUST' && r.status === 'passed').map((r) => r.id)).toEqual([])
      // Harness errors, not server verdicts: the suite cannot tell what the server does.
      expect(run.results.filter((r) => r.status === 'failed').map((r) => r.id)).toEqual([])
      // A target that stops answering costs a few timeouts, not one per request: once it has not answered
      // several requests in a row, the rest are refused at once, with the reason.
      expect(run.session.transport.stats.total).toBeLessThan(catalogue.length / 4)
      expect(run.results.some((r) => /^CRMCONF_(TIMEOUT|NETWORK)/.test(r.message))).toBe(true)
      const unreachable = run.results.filter((r) => r.message.startsWith('CRMCONF_TARGET_UNREACHABLE'))
      expect(unreachable.length).toBeGreaterThan(catalogue.length / 2)
      expect(unreachable[0]!.message).toMatch(/no answer.*treated as unreachable/)
    }
    if (mode === 'wrong-type') {
      // Passed through from a conformant server: only the labelling is wrong, and that is what must fail.
      expect(run.results.find((r) => r.id === 'invariants.json-bodies')?.status).toBe('failed')
    }
    // Whatever could not be removed is listed with its id and the reason.
    for (const leftover of run.leftovers) {
      expect(leftover.id).not.toBe('')
      expect(leftover.reason).not.toBe('')
    }
  })

  test('redirects to another host are never followed, with or without the key', async () => {
    // Every mode above ran (`redirect`, and `flaky` which redirects every 40th request): the other host
    // saw no request at all, so it never saw the key.
    const stats = await hostile.stats()
    expect(stats.received.redirect ?? 0).toBeGreaterThan(0)
    expect(stats.redirectHits).toEqual([])
  })

  test("the transport's own answer to a redirect: recorded, not followed, the key not sent on", async () => {
    const transport = new Transport({
      baseUrl: hostile.baseUrls.redirect,
      keys: { main: hostile.reference.keys.main },
      redactor: new Redactor([{ name: 'CRM_API_KEY', value: hostile.reference.keys.main }]),
      timeoutMs: 2_000,
      maxResponseBytes: MAX_RESPONSE_BYTES,
      concurrency: 2,
      requestBudget: 10,
      maxRetryAfterS: 1,
    })
    try {
      const get = await transport.send({ method: 'GET', path: '/accounts' })
      const post = await transport.send({ method: 'POST', path: '/accounts', body: { name: 'x' } })
      expect(get.response?.status).toBe(302)
      expect(post.response?.status).toBe(307)
      expect(get.response?.headers.location).toBe(`${hostile.redirectOrigin}/v1/accounts`)
    } finally {
      await transport.close()
    }
    expect((await hostile.stats()).redirectHits).toEqual([])
  })

  test('a target that stops answering is tried again now and then, and used again once it answers', async () => {
    let answering = false
    let received = 0
    const server = createServer((req, res) => {
      received++
      if (!answering) return void req.socket.destroy()
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end('{"ok":true}')
    })
    await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', () => resolveListen()))
    const transport = new Transport({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
      keys: { main: 'crm_ws_test_0123456789abcdef' },
      redactor: new Redactor(),
      timeoutMs: 2_000,
      maxResponseBytes: MAX_RESPONSE_BYTES,
      concurrency: 1,
      requestBudget: 100,
      maxRetryAfterS: 1,
      unreachableAfterFailures: 3,
      unreachableRetryMs: 300,
    })
    const send = () => transport.send({ method: 'GET', path: '/me' })
    try {
      for (let i = 0; i < 3; i++) expect((await send()).error?.code).toBe('CRMCONF_NETWORK')
      // Open: refused at once, nothing sent.
      await expect(send()).rejects.toMatchObject({ code: 'CRMCONF_TARGET_UNREACHABLE' })
      expect(received).toBe(3)
      // After the retry interval one request goes out; it fails, and the breaker stays open.
      await new Promise((resolveWait) => setTimeout(resolveWait, 350))
      expect((await send()).error?.code).toBe('CRMCONF_NETWORK')
      await expect(send()).rejects.toMatchObject({ code: 'CRMCONF_TARGET_UNREACHABLE' })
      expect(received).toBe(4)
      // The target is back: the next trial answers, and from then on every request goes out.
      answering = true
      await new Promise((resolveWait) => setTimeout(resolveWait, 350))
      expect((await send()).response?.status).toBe(200)
      expect((await send()).response?.status).toBe(200)
      expect(received).toBe(6)
    } finally {
      await transport.close()
      await new Promise<void>((resolveClose) => server.close(() => resolveClose()))
    }
  })

  // Last: it is the one request that does reach the other host.
  test('control: a client that does follow redirects reaches the other host (the trap above is live)', async () => {
    const following = new Agent().compose(interceptors.redirect({ maxRedirections: 2 }))
    try {
      const res = await request(`${hostile.baseUrls.redirect}/accounts`, { dispatcher: following, headers: { authorization: 'Bearer control' } })
      await res.body.text()
      expect(res.statusCode).toBe(200)
    } finally {
      await following.close()
    }
    const hits = (await hostile.stats()).redirectHits
    expect(hits.map((h) => h.url)).toEqual(['/v1/accounts'])
  })
})

