// A project whose folder has a space and non-ASCII characters in its path runs its checks and writes its
// report (issue 17, case 1: a root taken from a URL's pathname kept `%20`, so such a project ran nothing and
// exited 0). The sources are copied, node_modules linked; test/package.test.ts does the same for the
// installed package.
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunReport } from '../src/report/types.ts'
import { PROJECT_ROOT } from '../src/version.ts'
import { baseEnv } from './hostile/cli.ts'

const COPIED = ['package.json', 'tsconfig.json', 'vitest.suites.config.ts', 'bin', 'src', 'suites', 'schemas', 'spec']
const REPORT_FILES = ['report.json', 'report.html', 'junit.xml', 'summary.md', 'badge.json']

let base: string
beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'crmconf-paths-'))
})
afterAll(() => {
  if (base) rmSync(base, { recursive: true, force: true })
})

describe('paths', () => {
  it('derives no file path from a URL pathname in src/, suites/, scripts/ or bin/', () => {
    const offenders: string[] = []
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name)
        if (entry.isDirectory()) walk(path)
        else if (/\.(ts|mjs|js)$/.test(entry.name) && /import\.meta\.url\)\.pathname|import\.meta\.url\.pathname/.test(readFileSync(path, 'utf8')))
          offenders.push(relative(PROJECT_ROOT, path))
      }
    }
    for (const dir of ['src', 'suites', 'scripts', 'bin']) walk(join(PROJECT_ROOT, dir))
    expect(offenders).toEqual([])
  })

  it('runs a selection in a project under "with space/ünï" and writes the report under such a folder too', async () => {
    const project = join(base, 'with space', 'ünï', 'crm conformance')
    mkdirSync(project, { recursive: true })
    for (const name of COPIED) cpSync(join(PROJECT_ROOT, name), join(project, name), { recursive: true })
    symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(project, 'node_modules'), 'dir')
    const reportDir = join(base, 'rapports ünï', 'run 1')
    const work = join(base, 'work dir')
    mkdirSync(work)

    const run = spawnSync(process.execPath, [join(project, 'bin', 'crm-conformance-ts.mjs'), 'run', '--only', 'discovery', '--report-dir', reportDir], {
      cwd: work,
      env: baseEnv(),
      encoding: 'utf8',
      timeout: 170_000,
    })
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0)
    // Printed quoted, so it can be pasted into a shell as one word.
    expect(run.stdout).toContain(`reports: '${reportDir}'\n`)
    for (const file of REPORT_FILES) expect(existsSync(join(reportDir, file)), file).toBe(true)
    const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as RunReport
    const executed = report.checks.filter((r) => r.id.startsWith('discovery.') && r.status === 'passed')
    expect(executed.length).toBeGreaterThan(0)
    expect(readFileSync(join(reportDir, 'junit.xml'), 'utf8')).toMatch(/<testcase [^>]*discovery\./)
  }, 180_000)
})
