// The whole suite against a server that misbehaves on purpose (test/hostile/server.ts): no answer, a reset
// connection, a body trickled byte by byte, a body that is not JSON, an endless or a huge body, a redirect
// to another host, a 500 on everything, a wrong Content-Type, a mix of all of them, and a server that dies
// mid-run. Every check must end with a verdict and a reason, the run must end, the key must never follow a
// redirect, and the CLI must exit with a documented code rather than crash or hang.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generate } from 'selfsigned'
import { Agent, interceptors, request } from 'undici'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { catalogue } from '../suites/index.ts'
import type { CheckResult } from '../src/checks/types.ts'
import { runInProcess, type InProcessRun } from '../src/run/in-process.ts'
import { Redactor } from '../src/http/redact.ts'
import { Transport } from '../src/http/transport.ts'
import { exitCodeFor, verdictOf } from '../src/report/build.ts'
import { assertNoSecrets } from '../src/report/secrets.ts'
import { LEFTOVER_LINES } from '../src/run/footprint.ts'
import type { RunReport } from '../src/report/types.ts'
import { baseEnv, ROOT, runCli, targetEnv } from './hostile/cli.ts'
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

/** A transport for a few requests with the main key alone (masked in what it records). */
function mainKeyTransport(baseUrl: string, timeoutMs: number, concurrency: number): Transport {
  return new Transport({
    baseUrl,
    keys: { main: hostile.reference.keys.main },
    redactor: new Redactor([{ name: 'CRM_API_KEY', value: hostile.reference.keys.main }]),
    timeoutMs,
    maxResponseBytes: MAX_RESPONSE_BYTES,
    concurrency,
    requestBudget: 10,
    maxRetryAfterS: 1,
  })
}

/** A run's target: the hostile `mode` in front of the reference server, with its keys and fixtures. */
function hostileTarget(mode: HostileMode) {
  return {
    baseUrl: hostile.baseUrls[mode],
    keys: hostile.reference.keys,
    restrictedScopes: hostile.reference.restrictedScopes,
    fixtures: hostile.reference.fixtures,
    // An ephemeral port for the webhook sink (runs side by side), and no long wait for deliveries that never come.
    sinkPort: 0,
    webhookTimeoutS: 2,
  }
}

function runAgainst(mode: HostileMode, requestTimeoutMs: number): Promise<InProcessRun> {
  return runInProcess({
    checks: catalogue,
    config: {
      ...hostileTarget(mode),
      webhookSecret: hostile.reference.webhookSecret,
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
  test.concurrent(
    'the CLI against a server that dies mid-run exits with a documented code and a report, never hanging',
    async () => {
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
        // A few each by id; more in one line that says where the list is, so the verdict is not buried.
        if (report.leftovers.length <= LEFTOVER_LINES)
          for (const leftover of report.leftovers) expect(output).toContain(`left behind: ${leftover.resource} ${leftover.id}`)
        else expect(output).toMatch(new RegExp(`left behind: ${report.leftovers.length} records \\(.*\\); each with its id and why in report\\.html`))
        expect(output).toMatch(/reports: /)
        expect(output).not.toMatch(/Unhandled|ERR_UNHANDLED/i)
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    },
    180_000,
  )

  test.concurrent.each(MODES)(
    '$mode: every check ends with a verdict and a reason, and the run is not compliant',
    async ({ mode, requestTimeoutMs, answers }) => {
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
    },
  )

  test('redirects to another host are never followed, with or without the key', async () => {
    // Every mode above ran (`redirect`, and `flaky` which redirects every 40th request): the other host
    // saw no request at all, so it never saw the key.
    const stats = await hostile.stats()
    expect(stats.received.redirect ?? 0).toBeGreaterThan(0)
    expect(stats.redirectHits).toEqual([])
  })

  test("the transport's own answer to a redirect: recorded, not followed, the key not sent on", async () => {
    const transport = mainKeyTransport(hostile.baseUrls.redirect, 2_000, 2)
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

/** Each form a server may echo a secret in, by a name that says which (never printed by value). */
function echoedForms(secrets: Record<string, string>): Record<string, string> {
  const forms: Record<string, string> = {}
  for (const [name, value] of Object.entries(secrets)) {
    const parts: Record<string, string> = { [name]: value, [`${name} (secret part)`]: value.split('_').at(-1)! }
    for (const [partName, part] of Object.entries(parts)) {
      forms[`${partName}, raw`] = part
      forms[`${partName}, URL-encoded`] = encodeURIComponent(part)
      forms[`${partName}, form-encoded`] = new URLSearchParams({ x: part }).toString().slice(2)
      forms[`${partName}, JSON-escaped`] = JSON.stringify(part).slice(1, -1)
      forms[`${partName}, HTML-escaped`] = part
        .replace(/&/g, '&amp;')
        .replace(/</g, '&lt;')
        .replace(/>/g, '&gt;')
        .replace(/"/g, '&quot;')
        .replace(/'/g, '&#39;')
    }
  }
  return forms
}

describe('hostile bodies and echoes, one request at a time', () => {
  // A few areas, not the whole catalogue: every request meets the same body, and the runs above already keep
  // the machine busy. Deep runs under a 1 MiB cap (the body is 400 KB) so that it is read whole and its depth
  // is what is refused.
  test.each([
    { mode: 'deep' as const, maxResponseBytes: 1024 * 1024, note: /nested more than \d+ levels deep: kept as text, not parsed/ },
    { mode: 'gzip-bomb' as const, maxResponseBytes: MAX_RESPONSE_BYTES, note: /encoded as gzip although the request asked for identity: not decoded/ },
  ])(
    '$mode: every check ends with a verdict and a plain reason, and the evidence keeps the reason, not the body',
    async ({ mode, maxResponseBytes, note }) => {
      const checks = catalogue.filter((c) => ['auth', 'records', 'errors'].includes(c.area))
      const run = await runInProcess({
        checks,
        config: {
          ...hostileTarget(mode),
          requestTimeoutMs: 10_000,
          maxResponseBytes,
          concurrency: 8,
        },
        profile: 'full',
        concurrency: 8,
        runId: `hostile-${mode}`,
      })
      console.log(`hostile ${mode}: ${JSON.stringify(tally(run.results))}, ${run.session.transport.stats.total} requests`)
      expect(run.results.map((r) => r.id)).toEqual(checks.map((c) => c.id))
      for (const result of run.results) if (result.status !== 'passed') expect(result.message.trim(), result.id).not.toBe('')
      expect(
        run.results.filter((r) => /Maximum call stack|RangeError|allocation failed/i.test(`${r.message} ${String(r.data ?? '')}`)).map((r) => r.id),
      ).toEqual([])
      expect(verdictOf(run.results).verdict).not.toBe('compliant')
      expect(run.session.exchanges.length).toBeGreaterThan(0)
      for (const exchange of run.session.exchanges) {
        expect(exchange.response?.note).toMatch(note)
        expect(exchange.response?.body).toBeUndefined()
        expect(exchange.response?.rawText?.length ?? 0).toBeLessThanOrEqual(64 * 1024)
      }
    },
    120_000,
  )

  test('a server echoing the key and the webhook secret URL-, form-, JSON- and HTML-encoded: every form is masked', async () => {
    const run = await runInProcess({
      checks: catalogue.filter((c) => ['auth', 'records', 'errors'].includes(c.area)),
      config: {
        ...hostileTarget('echo-encoded'),
        webhookSecret: hostile.reference.webhookSecret,
        concurrency: 8,
      },
      profile: 'full',
      concurrency: 8,
      runId: 'hostile-echo-encoded',
    })
    const evidence = JSON.stringify({ results: run.results, exchanges: run.session.exchanges })
    // The echo was live: the Location header carried the secret, and what is recorded there is its mask.
    expect(evidence).toContain('secret=<redacted:CRM_WEBHOOK_SECRET>')
    expect(evidence).toContain('<redacted:CRM_API_KEY>')
    const secrets: Record<string, string> = { CRM_WEBHOOK_SECRET: hostile.reference.webhookSecret }
    for (const [role, value] of Object.entries(hostile.reference.keys)) secrets[`key ${role}`] = value
    const leaked = Object.entries(echoedForms(secrets))
      .filter(([, form]) => form.length >= 12 && evidence.includes(form))
      .map(([name]) => name)
    expect(leaked).toEqual([])
    // What the report writer's guard looks for is absent too, so the report is written.
    expect(() => assertNoSecrets(evidence, secrets)).not.toThrow()
  }, 120_000)

  test('a gzip bomb or answers nested 200,000 deep cost no more memory than a clean server (peak within 1.5×, measured in child processes)', async () => {
    // As many requests as a full run sends: what each exchange keeps is multiplied by that.
    const probe = (baseUrl: string, count = 1200) =>
      new Promise<{ maxRssKb: number; answered: number; kept: number; keptBytes: number; note?: string }>((resolveProbe, reject) => {
        const child = spawn(
          process.execPath,
          [join(ROOT, 'bin', 'run-ts.mjs'), join(ROOT, 'test', 'hostile', 'memory-probe.ts'), baseUrl, hostile.reference.keys.main, String(count)],
          {
            cwd: ROOT,
            stdio: ['ignore', 'pipe', 'inherit'],
          },
        )
        let out = ''
        child.stdout!.on('data', (chunk: Buffer) => (out += chunk))
        child.on('error', reject)
        child.on('close', (code) =>
          code === 0 ? resolveProbe(JSON.parse(out.trim().split('\n').at(-1)!)) : reject(new Error(`memory probe exited ${code}: ${out}`)),
        )
      })
    const clean = await probe(hostile.baseUrls.pass)
    const bomb = await probe(hostile.baseUrls['gzip-bomb'], 300)
    const deep = await probe(hostile.baseUrls.deep)
    console.log(
      `peak memory: clean ${Math.round(clean.maxRssKb / 1024)} MB, gzip bomb ${Math.round(bomb.maxRssKb / 1024)} MB, deep ${Math.round(deep.maxRssKb / 1024)} MB; evidence kept ${clean.keptBytes} vs ${bomb.keptBytes} vs ${deep.keptBytes} bytes`,
    )
    // Issue 32: each deep answer's evidence is its start, not 64 KiB of brackets.
    expect(deep.answered).toBe(1200)
    expect(deep.note).toMatch(/nested more than \d+ levels deep/)
    expect(deep.maxRssKb).toBeLessThanOrEqual(1.5 * clean.maxRssKb)
    expect(deep.keptBytes).toBeLessThanOrEqual(clean.keptBytes * 1.5)
    expect(clean.answered).toBe(1200)
    expect(bomb.answered).toBe(300)
    expect(bomb.note).toMatch(/encoded as gzip although the request asked for identity: not decoded/)
    expect(bomb.maxRssKb).toBeLessThanOrEqual(1.5 * clean.maxRssKb)
    // The size cap applies to what is kept: the evidence of 300 bomb answers is no bigger than that of clean ones.
    expect(bomb.keptBytes).toBeLessThanOrEqual((clean.keptBytes / 4) * 1.5)
  }, 180_000)

  const oneRequest = async (baseUrl: string) => {
    const transport = mainKeyTransport(baseUrl, 5_000, 1)
    try {
      return await transport.send({ method: 'GET', path: '/me' })
    } finally {
      await transport.close()
    }
  }

  test('huge headers and a Content-Length lie end as a plain reason', async () => {
    const huge = await oneRequest(hostile.baseUrls['huge-headers'])
    expect(huge.error?.message).toMatch(/^the response headers are larger than the 16 KiB the client reads/)
    const lie = await oneRequest(hostile.baseUrls['length-lie'])
    expect(lie.error?.code).toBe('CRMCONF_NETWORK')
    expect(lie.error?.message).toMatch(/Content-Length|closed the connection before the answer was complete/)
  })

  test('https:// to a plain-HTTP port, and a self-signed certificate: one line each, with the fix', async () => {
    // The reference server itself: a plain HTTP server that answers a TLS hello with an HTTP 400, as most do.
    const plain = await oneRequest(hostile.referenceBaseUrl.replace(/^http:/, 'https:'))
    expect(plain.error?.message).toMatch(/^127\.0\.0\.1:\d+ does not speak TLS on that port: use http:\/\/ or the TLS port/)
    expect(plain.error?.message).not.toMatch(/\n|openssl|ssl3_get_record/)

    const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], { keySize: 2048, algorithm: 'sha256' })
    const tlsServer = createHttpsServer({ key: pems.private, cert: pems.cert }, (_req, res) => res.end('{}'))
    await new Promise<void>((resolveListen) => tlsServer.listen(0, '127.0.0.1', () => resolveListen()))
    try {
      const selfSigned = await oneRequest(`https://127.0.0.1:${(tlsServer.address() as AddressInfo).port}/v1`)
      expect(selfSigned.error?.message).toMatch(/not signed by a CA this machine trusts .*: set NODE_EXTRA_CA_CERTS to the CA's PEM file/)
    } finally {
      await new Promise<void>((resolveClose) => tlsServer.close(() => resolveClose()))
    }
  })

  test('the CLI pointed with https:// at a plain-HTTP port stops at start-up with that one line (exit 2)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crmconf-hostile-tls-'))
    try {
      const env = baseEnv({ ...targetEnv(hostile.referenceBaseUrl.replace(/^http:/, 'https:'), { keys: { main: hostile.reference.keys.main } }) })
      const run = await runCli(['run', '--report-dir', join(dir, 'report'), '--quiet'], { cwd: dir, env, hardLimitMs: 60_000 })
      const output = run.stdout + run.stderr
      expect(run.code, output).toBe(2)
      const line = output.split('\n').find((l) => l.includes('does not speak TLS'))
      expect(line, output).toMatch(/does not speak TLS on that port: use http:\/\/ or the TLS port/)
      expect(output).not.toMatch(/ssl3_get_record|deps\/openssl/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 90_000)
})
