// The installed command's own start-up (bin/crm-conformance.mjs): on a Node older than package.json's
// "engines" allows, one line naming the Node it needs and exit 2, before anything is imported; without a
// build, one line saying how to make one.
import { spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../src/version.ts'

const BIN = join(PROJECT_ROOT, 'bin', 'crm-conformance.mjs')
/** Makes the child believe it is another Node before the bin's first line runs. */
const pretendNode = (version: string): string[] => [
  '--import',
  `data:text/javascript,Object.defineProperty(process,"versions",{value:{...process.versions,node:"${version}"}})`,
]

const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

describe('bin/crm-conformance.mjs', () => {
  it('checks the Node version that package.json "engines" names', () => {
    const engines = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node
    const needed = /const NEEDED = \[(\d+), (\d+)\]/.exec(readFileSync(BIN, 'utf8'))
    expect(needed).not.toBeNull()
    expect(engines).toBe(`>=${needed![1]}.${needed![2]}.0`)
  })

  it.each(['18.20.4', '20.18.3', '16.0.0'])('on Node %s: one line naming the Node it needs, exit 2', (version) => {
    const run = spawnSync(process.execPath, [...pretendNode(version), BIN, '--help'], { encoding: 'utf8', timeout: 30_000 })
    expect(run.status).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toBe(`crm-conformance needs Node.js 20.19 or newer; this is Node.js ${version}.\n`)
  })

  it('without dist/: one line saying to build, exit 2', () => {
    const dir = mkdtempSync(join(tmpdir(), 'crmconf-bin-'))
    dirs.push(dir)
    mkdirSync(join(dir, 'bin'))
    cpSync(BIN, join(dir, 'bin', 'crm-conformance.mjs'))
    const run = spawnSync(process.execPath, [join(dir, 'bin', 'crm-conformance.mjs'), '--help'], { encoding: 'utf8', timeout: 30_000 })
    expect(run.status).toBe(2)
    expect(run.stderr).toBe('crm-conformance is not built: dist/ is missing (run `npm run build` in the project folder).\n')
  })
})
