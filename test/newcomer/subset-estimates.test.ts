// Issue 40: the estimate a run prints before it starts, for the subsets a nightly user runs: `--repeat 3` (each
// repetition a run of its own) and `--rerun-failed` (a few checks whose shared fixtures a full run shares out).
// Near the truth: within a factor of two of the requests the run then counts.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import type { RunReport } from '../../src/report/types.ts'
import { baseEnv, runCli } from '../hostile/cli.ts'

const dir = mkdtempSync(join(tmpdir(), 'crmconf-estimates-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const cli = (...args: string[]) => runCli(args, { cwd: dir, env: baseEnv(), hardLimitMs: 120_000 })

/** The estimate printed for the main key against what the report counted on it. */
function estimateAndUse(stdout: string, reportDir: string): { estimated: number; used: number } {
  const estimated = Number(/about (\d+) requests? on the main key/.exec(stdout)?.[1])
  const report = JSON.parse(readFileSync(join(dir, reportDir, 'report.json'), 'utf8')) as RunReport
  return { estimated, used: report.requests.byKey?.main ?? report.requests.total }
}

test('--repeat 3: the estimate counts three runs', async () => {
  const run = await cli('run', '--embedded', '--only', 'discovery', '--repeat', '3', '--report-dir', 'repeat', '--quiet')
  expect(run.code, run.stdout + run.stderr).toBe(0)
  const { estimated, used } = estimateAndUse(run.stdout, 'repeat')
  expect(estimated).toBeGreaterThanOrEqual(used / 2)
  expect(estimated).toBeLessThanOrEqual(used * 2)
})

test('--rerun-failed: the estimate counts the shared fixtures of the checks it re-runs', async () => {
  const fault = ['--fault', 'records.missing-updatedAt']
  const first = await cli('run', '--embedded', ...fault, '--only', 'records', '--report-dir', 'night', '--quiet')
  expect(first.code, first.stdout + first.stderr).toBe(1)
  const rerun = await cli('run', '--embedded', ...fault, '--rerun-failed', 'night', '--report-dir', 'rerun', '--quiet')
  expect(rerun.code, rerun.stdout + rerun.stderr).toBe(1)
  const { estimated, used } = estimateAndUse(rerun.stdout, 'rerun')
  expect(estimated).toBeGreaterThanOrEqual(used / 2)
  expect(estimated).toBeLessThanOrEqual(used * 2)
}, 120_000)
