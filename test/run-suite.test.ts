// The one run path (src/run/run-suite.ts) ends well whatever happens: the run's bound (CRM_RUN_TIMEOUT_S),
// an exception mid-run, a server that echoes a secret in a form redaction does not know. Each time every
// report file is written, with the transport's real request count, and the run cleans up.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { CheckDefinition } from '../src/checks/types.ts'
import { loadConfig, type ResolvedConfig } from '../src/config/config.ts'
import { REPORT_FILES } from '../src/report/write.ts'
import { runSuite, type RunSuiteOptions } from '../src/run/run-suite.ts'

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'crmconf-run-suite-'))
})
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
})

const config: ResolvedConfig = loadConfig({}, { profile: 'full', seed: 7, envFile: false })

function check(id: string, run: CheckDefinition['run'], extra: Partial<CheckDefinition> = {}): CheckDefinition {
  return { id: `probe.${id}`, area: 'probe', clauses: ['§4.2'], level: 'MUST', title: `does ${id}`, run, ...extra }
}

/** A check that makes a record (journalled for clean-up), then keeps going for `ms`. */
const creates =
  (ms: number): CheckDefinition['run'] =>
  async (ctx) => {
    const created = await ctx.api.post('/accounts', { name: `crmconf run-suite ${ctx.runId}`, tags: [] })
    if (created.status !== 201) ctx.fail(`create answered ${created.status}`)
    ctx.session.ledger.track({ resource: 'account', id: String(created.body.id), deletePath: `/accounts/${created.body.id}`, checkId: ctx.runId })
    await new Promise((resolve) => setTimeout(resolve, ms))
  }

function options(name: string, catalogue: CheckDefinition[], extra: Partial<RunSuiteOptions> = {}): RunSuiteOptions {
  return {
    config,
    catalogue,
    runId: `20200101-000000-${name}`,
    reportDir: join(dir, name),
    embedded: { rateLimitPerMinute: 1_000_000 },
    concurrency: 1,
    ...extra,
  }
}

function files(name: string): string[] {
  return REPORT_FILES.filter((file) => existsSync(join(dir, name, file)))
}

test('the run bound: no check starts past it, the running one ends as error naming CRM_RUN_TIMEOUT_S, clean-up runs, reports are written', async () => {
  const catalogue = [
    // The longest deadline starts first (startOrder), so the slow check is the one running at the bound.
    check('slow', creates(5_000), { timeoutMs: 60_000 }),
    check('fast-1', async (ctx) => void (await ctx.api.get('/me'))),
    check('fast-2', async (ctx) => void (await ctx.api.get('/me'))),
  ]
  const outcome = await runSuite(options('bound', catalogue, { runTimeoutMs: 1_000 }))
  const byId = new Map(outcome.report.checks.map((c) => [c.id, c]))
  expect(byId.get('probe.slow')).toMatchObject({ status: 'error' })
  expect(byId.get('probe.slow')!.message).toContain('CRM_RUN_TIMEOUT_S')
  for (const id of ['probe.fast-1', 'probe.fast-2'])
    expect(byId.get(id)).toMatchObject({ status: 'skipped', message: 'not run: the run reached its bound of 1 s (CRM_RUN_TIMEOUT_S)' })
  expect(outcome.report.interrupted?.reason).toBe('the run reached its bound of 1 s (CRM_RUN_TIMEOUT_S)')
  expect(outcome.exitCode).toBe(1)
  // Clean-up ran: the record the slow check made is gone, and its DELETE is counted.
  expect(outcome.leftovers).toEqual([])
  expect(outcome.session!.ledger.pending()).toEqual([])
  expect(outcome.report.requests.byArea.cleanup).toBe(1)
  expect(outcome.report.requests.total).toBe(outcome.session!.transport.stats.total)
  expect(files('bound')).toEqual([...REPORT_FILES])
  expect(readFileSync(join(dir, 'bound', 'summary.md'), 'utf8')).toContain('CRM_RUN_TIMEOUT_S')
}, 60_000)

test('an exception mid-run: the report is still written, every check has a row, the run says it could not judge', async () => {
  const catalogue = [
    check('one', creates(0)),
    check('two', async (ctx) => void (await ctx.api.get('/me'))),
    check('three', async (ctx) => void (await ctx.api.get('/me'))),
  ]
  let seen = 0
  const outcome = await runSuite(
    options('thrown', catalogue, {
      onResult: () => {
        if (++seen === 2) throw new Error('a bug of ours')
      },
    }),
  )
  expect(outcome.harnessError).toContain('a bug of ours')
  expect(outcome.report.checks.map((c) => c.id)).toEqual(catalogue.map((c) => c.id))
  expect(outcome.report.checks.every((c) => c.status === 'error')).toBe(true)
  expect(outcome.report.verdict).toBe('partial')
  expect(outcome.exitCode).toBe(1)
  expect(outcome.report.requests.total).toBeGreaterThan(0)
  expect(outcome.session!.ledger.pending()).toEqual([])
  expect(files('thrown')).toEqual([...REPORT_FILES])
}, 60_000)

test('a secret echoed in a form redaction misses is masked and recorded, and the report is written (never exit 2)', async () => {
  const catalogue = [
    check('echo', async (ctx) => {
      // As a server echoing the key URL-encoded in a Location header would land in the report.
      ctx.observe('location', `https://x.test/cb?key=${encodeURIComponent(ctx.config.keys.main!)}%2F`)
    }),
  ]
  const outcome = await runSuite(options('leak', catalogue))
  expect(outcome.exitCode).toBe(0)
  expect(outcome.masked.map((m) => m.secret)).toEqual(['CRM_API_KEY'])
  expect(files('leak')).toEqual([...REPORT_FILES])
  const text = readFileSync(join(dir, 'leak', 'report.json'), 'utf8')
  expect(JSON.parse(text).secretsMasked).toEqual(outcome.masked)
  const key = outcome.session!.config.keys.main!
  for (const name of REPORT_FILES) {
    const written = readFileSync(join(dir, 'leak', name), 'utf8')
    expect(written, name).not.toContain(key)
    expect(written, name).not.toContain(encodeURIComponent(key))
  }
}, 60_000)
