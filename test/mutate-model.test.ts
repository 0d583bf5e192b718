// scripts/mutate-model.mjs, the command `npm run mutate` runs per mutant: the explorer's model (src/run/oracle.ts)
// is imported from the project root it is given, not from the working copy the target runs from (in Stryker's
// sandbox, the mutant). Given a root with no reference server, only the explore checks break: the redirect holds.
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, expect, test } from 'vitest'
import { mutantCommand } from '../scripts/mutate-plan.ts'

const ROOT = resolve(import.meta.dirname, '..')
const dir = mkdtempSync(join(tmpdir(), 'crmconf-mutate-model-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('the model of the explorer is imported from the root named on the command line', async () => {
  const missing = join(dir, 'no-project')
  // The command Stryker runs, as mutantCommand writes it, with the report folder moved out of the project.
  const args = mutantCommand(missing, { only: ['explore'], seed: 3 })
    .replace('.stryker-run', join(dir, 'report'))
    .split(' ')
    .slice(1)
    .map((a) => a.replace(/^"(.*)"$/, '$1'))
  const run = promisify(execFile)(process.execPath, [...args, '--explore-requests', '20'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR },
  }).catch((e: { code: number }) => e)
  expect(((await run) as { code?: number }).code ?? 0).not.toBe(0)
  const report = JSON.parse(readFileSync(join(dir, 'report', 'report.json'), 'utf8')) as { checks: { id: string; status: string; message?: string }[] }
  const explore = report.checks.filter((c) => c.id.startsWith('explore.'))
  expect(explore.length).toBeGreaterThan(0)
  for (const c of explore) {
    expect(c.status).toBe('error')
    expect(c.message).toContain(join(missing, 'src', 'reference', 'index.ts'))
  }
}, 120_000)
