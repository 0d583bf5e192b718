// The command line as CI systems and people meet it: --help for every command, unknown flags and bad values
// refused with a clear message and exit 2, the documented exit codes (README, "Exit codes"), junit.xml with
// one test case per check and the clause in its name (and no test case that is not a check), summary.md for a pull request, requests per area in the report, and a failure's
// replay command that re-runs that check alone to the same verdict.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { spawnSync } from 'node:child_process'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { CheckResult } from '../src/checks/types.ts'
import { buildProgram } from '../src/cli/main.ts'
import { KEY_VARIABLES } from '../src/config/config.ts'
import type { RunReport } from '../src/report/types.ts'
import { parse as parseYaml } from 'yaml'
import { ROOT, baseEnv, runCli, type CliRun } from './hostile/cli.ts'
import { faultCaughtBy } from './hostile/faults.ts'

const COMMANDS = buildProgram(() => {}).commands.map((c) => ({ name: c.name(), options: c.options.filter((o) => !o.hidden).map((o) => o.long!) }))

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'crmconf-cli-'))
})
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
})

const cli = (args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> => runCli(args, { cwd: dir, env: baseEnv(env), hardLimitMs: 120_000 })

function readReport(reportDir: string): RunReport {
  return JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as RunReport
}

describe('--help, unknown flags and bad values', () => {
  test('there are commands to test', () => {
    expect(COMMANDS.map((c) => c.name)).toEqual(expect.arrayContaining(['run', 'list', 'serve', 'sink', 'sweep', 'openapi']))
  })

  test('crm-conformance --help lists every command', async () => {
    const run = await cli(['--help'])
    expect(run.code).toBe(0)
    for (const { name } of COMMANDS) expect(run.stdout).toMatch(new RegExp(`^\\s+${name}\\b`, 'm'))
  })

  test.each(COMMANDS)('$name --help: usage and every option, exit 0', async ({ name, options }) => {
    const [byFlag, byHelp] = await Promise.all([cli([name, '--help']), cli(['help', name])])
    for (const run of [byFlag, byHelp]) {
      expect(run.code, run.stderr).toBe(0)
      expect(run.stdout).toContain(`Usage: crm-conformance ${name}`)
      for (const option of options) expect(run.stdout).toContain(option)
      expect(run.stdout).not.toMatch(/\(default [^)]*\) \(default:/)
    }
  })

  test.each(COMMANDS)('$name --no-such-flag: refused, named, exit 2', async ({ name }) => {
    const run = await cli([name, '--no-such-flag'])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain("unknown option '--no-such-flag'")
  })

  test.each([
    { args: ['run', '--seed', 'abc'], message: '--seed must be an integer from 0 to 2147483647' },
    { args: ['run', '--seed', '-1'], message: '--seed must be an integer' },
    { args: ['run', '--profile', 'everything'], message: 'Allowed choices are full, safe, read-only' },
    { args: ['run', '--rate-limit', '0'], message: '--rate-limit must be an integer from 1' },
    { args: ['run', 'extra'], message: 'too many arguments' },
    { args: ['run', '--only'], message: "option '--only <ids>' argument missing" },
    { args: ['serve', '--port', '70000'], message: '--port must be an integer from 0 to 65535' },
    { args: ['sweep', '--older-than', 'yesterday'], message: 'not a duration: yesterday' },
    { args: ['sink', '--tls', 'homemade'], message: 'Allowed choices are self-signed' },
    { args: ['verify-submission'], message: "missing required argument 'dir'" },
    { args: ['certfy'], message: "unknown command 'certfy'" },
  ])('$args: refused with "$message", exit 2', async ({ args, message }) => {
    const run = await cli(args)
    expect(run.code, run.stdout + run.stderr).toBe(2)
    expect(run.stdout + run.stderr).toContain(message)
  })

  test.each([
    { env: { CRM_BASE_URL: 'not a url', CRM_API_KEY: 'crm_ws_x_0123456789abcdef' }, message: 'CRM_BASE_URL is not a URL' },
    { env: { CRM_BASE_URL: 'https://crm.example.test/v2', CRM_API_KEY: 'crm_ws_x_0123456789abcdef' }, message: 'must end with the version segment /v1' },
    { env: { CRM_BASE_URL: 'https://crm.example.test/v1' }, message: 'CRM_API_KEY is required with CRM_BASE_URL' },
    { env: { CRM_REQUEST_TIMEOUT_MS: '5' }, message: 'CRM_REQUEST_TIMEOUT_MS must be an integer from 100' },
    { env: { CRM_PROFILE: 'everything' }, message: 'profile must be one of full, safe, read-only' },
    { env: { CRM_WEBHOOK_SECRET: 'not-a-secret' }, message: 'CRM_WEBHOOK_SECRET must be whsec_' },
  ])('bad configuration $message: the run does not start, exit 2', async ({ env, message }) => {
    const run = await cli(['run', '--report-dir', join(dir, 'never')], env)
    expect(run.code, run.stdout + run.stderr).toBe(2)
    expect(run.stdout + run.stderr).toContain(message)
  })

  test('an unreachable target: the run does not start, exit 2', async () => {
    // Port 9 (discard) on the loopback: nothing listens there.
    const run = await cli(['run', '--report-dir', join(dir, 'unreachable')], {
      CRM_BASE_URL: 'http://127.0.0.1:9/v1',
      CRM_API_KEY: 'crm_ws_x_0123456789abcdef',
      CRM_REQUEST_TIMEOUT_MS: '2000',
    })
    expect(run.code, run.stdout + run.stderr).toBe(2)
    expect(run.stderr).toContain('CRMCONF_TARGET_UNREACHABLE')
  })
})

describe('exit codes, junit.xml, summary.md and the replay command of a failure', () => {
  const must = faultCaughtBy('MUST')
  const should = faultCaughtBy('SHOULD', { only: true })

  test('a MUST failure: exit 1; junit, summary and report say which check, clause and how to replay it', async () => {
    const reportDir = join(dir, 'must')
    const run = await cli([
      'run',
      '--fault',
      must.fault,
      '--only',
      [...must.checks, 'discovery'].join(','),
      '--profile',
      'safe',
      '--seed',
      '99',
      '--report-dir',
      reportDir,
      '--quiet',
    ])
    expect(run.code, run.stdout + run.stderr).toBe(1)
    const report = readReport(reportDir)
    expect(report.verdict).toBe('non-compliant')
    const failed = report.checks.filter((c) => c.status === 'failed')
    expect(failed.length).toBeGreaterThan(0)
    // Every check that catches the fault failed, unless the safe profile kept it from running.
    for (const check of report.checks.filter((c) => must.checks.includes(c.id) && c.status !== 'skipped')) expect(check.status, check.id).toBe('failed')

    // junit.xml: one test case per check, named with its id, level and clauses; a failure element for each failure.
    const junit = readFileSync(join(reportDir, 'junit.xml'), 'utf8')
    const cases = [...junit.matchAll(/<testcase [^>]*?\bname="([^"]*)"[^>]*[^/]>([\s\S]*?)<\/testcase>|<testcase [^>]*?\bname="([^"]*)"[^>]*\/>/g)]
    // Nothing but the checks: no harness test, no placeholder for a suite file the selection leaves empty.
    expect(cases.map((m) => (m[1] ?? m[3])!).filter((name) => !report.checks.some((c) => name.startsWith(`${c.id} [`)))).toEqual([])
    expect(cases.length).toBe(report.checks.length)
    for (const check of report.checks) {
      const found = cases.find((m) => (m[1] ?? m[3])!.startsWith(`${check.id} [`))
      expect(found, `${check.id} has no test case`).toBeDefined()
      const name = (found![1] ?? found![3])!
      expect(name).toContain(`[${check.level} ${check.clauses.join(' ')}]`)
      if (check.status === 'failed') expect(found![2]).toMatch(/<failure /)
    }
    const errored = report.checks.filter((c) => c.status === 'error').length
    expect(junit).toMatch(new RegExp(`<testsuites [^>]*tests="${report.checks.length}" failures="${failed.length}" errors="${errored}"`))

    // summary.md: the verdict first, each failed check with its clause and the command that replays it.
    const summary = readFileSync(join(reportDir, 'summary.md'), 'utf8')
    expect(summary.split('\n')[0]).toMatch(/non-compliant/)
    for (const check of failed) {
      const row = summary.split('\n').find((line) => line.includes(`\`${check.id}\``))
      expect(row, `${check.id} is not in summary.md`).toBeDefined()
      expect(row).toContain(check.clause)
      expect(row).toContain(`--only ${check.id} --seed 99 --profile safe`)
    }
    expect(Buffer.byteLength(summary)).toBeLessThan(65_536)

    // Requests per area, in report.json and report.html.
    expect(Object.keys(report.requests.byArea)).toEqual(expect.arrayContaining(['records', 'discovery']))
    expect(readFileSync(join(reportDir, 'report.html'), 'utf8')).toContain('data-testid="requests"')
    expect(JSON.parse(readFileSync(join(reportDir, 'badge.json'), 'utf8'))).toMatchObject({ schemaVersion: 1 })

    // The replay command, as printed, re-runs that one check alone to the same verdict.
    const check = failed[0]!
    const replay = await replayOf(check, join(dir, 'replay'))
    expect(replay.run.code, replay.run.stdout + replay.run.stderr).toBe(1)
    expect(replay.report.checks.map((c) => c.id)).toEqual([check.id])
    expect(replay.report.checks[0]).toMatchObject({ status: 'failed', message: check.message })
  })

  test('a SHOULD failure alone: exit 0, and exit 1 with --strict', async () => {
    const args = (name: string, ...extra: string[]) => [
      'run',
      '--fault',
      should.fault,
      '--only',
      should.checks.join(','),
      '--report-dir',
      join(dir, name),
      '--quiet',
      ...extra,
    ]
    const [lenient, strict] = await Promise.all([cli(args('should')), cli(args('should-strict', '--strict'))])
    expect(lenient.code, lenient.stdout + lenient.stderr).toBe(0)
    expect(readReport(join(dir, 'should')).summary.failed).toBeGreaterThan(0)
    expect(strict.code, strict.stdout + strict.stderr).toBe(1)
  })

  test('no MUST check failed: exit 0', async () => {
    const run = await cli(['run', '--only', 'discovery', '--report-dir', join(dir, 'clean'), '--quiet'])
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(readReport(join(dir, 'clean')).verdict).toBe('compliant')
    // A subset is never labelled plain compliant (report.json, badge.json, console).
    expect(readReport(join(dir, 'clean')).verdictLabel).toMatch(/^compliant \(subset: \d+ of \d+ checks\)$/)
    expect(JSON.parse(readFileSync(join(dir, 'clean', 'badge.json'), 'utf8')).message).toMatch(/^compliant \(subset: (\d+) of \d+ checks\) · \1\/\1$/)
    expect(run.stdout).toMatch(/^COMPLIANT \(subset: (\d+) of \d+ checks\): \1 passed/m)
  })
})

/** Runs a check's replay command exactly as the report prints it (`crm-conformance run …`). */
async function replayOf(check: CheckResult, reportDir: string): Promise<{ run: CliRun; report: RunReport }> {
  const words = check.replay.split(/\s+/)
  expect(words.slice(0, 2)).toEqual(['crm-conformance', 'run'])
  const run = await cli([...words.slice(1), '--report-dir', reportDir, '--quiet'])
  return { run, report: readReport(reportDir) }
}

describe('the run needs no test framework', () => {
  test('`run` never loads vitest (nothing of vite is written into the installed package)', async () => {
    // A module hook that refuses any import of vitest; the run would fail if it loaded one.
    const hooks = join(dir, 'no-vitest-hooks.mjs')
    writeFileSync(
      hooks,
      `export async function resolve(specifier, context, next) {\n  if (specifier === 'vitest' || specifier.startsWith('vitest/')) throw new Error('vitest was loaded: ' + specifier)\n  return next(specifier, context)\n}\n`,
    )
    const register = join(dir, 'no-vitest.mjs')
    writeFileSync(register, `import { register } from 'node:module'\nregister(${JSON.stringify(pathToFileURL(hooks).href)})\n`)
    const run = await cli(['run', '--only', 'discovery', '--report-dir', join(dir, 'no-vitest'), '--quiet'], {
      NODE_OPTIONS: `--import ${pathToFileURL(register).href}`,
    })
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(run.stdout + run.stderr).not.toContain('vitest was loaded')
    // The hook is live: an import of vitest under it fails.
    const probe = spawnSync(process.execPath, ['--import', pathToFileURL(register).href, '--input-type=module', '-e', "await import('vitest')"], {
      cwd: ROOT,
      encoding: 'utf8',
    })
    expect(probe.status).not.toBe(0)
    expect(probe.stderr).toContain('vitest was loaded: vitest')
  })
})

describe('examples/: the CI jobs the README links', () => {
  const program = buildProgram(() => {})
  test.each(['github-actions.yml', 'gitlab-ci.yml'])('%s uses only commands, flags and variables the CLI knows', (file) => {
    const text = readFileSync(join(ROOT, 'examples', file), 'utf8')
    expect(text).not.toMatch(/\t/)
    // Linked from the CI guide (docs/ci.md), which the README links.
    expect(readFileSync(join(ROOT, 'docs', 'ci.md'), 'utf8')).toContain(`(../examples/${file})`)
    // Every key the suite reads, from the CI's secret store.
    for (const variable of [...Object.values(KEY_VARIABLES), 'CRM_BASE_URL', 'CRM_WEBHOOK_SECRET']) expect(text, variable).toContain(variable)
    // Through the GitHub Action (action.yml): every input it passes is one the action declares, and the
    // action's own invocation is checked as the examples' are.
    const usesAction = /uses: [\w-]+\/crm-conformance@\S+/.test(text)
    if (usesAction) {
      const declared = Object.keys((parseYaml(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, unknown> }).inputs)
      const step = /uses: [\w-]+\/crm-conformance@\S+\n\s+with:\n((?:\s{10}[^\n]*\n)+)/.exec(text)
      expect(step, 'the step that uses the action has inputs').not.toBeNull()
      for (const [, input] of step![1]!.matchAll(/^\s{10}([\w-]+):/gm)) expect(declared, input).toContain(input)
      const run = program.commands.find((c) => c.name() === 'run')!
      const flags = [...readFileSync(join(ROOT, 'action.yml'), 'utf8').matchAll(/args\+?=\((--[a-z-]+)/g)].map((m) => m[1]!)
      expect(flags.length).toBeGreaterThan(0)
      for (const flag of flags)
        expect(
          run.options.map((o) => o.long),
          flag,
        ).toContain(flag)
    }
    // Every invocation names an existing command and its options.
    const invocations = [...(usesAction ? readFileSync(join(ROOT, 'action.yml'), 'utf8') : text).matchAll(/crm-conformance\.mjs"? "?(\w[\w-]*)([^\n]*)/g)]
    expect(invocations.length).toBeGreaterThan(0)
    for (const [, name, rest] of invocations) {
      const command = program.commands.find((c) => c.name() === name)
      expect(command, name).toBeDefined()
      for (const flag of rest!.match(/--[a-z-]+/g) ?? [])
        expect(
          command!.options.map((o) => o.long),
          `${name} ${flag}`,
        ).toContain(flag)
    }
    // The report files it hands to the CI are the ones a run writes.
    for (const name of text.match(/crm-conformance-report\/[\w.]+/g) ?? []) expect(['junit.xml', 'summary.md']).toContain(name.split('/')[1])
  })
})
