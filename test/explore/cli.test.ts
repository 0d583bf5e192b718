// The explorer's command lines as docs/explore.md shows them, typed as a user types them: `run --embedded --only
// explore --seed N`, its budget by flag and by variable, `--profile deep`, and a finding's replay line that
// reproduces it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { DEFAULTS, loadConfig } from '../../src/config/config.ts'
import type { RunReport } from '../../src/report/types.ts'
import { baseEnv, runCli } from '../hostile/cli.ts'

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'crmconf-explore-cli-'))
})
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
})

function explored(reportDir: string): { report: RunReport; requests: number } {
  const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as RunReport
  const row = report.checks.find((c) => c.id === 'explore.status')!
  return { report, requests: Number(row.observations['explore.requests']) }
}

test('run --embedded --only explore --seed N --explore-requests N: the explore checks alone, within the budget', async () => {
  const reportDir = join(dir, 'flag')
  const run = await runCli(['run', '--embedded', '--only', 'explore', '--seed', '7', '--explore-requests', '30', '--report-dir', reportDir, '--quiet'], {
    cwd: dir,
    env: baseEnv(),
    hardLimitMs: 120_000,
  })
  expect(run.code, run.stdout + run.stderr).toBe(0)
  const { report, requests } = explored(reportDir)
  expect(report.checks.map((c) => c.id).every((id) => id.startsWith('explore.'))).toBe(true)
  // A small budget may leave an aspect never compared: skipped with the reason (rule 2), never passed nor failed.
  const notPassed = report.checks.filter((c) => c.status !== 'passed')
  for (const c of notPassed) expect(`${c.id} ${c.status}: ${c.message}`).toMatch(/ skipped: [a-z-]+ was never compared: .* gives it room$/)
  expect(notPassed.length).toBeLessThan(report.checks.length / 2)
  expect(requests).toBeGreaterThan(0)
  // A command may overshoot by the requests it had started when the budget ran out.
  expect(requests).toBeLessThanOrEqual(30 + 12)
}, 150_000)

test('CRM_EXPLORE_REQUESTS sets the budget, with --profile deep too (the variable wins over the profile)', async () => {
  const reportDir = join(dir, 'variable')
  const run = await runCli(['run', '--embedded', '--only', 'explore', '--profile', 'deep', '--seed', '3', '--report-dir', reportDir, '--quiet'], {
    cwd: dir,
    env: baseEnv({ CRM_EXPLORE_REQUESTS: '20' }),
    hardLimitMs: 120_000,
  })
  expect(run.code, run.stdout + run.stderr).toBe(0)
  const { report, requests } = explored(reportDir)
  expect(report.profile).toBe('full')
  expect(requests).toBeGreaterThan(0)
  expect(requests).toBeLessThanOrEqual(20 + 12)
}, 150_000)

test('--profile deep is the full profile with the nightly budget; a bad budget is refused', async () => {
  const deep = loadConfig({}, { profile: 'deep', envFile: false })
  expect(deep.profile).toBe('full')
  expect(deep.exploreRequests).toBe(DEFAULTS.exploreRequestsDeep)
  expect(loadConfig({}, { envFile: false }).exploreRequests).toBe(DEFAULTS.exploreRequests)
  const bad = await runCli(['run', '--embedded', '--only', 'explore', '--explore-requests', 'many'], { cwd: dir, env: baseEnv(), hardLimitMs: 60_000 })
  expect(bad.code).toBe(2)
  expect(bad.stderr).toContain('--explore-requests must be an integer')
  const badEnv = await runCli(['run', '--embedded', '--only', 'explore'], { cwd: dir, env: baseEnv({ CRM_EXPLORE_REQUESTS: '-3' }), hardLimitMs: 60_000 })
  expect(badEnv.code).toBe(2)
  expect(badEnv.stderr).toContain('CRM_EXPLORE_REQUESTS must be an integer')
}, 150_000)
