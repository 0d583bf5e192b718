// Issue 40's blocker: the README's nightly command line, as a user types it, from a folder whose path has a
// space: `--history` is an option of `run`, one JSON line per run lands in the file, report.html draws the trend.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { readHistory } from '../../src/run/history.ts'
import { baseEnv, runCli } from '../hostile/cli.ts'

const dir = join(mkdtempSync(join(tmpdir(), 'crmconf-history-cli-')), 'a folder with a space')
mkdirSync(dir, { recursive: true })
afterAll(() => rmSync(join(dir, '..'), { recursive: true, force: true }))

const today = new Date().toISOString().slice(0, 10)
/** README.md, "A trend" (the nightly run), word for word; `$(date +%F)` is what the shell makes of it. */
const README_LINE = 'crm-conformance run --profile full --history nightly.jsonl --report-dir reports/$(date +%F)'

test('the README nightly line runs; a second run adds a line; report.html charts both', async () => {
  const args = README_LINE.replace('$(date +%F)', today).split(' ').slice(1)
  const first = await runCli(args, { cwd: dir, env: baseEnv(), hardLimitMs: 240_000 })
  expect(first.code, first.stdout + first.stderr).toBe(0)
  expect(first.stderr).not.toContain('unknown option')
  const second = await runCli(['run', '--only', 'discovery', '--history', 'nightly.jsonl', '--report-dir', 'reports/subset', '--quiet'], {
    cwd: dir,
    env: baseEnv(),
    hardLimitMs: 120_000,
  })
  expect(second.code, second.stdout + second.stderr).toBe(0)

  const lines = readHistory(join(dir, 'nightly.jsonl'))
  expect(lines.map((l) => l.verdict)).toEqual(['compliant', 'compliant'])
  expect(lines[0]!.counts.passed).toBeGreaterThan(lines[1]!.counts.passed)
  const html = readFileSync(join(dir, 'reports', 'subset', 'report.html'), 'utf8')
  const section = html.slice(html.indexOf('<section id="history"'), html.indexOf('</section>', html.indexOf('<section id="history"')))
  expect(section).toContain('Trend (last 2 runs)')
  expect(section.match(/<rect /g)).toHaveLength(2)
}, 300_000)
