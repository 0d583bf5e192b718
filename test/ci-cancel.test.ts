// A CI job cancelled as GitHub Actions cancels it: SIGINT, SIGTERM 7.5 s later (SIGKILL 2.5 s after that).
// Against the reference server playing the spec's default 600/min with fixed windows, interrupted when the
// main key's window is spent for a while yet, so its clean-up would have to wait for the window: the run
// must still write every report file, marked interrupted, and exit within 10 s of the SIGINT.
import type { ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { baseEnv, startCli, startServe, stopServe } from './hostile/cli.ts'

let serve: ChildProcess
let env: Record<string, string>
let dir: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crmconf-ci-cancel-'))
  const served = await startServe(['--port', '0', '--rate-limit', '600', '--limiter', 'fixed-window'], dir)
  serve = served.child
  env = served.env
}, 60_000)

afterAll(async () => {
  await stopServe(serve)
  if (dir) rmSync(dir, { recursive: true, force: true })
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The main key's window as the server tells it (one request of its budget). */
async function mainWindow(): Promise<{ remaining: number; resetS: number }> {
  const response = await fetch(`${env.CRM_BASE_URL}/me`, { headers: { authorization: `Bearer ${env.CRM_API_KEY}` } })
  await response.arrayBuffer()
  return { remaining: Number(response.headers.get('ratelimit-remaining')), resetS: Number(response.headers.get('ratelimit-reset')) }
}

function journalAdds(journal: string): number {
  if (!existsSync(journal)) return 0
  return readFileSync(journal, 'utf8')
    .split('\n')
    .filter((line) => line.includes('"op":"add"')).length
}

test('SIGINT, then SIGTERM 7.5 s later, while the clean-up would wait for a spent window: every report file, marked interrupted, exit 130 within 10 s', async () => {
  // Fixed windows reset on the minute: start early in one, so the run spends it with many seconds still to go.
  while (new Date().getSeconds() > 15) await sleep(250)
  const { CRM_WEBHOOK_SECRET: _secret, ...target } = env
  const reportDir = join(dir, 'cancelled')
  const journal = join(reportDir, '.journal', 'ledger.jsonl')
  const cli = startCli(['run', '--report-dir', reportDir, '--no-sweep'], { cwd: dir, env: baseEnv(target), hardLimitMs: 150_000 })

  // The moment: records to remove, and the main key's window spent for at least 12 s more.
  let spent = false
  const lookUntil = Date.now() + 100_000
  while (!spent && cli.child.exitCode === null && Date.now() < lookUntil) {
    await sleep(300)
    if (journalAdds(journal) < 10) continue
    const window = await mainWindow()
    spent = window.remaining <= 1 && window.resetS >= 12
  }
  expect(spent && cli.child.exitCode === null, `never caught the run with its window spent:\n${cli.output().slice(-2000)}`).toBe(true)

  const signalledAt = Date.now()
  cli.child.kill('SIGINT')
  const sigterm = setTimeout(() => cli.child.kill('SIGTERM'), 7_500)
  const result = await cli.done
  clearTimeout(sigterm)
  const exitedInMs = Date.now() - signalledAt
  const printed = result.stdout + result.stderr

  expect(result.hung, printed.slice(-2000)).toBe(false)
  expect(result.code, `exited after ${exitedInMs} ms (signal ${result.signal}):\n${printed.slice(-3000)}`).toBe(130)
  expect(exitedInMs, printed.slice(-3000)).toBeLessThan(10_000)
  for (const name of ['report.json', 'report.html', 'summary.md', 'badge.json', 'junit.xml']) expect(existsSync(join(reportDir, name)), name).toBe(true)
  const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8'))
  expect(report.interrupted.reason).toBe('the run was interrupted (SIGINT)')
  expect(report.verdict).not.toBe('compliant')
  expect(report.checks.filter((c: { message: string }) => c.message.startsWith('not run: the run was interrupted')).length).toBeGreaterThan(0)
  expect(readFileSync(join(reportDir, 'summary.md'), 'utf8')).toContain('**Interrupted**')
  // The files were written before the clean-up began, then again after it.
  expect(result.stdout).toMatch(/report written \(interrupted\): .*; cleaning up, then writing it again/)
  // The clean-up did not wait out the window: what it could not remove is named, with the command that removes it.
  expect(report.leftovers.length, printed.slice(-3000)).toBeGreaterThan(0)
  expect(report.leftovers.every((l: { reason: string }) => l.reason.startsWith('not removed'))).toBe(true)
  expect(report.leftovers.some((l: { reason: string }) => /rate-limit window resets in \d+ s, longer than clean-up waits/.test(l.reason))).toBe(true)
  expect(result.stdout).toMatch(new RegExp(`remove them with: crm-conformance sweep --run ${report.runId}`))
  // The progress counts the checks not reached apart from those done.
  expect(result.stdout).toMatch(/\d+\/\d+ checks, \d+ not run/)
}, 200_000)
