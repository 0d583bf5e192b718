// Issue 40: `coverage --clause` as typed: with or without `§`, a whole clause with its sub-clauses; a clause no
// statement is in is one line naming the nearest, exit 2 (as `run --only §99.1` does), not a header and exit 0.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { baseEnv, runCli } from '../hostile/cli.ts'

const dir = mkdtempSync(join(tmpdir(), 'crmconf-coverage-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const coverage = (...args: string[]) => runCli(['coverage', ...args], { cwd: dir, env: baseEnv(), hardLimitMs: 60_000 })

test.each(['5.4', '§5.4'])('coverage --clause %s: the statements of §5.4, exit 0', async (clause) => {
  const run = await coverage('--clause', clause)
  expect(run.code, run.stderr).toBe(0)
  expect(run.stdout).toMatch(/^§5\.4\/scope-areas\s+MUST/m)
  expect(run.stdout.match(/^§\S+/gm)!.every((s) => s.startsWith('§5.4/'))).toBe(true)
})

test('coverage --clause 4: §4 and its sub-clauses', async () => {
  const run = await coverage('--clause', '4')
  expect(run.stdout).toMatch(/^§4\.3\/filters/m)
})

test.each([
  ['§99', 'did you mean §9?'],
  ['5.45', 'did you mean §5.4, §5.5?'],
])('coverage --clause %s: one line with the nearest clauses, exit 2', async (clause, hint) => {
  const run = await coverage('--clause', clause)
  expect(run.code).toBe(2)
  expect(run.stdout).toBe('')
  expect(run.stderr).toBe(`--clause ${clause}: no MUST or SHOULD statement of the matrix is in that clause; ${hint}\n`)
})
