// Issue 40: `run --repeat 3` on the console as a user reads it: the fixture pools and the clean-up told once,
// each failure with the command that replays it, and after the verdict how often each failing check failed.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { baseEnv, runCli } from '../hostile/cli.ts'

const dir = mkdtempSync(join(tmpdir(), 'crmconf-repeat-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('--repeat 3: pools and clean-up once, "failed 3 of 3" after the verdict', async () => {
  const run = await runCli(
    [
      'run',
      '--embedded',
      '--fault',
      'records.missing-updatedAt',
      '--only',
      'records.account.schema,discovery.me.answers',
      '--repeat',
      '3',
      '--report-dir',
      'r',
    ],
    { cwd: dir, env: baseEnv(), hardLimitMs: 120_000 },
  )
  expect(run.code, run.stdout + run.stderr).toBe(1)
  const pools = run.stdout.split('\n').filter((l) => / usable of \d+/.test(l))
  expect(pools.length).toBeGreaterThan(0)
  expect(new Set(pools).size).toBe(pools.length)
  expect(run.stdout.match(/^cleaning up/gm)).toHaveLength(1)
  // Each failure line carries the command that replays it alone, with that repetition's seed; it replays as typed.
  const replays = [...run.stdout.matchAll(/^✗ MUST records\.account\.schema \(§2\)\n.*\n {4}replay: (crm-conformance run .*)$/gm)].map((m) => m[1]!)
  expect(replays).toHaveLength(3)
  expect(new Set(replays.map((r) => /--seed (\d+)/.exec(r)![1])).size).toBe(3)
  const replayed = await runCli([...replays[0]!.split(' ').slice(1), '--report-dir', 'replayed', '--quiet'], { cwd: dir, env: baseEnv(), hardLimitMs: 60_000 })
  expect(replayed.code, replayed.stdout + replayed.stderr).toBe(1)
  expect(replayed.stdout).toMatch(/subset: 1 of \d+ checks\): 0 passed, 1 failed/)
  const after = run.stdout.slice(run.stdout.indexOf('NON-COMPLIANT'))
  expect(after).toContain('  failed 3 of 3: records.account.schema\n')
  expect(after).not.toContain('discovery.me.answers')
}, 120_000)
