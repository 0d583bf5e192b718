// Issue 40's wording, as a user meets it on the command line: counts with their noun in the right number, a
// refusal that counts its problems in words, an unreachable target said in a sentence.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { baseEnv, runCli } from '../hostile/cli.ts'

const dir = mkdtempSync(join(tmpdir(), 'crmconf-wording-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(args, { cwd: dir, env: baseEnv(env), hardLimitMs: 60_000 })

test('a page holding one record says "1 record"', async () => {
  const run = await cli(['run', '--embedded', '--fault', 'pagination.repeat-boundary-record', '--only', 'pagination.limit.one', '--report-dir', 'p'])
  expect(run.code, run.stdout + run.stderr).toBe(1)
  expect(run.stdout).toContain('the page after a limit=1 page holds 1 record, the same record again')
  expect(run.stdout).not.toMatch(/\b1 records\b/)
})
