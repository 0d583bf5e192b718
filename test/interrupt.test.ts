// Safe on shared systems: a run removes what it created, also when it is interrupted (SIGINT, SIGTERM), and
// `sweep` removes what crashed runs left behind, and nothing else. Against `crm-conformance serve` in a child
// process, as a user would run it, with the keys from the .env block it prints.
import type { ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { runInProcess } from '../src/run/in-process.ts'
import { walkAllPages } from '../src/checks/operations.ts'
import { RUN_TAG_PREFIX } from '../src/engine/session.ts'
import { ApiClient } from '../src/http/api-client.ts'
import { Redactor } from '../src/http/redact.ts'
import { Transport } from '../src/http/transport.ts'
import { startReferenceServer } from '../src/reference/index.ts'
import { RESOURCE_LIST, type ResourceName } from '../src/spec/resources.ts'
import { catalogue } from '../suites/index.ts'
import { baseEnv, runCli, startCli, startServe, stopServe } from './hostile/cli.ts'

/** Collections a run can clean: those with a delete (§4.2). Records elsewhere are listed as leftovers instead. */
const DELETABLE = RESOURCE_LIST.filter((r) => r.ops.delete)

let serve: ChildProcess
let env: Record<string, string>
let transport: Transport
let client: ApiClient
let dir: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crmconf-interrupt-'))
  // Port 0: the machine may be shared; the printed .env block says where it listens.
  const served = await startServe(['--port', '0'], dir)
  serve = served.child
  env = served.env
  expect(env.CRM_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/)
  const listing = clientFor(env.CRM_BASE_URL!, env.CRM_API_KEY!)
  transport = listing.transport
  client = listing.client
})

afterAll(async () => {
  await transport?.close()
  await stopServe(serve)
  if (dir) rmSync(dir, { recursive: true, force: true })
})

interface Listed {
  resource: ResourceName
  id: string
  tags: string[]
}

function clientFor(baseUrl: string, key: string): { client: ApiClient; transport: Transport } {
  const transport = new Transport({
    baseUrl,
    keys: { main: key },
    redactor: new Redactor(),
    timeoutMs: 10_000,
    maxResponseBytes: 16 * 1024 * 1024,
    concurrency: 4,
    requestBudget: 100_000,
    maxRetryAfterS: 90,
  })
  return { transport, client: new ApiClient(transport, 'main', () => {}) }
}

/** Every record of every deletable collection, as the main key sees it. */
async function listDeletable(through: ApiClient = client): Promise<Listed[]> {
  const all: Listed[] = []
  for (const spec of DELETABLE) {
    const { records } = await walkAllPages(through, spec.path, { limit: 100 }, 1_000)
    for (const record of records) all.push({ resource: spec.name, id: String(record.id), tags: Array.isArray(record.tags) ? record.tags : [] })
  }
  return all
}

/** The run's environment: the target, the keys and fixtures of the .env block (no webhook secret: no sink). */
function runEnv(): NodeJS.ProcessEnv {
  const { CRM_WEBHOOK_SECRET: _secret, ...target } = env
  return baseEnv(target)
}

function journalAdds(journal: string): number {
  if (!existsSync(journal)) return 0
  return readFileSync(journal, 'utf8')
    .split('\n')
    .filter((line) => line.includes('"op":"add"')).length
}

async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (condition()) return true
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return condition()
}

describe('records a run creates are removed', () => {
  test('a run that spends its request budget stops there, and still removes what it created', async () => {
    const before = new Set((await listDeletable()).map((r) => r.id))
    const run = await runInProcess({
      checks: catalogue,
      profile: 'safe',
      config: { baseUrl: env.CRM_BASE_URL, keys: { main: env.CRM_API_KEY }, webhookSecret: undefined, requestBudget: 150 },
      runId: '20200101-000000-b0d6e7',
    })
    const stats = run.session.transport.stats
    expect(run.results.some((r) => r.status === 'error' && r.message.startsWith('CRMCONF_BUDGET_EXHAUSTED'))).toBe(true)
    // Only the clean-up went past the budget, and it removed everything.
    const beyond = run.session.exchanges.slice(150)
    expect(beyond.length).toBeGreaterThan(0)
    expect(beyond.every((e) => e.checkId === 'cleanup' && e.request.method === 'DELETE')).toBe(true)
    expect(stats.total).toBe(run.session.exchanges.length)
    expect(run.leftovers).toEqual([])
    expect((await listDeletable()).filter((r) => !before.has(r.id))).toEqual([])
  }, 150_000)

  test('a complete run leaves no record behind in any collection with a delete', async () => {
    // Its own reference server, with a limit that needs no pacing (the rate-limit-600 test covers pacing).
    const server = await startReferenceServer({ rateLimitPerMinute: 1_000_000 })
    const own = clientFor(server.baseUrl, server.keys.main)
    try {
      const before = new Set((await listDeletable(own.client)).map((r) => r.id))
      const run = await runInProcess({
        checks: catalogue,
        profile: 'safe',
        config: { baseUrl: server.baseUrl, keys: server.keys, restrictedScopes: server.restrictedScopes, webhookSecret: undefined },
        runId: '20200101-000000-c0ffee',
      })
      expect(run.results.filter((r) => r.status === 'passed').length).toBeGreaterThan(catalogue.length / 2)
      expect(run.session.ledger.pending()).toEqual([])
      expect(run.leftovers).toEqual([])
      const after = await listDeletable(own.client)
      expect(after.filter((r) => r.tags.some((t) => t.startsWith(`${RUN_TAG_PREFIX}20200101-000000-c0ffee`)))).toEqual([])
      expect(after.filter((r) => !before.has(r.id))).toEqual([])
    } finally {
      await own.transport.close()
      await server.close()
    }
  }, 200_000)

  test.each(['SIGINT', 'SIGTERM'] as const)(
    '%s mid-run: the run stops, cleans up, writes its report marked interrupted, exits 130',
    async (signal) => {
      const before = new Set((await listDeletable()).map((r) => r.id))
      const reportDir = join(dir, `report-${signal}`)
      const journal = join(reportDir, '.journal', 'ledger.jsonl')
      const cli = startCli(['run', '--report-dir', reportDir, '--no-sweep'], { cwd: dir, env: runEnv(), hardLimitMs: 120_000 })
      // Mid-run: once the run has created records and before it ends.
      const started = await until(() => journalAdds(journal) >= 10 || cli.child.exitCode !== null, 90_000)
      expect(started && cli.child.exitCode === null, `the run ended before it could be interrupted:\n${cli.output().slice(-2000)}`).toBe(true)
      const signalledAt = Date.now()
      cli.child.kill(signal)
      const result = await cli.done
      const stoppedInMs = Date.now() - signalledAt
      expect(result.hung, result.stdout.slice(-2000)).toBe(false)
      // An interrupted run is not a verdict: exit 130 (128 + SIGINT, what a shell expects), its report written.
      expect(result.code, result.stdout.slice(-2000) + result.stderr.slice(-2000)).toBe(130)
      expect(result.stdout).toMatch(/interrupted \(SIG(INT|TERM)\): stopping the checks, writing the report, then cleaning up/)
      const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8'))
      expect(report.interrupted.reason).toBe(`the run was interrupted (${signal})`)
      // The checks it never reached are listed as not run, so a run stopped half-way never reads compliant.
      expect(report.checks.filter((c: { message: string }) => c.message === `not run: the run was interrupted (${signal})`).length).toBeGreaterThan(0)
      expect(report.verdict).not.toBe('compliant')
      expect(report.leftovers).toEqual([])
      // The real request count, the clean-up's DELETEs included, in the report and in what was printed.
      expect(report.requests.total).toBeGreaterThan(10)
      expect(report.requests.byArea.cleanup).toBeGreaterThan(0)
      expect(result.stdout).toContain(`(${report.requests.total} requests in `)
      for (const name of ['report.html', 'summary.md', 'badge.json', 'junit.xml']) expect(existsSync(join(reportDir, name)), name).toBe(true)
      expect(readFileSync(join(reportDir, 'summary.md'), 'utf8')).toContain('**Interrupted**')
      // Within the run's own bounds: in-flight requests drain (at most 4 s), then clean-up on loopback.
      expect(stoppedInMs).toBeLessThan(20_000)

      const after = await listDeletable()
      const tag = `${RUN_TAG_PREFIX}${report.runId}`
      expect(after.filter((r) => r.tags.includes(tag))).toEqual([])
      expect(after.filter((r) => !before.has(r.id))).toEqual([])
    },
    150_000,
  )

  test('a second Ctrl-C ends the clean-up at once with 130, keeps the report files, names what may be left and the sweep command that removes it', async () => {
    const before = new Set((await listDeletable()).map((r) => r.id))
    const reportDir = join(dir, 'report-twice')
    const journal = join(reportDir, '.journal', 'ledger.jsonl')
    const cli = startCli(['run', '--report-dir', reportDir, '--no-sweep'], { cwd: dir, env: runEnv(), hardLimitMs: 120_000 })
    const started = await until(() => journalAdds(journal) >= 10 || cli.child.exitCode !== null, 90_000)
    expect(started && cli.child.exitCode === null, cli.output().slice(-2000)).toBe(true)
    cli.child.kill('SIGINT')
    await until(() => cli.output().includes('stopping the checks'), 5_000)
    cli.child.kill('SIGINT')
    const result = await cli.done
    expect(result.code, result.stdout.slice(-2000) + result.stderr.slice(-2000)).toBe(130)
    // The report files are kept, marked interrupted.
    for (const name of ['report.json', 'report.html', 'summary.md', 'badge.json', 'junit.xml']) expect(existsSync(join(reportDir, name)), name).toBe(true)
    expect(JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')).interrupted.reason).toBe('the run was interrupted (SIGINT)')
    const command = /remove them with: (crm-conformance sweep --run \S+)/.exec(result.stdout)?.[1]
    expect(command, result.stdout.slice(-2000)).toBeDefined()
    // The printed command removes what the abandoned run left, and nothing else.
    const sweepRun = await runCli(command!.split(' ').slice(1), {
      cwd: dir,
      env: baseEnv({ CRM_BASE_URL: env.CRM_BASE_URL, CRM_API_KEY: env.CRM_API_KEY }),
      hardLimitMs: 60_000,
    })
    expect(sweepRun.code, sweepRun.stdout + sweepRun.stderr).toBe(0)
    expect((await listDeletable()).filter((r) => !before.has(r.id))).toEqual([])
  }, 150_000)
})

describe('sweep: what crashed runs left behind', () => {
  /** A run id as newRunId makes it, for a run that started `ageMs` ago. */
  const runIdAged = (ageMs: number, suffix: string) =>
    `${new Date(Date.now() - ageMs).toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-')}-${suffix}`

  async function create(path: string, body: Record<string, unknown>): Promise<string> {
    const response = await client.post(path, body)
    expect(response.status, JSON.stringify(response.body)).toBeLessThan(300)
    return String(response.body.id)
  }

  async function exists(path: string, id: string): Promise<boolean> {
    const response = await client.get(`${path}/${id}`)
    expect([200, 404]).toContain(response.status)
    return response.status === 200
  }

  test('removes the records of runs older than the threshold, by run tag or run label, and nothing else', async () => {
    const crashed = runIdAged(3 * 86_400_000, 'dead01')
    const recent = runIdAged(60_000, 'a11ve0')
    const swept = [
      { path: '/accounts', id: await create('/accounts', { name: 'crashed run account', tags: [`${RUN_TAG_PREFIX}${crashed}`] }) },
      { path: '/contacts', id: await create('/contacts', { fullName: 'crashed run contact', tags: ['vip', `${RUN_TAG_PREFIX}${crashed}`] }) },
      // Leads have no tags: the run label in the name marks them.
      { path: '/leads', id: await create('/leads', { fullName: `crmconf lead ${crashed} x1`, source: 'web_form' }) },
    ]
    const kept = [
      // A run that may still be going on elsewhere (younger than --older-than).
      { path: '/accounts', id: await create('/accounts', { name: 'recent run account', tags: [`${RUN_TAG_PREFIX}${recent}`] }) },
      // Tags that only look like ours: no run id with its time, or not at the start.
      { path: '/accounts', id: await create('/accounts', { name: 'manual tag', tags: [`${RUN_TAG_PREFIX}manual`] }) },
      { path: '/accounts', id: await create('/accounts', { name: 'foreign tag', tags: [`other-${RUN_TAG_PREFIX}${crashed}`] }) },
      { path: '/leads', id: await create('/leads', { fullName: `Customer mentions crmconf lead ${crashed}`, source: 'web_form' }) },
      // A customer's own record.
      { path: '/contacts', id: await create('/contacts', { fullName: 'A customer' }) },
    ]
    const before = (await listDeletable()).length
    const sweepEnv = baseEnv({ CRM_BASE_URL: env.CRM_BASE_URL, CRM_API_KEY: env.CRM_API_KEY })

    const dry = await runCli(['sweep', '--older-than', '6h', '--dry-run'], { cwd: dir, env: sweepEnv, hardLimitMs: 60_000 })
    expect(dry.code, dry.stdout + dry.stderr).toBe(0)
    for (const { id } of swept) expect(dry.stdout).toMatch(new RegExp(`would remove \\w+ ${id} \\(run ${crashed}\\)`))
    expect((await listDeletable()).length).toBe(before)

    const run = await runCli(['sweep', '--older-than', '6h'], { cwd: dir, env: sweepEnv, hardLimitMs: 60_000 })
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(run.stdout).toMatch(new RegExp(`, ${swept.length} removed, 0 failed`))
    for (const { path, id } of swept) expect(await exists(path, id), `${path}/${id} was not swept`).toBe(false)
    for (const { path, id } of kept) expect(await exists(path, id), `${path}/${id} was swept`).toBe(true)
    expect((await listDeletable()).length).toBe(before - swept.length)

    for (const { path, id } of kept) await client.delete(`${path}/${id}`)
  }, 120_000)

  test('a run sweeps before it starts, unless --no-sweep', async () => {
    const crashed = runIdAged(86_400_000, 'dead02')
    const id = await create('/accounts', { name: 'crashed run account', tags: [`${RUN_TAG_PREFIX}${crashed}`] })
    const args = (...extra: string[]) => ['run', '--only', 'discovery.me.answers', '--report-dir', join(dir, `sweep-${extra.length}`), '--quiet', ...extra]

    const unswept = await runCli(args('--no-sweep'), { cwd: dir, env: runEnv(), hardLimitMs: 90_000 })
    expect(unswept.code, unswept.stdout + unswept.stderr).toBe(0)
    expect(unswept.stdout).not.toMatch(/swept/)
    expect(await exists('/accounts', id)).toBe(true)

    const swept = await runCli(args(), { cwd: dir, env: runEnv(), hardLimitMs: 90_000 })
    expect(swept.code, swept.stdout + swept.stderr).toBe(0)
    expect(swept.stdout).toMatch(/swept 1 record left by earlier runs/)
    expect(await exists('/accounts', id)).toBe(false)
  }, 200_000)
})
