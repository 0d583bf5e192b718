import { mkdtemp, readdir, readFile, rm, writeFile, mkdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SecretLeakError } from './secrets.ts'
import { makeReport } from './test-fixtures.ts'
import { copyToLatest, writeReportFiles } from './write.ts'

let root: string
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'crm-report-'))
})
afterEach(async () => {
  await rm(root, { recursive: true, force: true })
})

describe('writeReportFiles', () => {
  it('creates the folder and writes the four files, returning their paths', async () => {
    const dir = join(root, 'runs', 'r1')
    const paths = await writeReportFiles(makeReport(), dir)
    expect(paths).toEqual(['report.json', 'report.html', 'summary.md', 'badge.json'].map((f) => join(dir, f)))
    expect((await readdir(dir)).sort()).toEqual(['badge.json', 'report.html', 'report.json', 'summary.md'])
    expect(JSON.parse(await readFile(join(dir, 'badge.json'), 'utf8')).schemaVersion).toBe(1)
    expect(JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')).verdict).toBe('non-compliant')
  })

  it('writes nothing when a secret would leak', async () => {
    const dir = join(root, 'leaky')
    const report = makeReport(undefined, { config: { key: 'crmk_acme_topsecret' } })
    await expect(writeReportFiles(report, dir, { secrets: { CRM_API_KEY: 'crmk_acme_topsecret' } })).rejects.toThrow(SecretLeakError)
    await expect(readdir(dir)).rejects.toThrow()
  })
})

describe('copyToLatest', () => {
  it('mirrors the run folder, removing an older run\'s files but not dotfiles', async () => {
    const run = join(root, 'runs', 'r2')
    const latest = join(root, 'latest')
    await writeReportFiles(makeReport(), run)
    await writeFile(join(run, 'junit.xml'), '<testsuites/>')
    await mkdir(latest, { recursive: true })
    await writeFile(join(latest, 'stale.txt'), 'old')
    await writeFile(join(latest, '.gitkeep'), '')
    const copied = await copyToLatest(run, latest)
    expect(copied).toHaveLength(5)
    expect((await readdir(latest)).sort()).toEqual(['.gitkeep', 'badge.json', 'junit.xml', 'report.html', 'report.json', 'summary.md'])
    expect(await readFile(join(latest, 'summary.md'), 'utf8')).toBe(await readFile(join(run, 'summary.md'), 'utf8'))
  })

  it('refuses folders inside one another', async () => {
    const run = join(root, 'reports', 'r3')
    await mkdir(run, { recursive: true })
    await expect(copyToLatest(run, join(root, 'reports'))).rejects.toThrow(/separate folders/)
    await expect(copyToLatest(run, run)).rejects.toThrow(/separate folders/)
  })
})
