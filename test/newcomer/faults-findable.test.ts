// Issue 40: the fault names `--fault` takes are findable from the installed package: `list --faults` prints them,
// and a misspelt one suggests its family and that listing, never a source file the tarball does not hold.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { FAULTS } from '../../src/reference/faults.ts'
import { baseEnv, runCli } from '../hostile/cli.ts'

const dir = mkdtempSync(join(tmpdir(), 'crmconf-faults-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const cli = (...args: string[]) => runCli(args, { cwd: dir, env: baseEnv(), hardLimitMs: 60_000 })

test('serve --fault paginaton: one line naming the pagination faults and `list --faults`, exit 2', async () => {
  const run = await cli('serve', '--port', '0', '--fault', 'paginaton')
  expect(run.code).toBe(2)
  expect(run.stdout).toBe('')
  const count = FAULTS.filter((f) => f.id.startsWith('pagination.')).length
  expect(run.stderr).toBe(
    `--fault paginaton is not a fault of the reference server: did you mean one of the ${count} pagination.* faults? \`crm-conformance list --faults\` lists them\n`,
  )
  expect(run.stderr).not.toContain('src/')
})

test('list --faults: every fault with what it breaks; --json too', async () => {
  const [text, json] = await Promise.all([cli('list', '--faults'), cli('list', '--faults', '--json')])
  expect(text.code).toBe(0)
  const lines = text.stdout.trimEnd().split('\n')
  expect(lines).toHaveLength(FAULTS.length)
  for (const [i, f] of FAULTS.entries()) expect(lines[i]).toMatch(new RegExp(`^${f.id.replace(/\./g, '\\.')}\\s+\\S`))
  expect((JSON.parse(json.stdout) as { id: string }[]).map((f) => f.id)).toEqual(FAULTS.map((f) => f.id))
})
