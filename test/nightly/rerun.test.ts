// Issue 26: `run --rerun-failed <report>` runs exactly the checks that failed or errored there and labels each
// `fixed` or `still failing` (console, report, junit); `--repeat N` labels a check that both passed and failed
// `flaky`, with the seeds.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import type { CheckDefinition, CheckResult } from '../../src/checks/types.ts'
import { runCommand } from '../../src/cli/run-command.ts'
import { loadConfig } from '../../src/config/config.ts'
import { labelOf, mergeRepetitions } from '../../src/run/repeat.ts'
import { runSuite } from '../../src/run/run-suite.ts'

const dir = mkdtempSync(join(tmpdir(), 'crmconf-rerun-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function run(name: string, extra: Parameters<typeof runCommand>[0]) {
  let out = ''
  const outcome = await runCommand({ embedded: true, env: {}, seed: 5, reportDir: join(dir, name), write: (t) => (out += t), ...extra })
  return { ...outcome, out }
}

const FAULT = 'state.replace-non-draft'
const FAILING = ['state.quotation.replace-non-draft', 'state.invoice.replace-non-draft']

test('--rerun-failed: exactly the failed checks run; fixed once the fault is gone, still failing while it stays', async () => {
  const first = await run('first', { only: ['state.quotation', 'state.invoice.replace-non-draft'], faults: [FAULT] })
  expect(
    first
      .report!.checks.filter((c) => c.status === 'failed')
      .map((c) => c.id)
      .sort(),
  ).toEqual([...FAILING].sort())
  expect(first.report!.checks.length).toBeGreaterThan(FAILING.length)

  const fixed = await run('fixed', { rerunFailed: first.reportDir })
  expect(fixed.exitCode).toBe(0)
  expect(fixed.report!.checks.map((c) => c.id).sort()).toEqual([...FAILING].sort())
  expect(fixed.report!.rerun?.checks.map((c) => [c.id, c.before, c.label]).sort()).toEqual(FAILING.map((id) => [id, 'failed', 'fixed']).sort())
  for (const id of FAILING) expect(fixed.out).toContain(`fixed: ${id}`)
  const junit = readFileSync(join(fixed.reportDir!, 'junit.xml'), 'utf8')
  expect(junit.match(/<property name="label" value="fixed"\/>/g)).toHaveLength(2)
  expect(readFileSync(join(fixed.reportDir!, 'report.html'), 'utf8')).toContain('data-testid="rerun"')

  const still = await run('still', { rerunFailed: join(first.reportDir!, 'report.json'), faults: [FAULT] })
  expect(still.exitCode).toBe(1)
  expect(still.report!.rerun?.checks.map((c) => c.label)).toEqual(['still failing', 'still failing'])
  for (const id of FAILING) expect(still.out).toContain(`still failing: ${id}`)

  // A report with nothing failed re-runs nothing; an unreadable one cannot start.
  expect((await run('none', { rerunFailed: fixed.reportDir })).exitCode).toBe(0)
  expect((await run('bad', { rerunFailed: join(dir, 'missing') })).exitCode).toBe(2)
}, 120_000)

test('--repeat N: a check that passed and failed is flaky, with the seed of each outcome', async () => {
  // Fails on odd seeds: repetitions take the seeds 10, 11, 12.
  const coin: CheckDefinition = {
    id: 'probe.coin',
    area: 'probe',
    clauses: ['§4.2'],
    level: 'MUST',
    title: 'fails on odd seeds',
    run: async (ctx) => {
      if (ctx.config.seed % 2 === 1) ctx.fail(`odd seed ${ctx.config.seed}`)
    },
  }
  const steady: CheckDefinition = { ...coin, id: 'probe.steady', title: 'always passes', run: async () => undefined }
  const outcome = await runSuite({
    config: loadConfig({}, { profile: 'full', seed: 10, envFile: false }),
    catalogue: [coin, steady],
    runId: '20260101-000000-repeat',
    reportDir: join(dir, 'repeat'),
    embedded: { rateLimitPerMinute: 1_000_000 },
    repeat: 3,
  })
  const rerun = outcome.report.rerun!
  expect(rerun.seeds).toEqual([10, 11, 12])
  expect(rerun.checks).toEqual([
    {
      id: 'probe.coin',
      before: undefined,
      label: 'flaky',
      outcomes: [
        { seed: 10, status: 'passed' },
        { seed: 11, status: 'failed' },
        { seed: 12, status: 'passed' },
      ],
    },
  ])
  // The row kept is the failure (its evidence is what to file), noting the seeds.
  const row = outcome.report.checks.find((c) => c.id === 'probe.coin')!
  expect(row.status).toBe('failed')
  expect(row.notes).toContain('flaky: passed with seeds 10, 12; failed with seed 11')
  expect(outcome.report.checks.find((c) => c.id === 'probe.steady')!.status).toBe('passed')
}, 60_000)

test('labels: fixed, still failing, flaky, not judged', () => {
  const o = (...statuses: CheckResult['status'][]) => statuses.map((status, i) => ({ seed: i, status }))
  expect(labelOf(o('passed', 'passed'), true)).toBe('fixed')
  expect(labelOf(o('failed', 'error'), true)).toBe('still failing')
  expect(labelOf(o('passed', 'error'), false)).toBe('flaky')
  expect(labelOf(o('skipped'), true)).toBe('not judged')
  expect(labelOf(o('passed', 'passed'), false)).toBeUndefined()
  const row = (status: CheckResult['status']) => ({ id: 'x', status, notes: [] }) as unknown as CheckResult
  const merged = mergeRepetitions(
    [
      { seed: 1, results: [row('passed')] },
      { seed: 2, results: [row('failed')] },
    ],
    { x: 'failed' },
  )
  expect(merged.labels[0]).toMatchObject({ id: 'x', before: 'failed', label: 'flaky' })
})
