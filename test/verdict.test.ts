// Never green for nothing (issue 17, items 2-4): a selection that selects nothing, a run in which no check
// reached the server, the embedded server tested by accident (CI, a key or a misspelt variable without
// CRM_BASE_URL) and a refused main key all stop with exit 2 and a line that says what to do; an optional key
// that answers contrary to its role is a warning at start and a note on its checks, never a verdict.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { catalogue } from '../suites/index.ts'
import { runCommand } from '../src/cli/run-command.ts'
import { startReferenceServer, type ReferenceServer } from '../src/reference/index.ts'
import type { RunReport } from '../src/report/types.ts'
import { baseEnv, runCli, type CliRun } from './hostile/cli.ts'

let dir: string
let server: ReferenceServer
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crmconf-verdict-'))
  server = await startReferenceServer({ rateLimitPerMinute: 1_000_000 })
})
afterAll(async () => {
  await server?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

const cli = (args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> => runCli(args, { cwd: dir, env: baseEnv(env), hardLimitMs: 120_000 })
const output = (run: CliRun) => run.stdout + run.stderr

/** runCommand in this process, for the refusals that stop before any suite runs: no child to start. */
async function refused(options: Parameters<typeof runCommand>[0]): Promise<CliRun> {
  let stdout = ''
  const outcome = await runCommand({ reportDir: join(dir, 'never'), ...options, env: options.env ?? {}, write: (text) => (stdout += text) })
  return { code: outcome.exitCode, signal: null, stdout, stderr: '', hung: false }
}

describe('a selection that selects nothing: exit 2 with the nearest terms', () => {
  test('--only pagnation --only §99, from the command line', async () => {
    const run = await cli(['run', '--only', 'pagnation', '--only', '§99', '--report-dir', join(dir, 'never')])
    expect(run.code, output(run)).toBe(2)
    expect(output(run)).toContain('--only pagnation selects no check: did you mean pagination?')
    expect(output(run)).toMatch(/--only §99 selects no check: did you mean §9\b/)
  })

  test('a profile that leaves out every selected check', async () => {
    const fullOnly = catalogue.find((c) => c.writes === 'full')!
    const run = await refused({ profile: 'read-only', only: [fullOnly.id] })
    expect(run.code, output(run)).toBe(2)
    expect(run.stdout).toContain('the read-only profile leaves out every selected check (1: needs the full profile')
  })
})

describe('the embedded server is chosen on purpose', () => {
  test.each([
    { env: { CI: 'true' }, message: 'CI is set and CRM_BASE_URL is not: set CRM_BASE_URL (and CRM_API_KEY) to test your server, or pass --embedded' },
    { env: { CRM_API_KEY: 'crm_ws_x_0123456789abcdef' }, message: 'CRM_API_KEY is set but CRM_BASE_URL is not' },
    {
      env: { CRM_BASEURL: 'http://127.0.0.1:9/v1', CRM_APIKEY: 'crm_ws_x_0123456789abcdef' },
      message: 'warning: CRM_APIKEY is not a variable crm-conformance reads: did you mean CRM_API_KEY?',
    },
  ])('$env: refused, exit 2', async ({ env, message }) => {
    const run = await refused({ env })
    expect(run.code, output(run)).toBe(2)
    expect(run.stdout).toContain(message)
    expect(run.stdout).not.toContain('crm_ws_x_0123456789abcdef')
  })

  test('--embedded in CI, from the command line: the reference server on purpose (here stopped by a typo before it starts)', async () => {
    const run = await cli(['run', '--embedded', '--only', 'pagnation'], { CI: 'true' })
    expect(output(run)).toContain('--embedded: testing the embedded reference server')
    expect(run.code, output(run)).toBe(2)
  })
})

describe('credentials checked before the run, against a reference server started on its own', () => {
  const env = (extra: NodeJS.ProcessEnv = {}) => ({ CRM_BASE_URL: server.baseUrl, CRM_API_KEY: server.keys.main, CRM_REQUEST_TIMEOUT_MS: '5000', ...extra })

  test('a wrong CRM_API_KEY: exit 2 and one line naming it, never a verdict', async () => {
    const run = await cli(['run', '--report-dir', join(dir, 'wrong-key'), '--no-sweep'], env({ CRM_API_KEY: `${server.keys.main}-wrong` }))
    expect(run.code, output(run)).toBe(2)
    expect(output(run)).toMatch(/^CRM_API_KEY was refused: GET \/me answered 401 at http:\/\/127\.0\.0\.1:\d+\/v1; set CRM_API_KEY to a valid key/m)
    expect(output(run)).not.toMatch(/COMPLIANT|PARTIAL/)
    expect(output(run)).not.toContain(server.keys.main)
  })

  test('no check reached the server (its key is unset): exit 2, and the report says nothing was tested', async () => {
    const reportDir = join(dir, 'nothing')
    const run = await cli(['run', '--only', 'auth.ip-blocked.refused', '--report-dir', reportDir, '--no-sweep', '--quiet'], env())
    expect(run.code, output(run)).toBe(2)
    expect(run.stdout).toContain('nothing was tested: all 1 checks were skipped (CRM_API_KEY_IP_BLOCKED is not set)')
    const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as RunReport
    expect(report.verdict).toBe('partial')
    expect(report.verdictLabel).toBe('partial (nothing tested: none of 1 checks reached the server)')
  })

  test('an IP-blocked key that is not blocked: a warning at start and a note on its check', async () => {
    const reportDir = join(dir, 'not-blocked')
    const run = await cli(
      ['run', '--only', 'auth.ip-blocked.refused', '--report-dir', reportDir, '--no-sweep', '--quiet'],
      env({ CRM_API_KEY_IP_BLOCKED: server.keys.restricted }),
    )
    expect(run.stdout).toContain('configuration warning: CRM_API_KEY_IP_BLOCKED is accepted from this machine (GET /me answered 200)')
    expect(run.code, output(run)).toBe(1)
    const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as RunReport
    const row = report.checks.find((c) => c.id === 'auth.ip-blocked.refused')!
    expect(row.status).toBe('failed')
    expect(row.notes).toContainEqual(expect.stringMatching(/^configuration warning: CRM_API_KEY_IP_BLOCKED is accepted from this machine/))
    expect(report.verdictLabel).toMatch(/^non-compliant \(subset, safe profile: 1 of \d+ checks\)$/)
  })
})
