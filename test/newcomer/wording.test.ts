// Issue 40's wording, as a user meets it on the command line: counts with their noun in the right number, a
// refusal that counts its problems in words, an unreachable target said in a sentence.
import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { ROOT, baseEnv, runCli } from '../hostile/cli.ts'

const dir = mkdtempSync(join(tmpdir(), 'crmconf-wording-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(args, { cwd: dir, env: baseEnv(env), hardLimitMs: 60_000 })

test('a page holding one record says "1 record"', async () => {
  const run = await cli(['run', '--embedded', '--fault', 'pagination.repeat-boundary-record', '--only', 'pagination.limit.one', '--report-dir', 'p'])
  expect(run.code, run.stdout + run.stderr).toBe(1)
  expect(run.stdout).toContain('the page after a limit=1 page holds 1 record, the same record again')
  expect(run.stdout).not.toMatch(/\b1 records\b/)
})

test('an unreachable target: a sentence naming the target and the variable, the stable code last', async () => {
  const run = await cli(['run', '--report-dir', 'never'], {
    CRM_BASE_URL: 'http://127.0.0.1:9/v1',
    CRM_API_KEY: 'crm_ws_x_0123456789abcdef',
    CRM_REQUEST_TIMEOUT_MS: '2000',
  })
  expect(run.code).toBe(2)
  expect(run.stderr).toMatch(/^the target did not answer GET \/me at http:\/\/127\.0\.0\.1:9\/v1: .*; check CRM_BASE_URL \(CRMCONF_TARGET_UNREACHABLE\)\n$/)
})

test('verify-submission refuses with "4 problems", not "4 problem(s)"', async () => {
  mkdirSync(join(dir, 'sub'))
  writeFileSync(join(dir, 'sub', 'report.json'), '{}')
  const run = await cli(['verify-submission', 'sub'])
  expect(run.code).toBe(1)
  expect(run.stdout).toMatch(/^REFUSED: 4 problems$/m)
  expect(run.stdout).not.toContain('(s)')
})

test("a fresh clone's first build says it is the first, not that the sources changed", () => {
  // The build script alone in a checkout without dist/ (nor TypeScript: it stops after its first line).
  const clone = join(dir, 'clone')
  for (const sub of ['scripts', 'src', 'suites']) mkdirSync(join(clone, sub), { recursive: true })
  copyFileSync(join(ROOT, 'scripts', 'build.mjs'), join(clone, 'scripts', 'build.mjs'))
  const build = spawnSync(process.execPath, [join(clone, 'scripts', 'build.mjs')], { cwd: clone, encoding: 'utf8', timeout: 30_000 })
  expect(build.stderr.split('\n')[0]).toBe('building dist/ for the first time (tsc -p tsconfig.build.json)…')
})
