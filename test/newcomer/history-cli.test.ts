// Issue 40's blocker: the nightly command line of the docs, as a user types it, from a folder whose path has a
// space: `--history` is an option of `run`, one JSON line per run lands in the file, report.html draws the trend.
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { readHistory } from '../../src/run/history.ts'
import { ROOT, baseEnv, runCli } from '../hostile/cli.ts'

const dir = join(mkdtempSync(join(tmpdir(), 'crmconf-history-cli-')), 'a folder with a space')
mkdirSync(dir, { recursive: true })
afterAll(() => rmSync(join(dir, '..'), { recursive: true, force: true }))

const today = new Date().toISOString().slice(0, 10)
/** The nightly guide's first command (docs/nightly.md, once in the README), word for word; `$(date +%F)` is what the shell makes of it. */
const README_LINE = 'crm-conformance run --profile full --history nightly.jsonl --report-dir reports/$(date +%F)'

test('the docs still show that line', () => {
  expect(readFileSync(join(ROOT, 'docs', 'nightly.md'), 'utf8')).toContain(`\n${README_LINE}\n`)
})

test('the README nightly line runs; a later run adds a line; report.html charts them and warns of another target', async () => {
  const args = README_LINE.replace('$(date +%F)', today).split(' ').slice(1)
  const first = await runCli(args, { cwd: dir, env: baseEnv(), hardLimitMs: 240_000 })
  expect(first.code, first.stdout + first.stderr).toBe(0)
  expect(first.stderr).not.toContain('unknown option')
  expect(first.stdout).not.toContain('the trend mixes servers')
  // A report folder with a space is printed quoted, one word for a shell.
  expect(first.stdout).toContain(`reports: '${join(dir, 'reports', today)}'\n`)
  // The embedded server is seeded afresh each run: its pools have no nights to count.
  expect(first.stdout).toMatch(/^ {2}sent invoices: \d+ usable of \d+, this run uses 1$/m)
  expect(first.stdout).toMatch(/^ {2}sent quotations: \d+ usable of \d+, no check of this run uses one up$/m)
  expect(first.stdout).not.toMatch(/nights? left|uses none up/)
  // A night against staging written to the same file: the trend then mixes servers, and says so.
  const staging = { ...readHistory(join(dir, 'nightly.jsonl'))[0]!, runId: 'staging-night', target: 'https://staging.example.com/v1' }
  appendFileSync(join(dir, 'nightly.jsonl'), `${JSON.stringify(staging)}\n`)
  const second = await runCli(['run', '--only', 'discovery', '--history', 'nightly.jsonl', '--report-dir', 'reports/subset', '--quiet'], {
    cwd: dir,
    env: baseEnv(),
    hardLimitMs: 120_000,
  })
  expect(second.code, second.stdout + second.stderr).toBe(0)
  expect(second.stdout).toContain(
    'warning: the history file also holds runs against https://staging.example.com/v1; this run tested the embedded reference server: the trend mixes servers',
  )

  const lines = readHistory(join(dir, 'nightly.jsonl'))
  expect(lines.map((l) => l.verdict)).toEqual(['compliant', 'compliant', 'compliant'])
  // The embedded server is one target whatever port it had that night.
  expect(lines.map((l) => l.target)).toEqual(['the embedded reference server', 'https://staging.example.com/v1', 'the embedded reference server'])
  expect(lines[0]!.counts.passed).toBeGreaterThan(lines[2]!.counts.passed)
  const html = readFileSync(join(dir, 'reports', 'subset', 'report.html'), 'utf8')
  const section = html.slice(html.indexOf('<section id="history"'), html.indexOf('</section>', html.indexOf('<section id="history"')))
  expect(section).toContain('Trend (last 3 runs)')
  expect(section.match(/<rect /g)).toHaveLength(3)
  expect(section).toContain('data-testid="history-warning"')
}, 300_000)
