// The explored share that grows over nights (docs/explore.md "Explored share"), as the user types it: two nightly
// runs of the explorer with their own seeds and one --history file, then `coverage --history` over that file.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { RunReport } from '../../src/report/types.ts'
import { baseEnv, runCli } from '../hostile/cli.ts'

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'crmconf-explore-history-'))
})
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
})

async function night(seed: number, history: string): Promise<RunReport> {
  const reportDir = join(dir, `night-${seed}`)
  const run = await runCli(
    ['run', '--embedded', '--only', 'explore', '--seed', String(seed), '--explore-requests', '40', '--history', history, '--report-dir', reportDir, '--quiet'],
    { cwd: dir, env: baseEnv(), hardLimitMs: 120_000 },
  )
  expect(run.code, run.stdout + run.stderr).toBe(0)
  // The console says it too, beside the verdict (with the nights, once there is a history).
  expect(run.stdout).toMatch(/Explored \(operation × axis × value form\): \d+ of \d+ cells .*; over \d+ runs of /)
  const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as RunReport
  expect(readFileSync(join(reportDir, 'report.html'), 'utf8')).toContain('data-testid="explored"')
  expect(readFileSync(join(reportDir, 'summary.md'), 'utf8')).toMatch(/Explored \(operation × axis × value form\): \d+ of \d+ cells/)
  // The cells are the `explored` block's, not a capability row (a thousand lines in the Capabilities table).
  expect(Object.keys(report.capabilities ?? {}).filter((key) => key.endsWith('.explore.cells'))).toEqual([])
  return report
}

test('run --only explore --history FILE on two nights with new seeds: the explored share over the nights grows, and coverage --history shows it', async () => {
  const history = join(dir, 'nightly.jsonl')
  const first = (await night(11, history)).explored!
  expect(first.run.cells).toBeGreaterThan(0)
  expect(first.nights).toMatchObject({ runs: 1, cells: first.run.cells, newTonight: first.run.cells })
  const second = (await night(12, history)).explored!
  expect(second.nights!.runs).toBe(2)
  expect(second.nights!.newTonight).toBeGreaterThan(0)
  expect(second.nights!.cells).toBe(first.run.cells + second.nights!.newTonight)
  expect(second.nights!.share).toBeGreaterThan(first.nights!.share)
  expect(second.universe).toBe(first.universe)
  // The history keeps each night's cells: the union is read back from the file.
  const lines = readFileSync(history, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
  expect(lines.map((l) => l.explored.length)).toEqual([first.run.cells, second.run.cells])

  const text = await runCli(['coverage', '--history', history], { cwd: dir, env: baseEnv(), hardLimitMs: 60_000 })
  expect(text.code, text.stderr).toBe(0)
  expect(text.stdout).toContain('Requirement matrix:')
  const pct = `${(second.nights!.share * 100).toFixed(1)}%`
  expect(text.stdout).toContain(`over 2 runs of ${history}: ${second.nights!.cells} cells (${pct}), ${second.nights!.newTonight} new this run`)
  const json = await runCli(['coverage', '--json', '--history', history], { cwd: dir, env: baseEnv(), hardLimitMs: 60_000 })
  expect(JSON.parse(json.stdout).explored.nights).toEqual(second.nights)
  // Without a history, coverage names the universe and how to grow the share.
  const plain = await runCli(['coverage'], { cwd: dir, env: baseEnv(), hardLimitMs: 60_000 })
  expect(plain.stdout).toContain(`Explored share: ${second.universe} cells (operation × axis × value form)`)
}, 300_000)
