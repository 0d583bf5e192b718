// Issue 40: `crm-conformance diff` as QA types it after two clean nights of one unchanged server: no table of
// noise. Only what the server chose (run-wide capabilities) is compared, never what a check met on its run (a
// remaining count, the seeded value a filter check queried); two reports of different targets are named.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { baseEnv, runCli } from '../hostile/cli.ts'

const dir = mkdtempSync(join(tmpdir(), 'crmconf-diff-cli-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const checks = [
  { id: 'rate-limits.remaining.decreases', level: 'MUST', status: 'passed' },
  { id: 'filters.article.visibility.complete', level: 'MUST', status: 'passed' },
]
function night(name: string, target: object, capabilities: Record<string, unknown>): string {
  mkdirSync(join(dir, name))
  const report = { tool: { version: '0.1.0' }, runId: name, verdict: 'compliant', target, capabilities, checks }
  writeFileSync(join(dir, name, 'report.json'), JSON.stringify(report))
  return name
}
const staging = { baseUrl: 'https://staging.example.com/v1', embedded: false }
const a = night('a', staging, {
  'rate-limits.remaining.decreases.remaining': [586, 585, 582],
  'filters.article.visibility.complete.queriedValue': 'internal',
  'update.method': ['PATCH'],
})
const b = night('b', staging, {
  'rate-limits.remaining.decreases.remaining': [422, 419, 417],
  'filters.article.visibility.complete.queriedValue': 'public',
  'update.method': ['PATCH'],
})
const c = night('c', { baseUrl: 'https://crm.example.com/v1', embedded: false }, { 'update.method': ['PUT'] })

const diff = (...args: string[]) => runCli(['diff', ...args], { cwd: dir, env: baseEnv(), hardLimitMs: 60_000 })

test('two clean nights of one server: no capability changed, no warning, exit 0', async () => {
  for (const flags of [[], ['--markdown'], ['--json']]) {
    const run = await diff(a, b, ...flags)
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(run.stdout).not.toMatch(/remaining|queriedValue|[Cc]apabilit(y|ies) that changed|warning/)
  }
  expect((await diff(a, b)).stdout).toContain('no check changed')
})

test('another target: one warning line naming both; the choice that differs is listed', async () => {
  const run = await diff(b, c)
  expect(run.code).toBe(0)
  expect(run.stdout).toContain(
    'warning: the runs tested different targets (https://staging.example.com/v1, then https://crm.example.com/v1): a change may be the other server',
  )
  expect(run.stdout).toContain('capability update.method: ["PATCH"] -> ["PUT"]')
  expect((await diff(b, c, '--markdown')).stdout).toMatch(/^> :warning: the runs tested different targets/m)
  expect(JSON.parse((await diff(b, c, '--json')).stdout)).toMatchObject({ targetsDiffer: true })
})

test('diff --markdown quotes what a report says as inert text (rule 7): no HTML, mention, link or cell break', async () => {
  const hostile = '<img src=x onerror=alert(1)> @octocat see [here](https://evil.example) | fixes #12'
  mkdirSync(join(dir, 'h'))
  const report = {
    tool: { version: '0.1.0' },
    runId: 'h`<b>',
    verdict: 'non-compliant',
    target: staging,
    capabilities: { 'update.method': ['PATCH'], 'x|<script>': ['@team'] },
    checks: [{ id: 'rate-limits.remaining.decreases', level: 'MUST', status: 'failed', message: hostile }, checks[1]],
  }
  writeFileSync(join(dir, 'h', 'report.json'), JSON.stringify(report))
  const run = await diff(a, 'h', '--markdown')
  expect(run.stdout).not.toMatch(/<img|<script|@octocat|@team|(?<!\\)\]\(https|#12/)
  // A run id is data: quoted as a code span, where GitHub renders nothing.
  expect(run.stdout).toContain('after ``h`<b>``')
  const row = run.stdout.split('\n').find((line) => line.includes('rate-limits.remaining.decreases'))!
  // Seven cell borders: the pipe inside the message did not open an eighth.
  expect(row.replace(/\\\|/g, '').split('|')).toHaveLength(8)
})
