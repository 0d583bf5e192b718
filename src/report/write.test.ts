import { mkdtemp, readdir, readFile, rm, writeFile, mkdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
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
  it('creates the folder and writes the five files, every one from the report, returning their paths', async () => {
    const dir = join(root, 'runs', 'r1')
    const { paths } = await writeReportFiles(makeReport(), dir)
    expect(paths).toEqual(['report.json', 'report.html', 'summary.md', 'badge.json', 'junit.xml'].map((f) => join(dir, f)))
    expect((await readdir(dir)).sort()).toEqual(['badge.json', 'junit.xml', 'report.html', 'report.json', 'summary.md'])
    expect(JSON.parse(await readFile(join(dir, 'badge.json'), 'utf8')).schemaVersion).toBe(1)
    expect(JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')).verdict).toBe('non-compliant')
  })

  it('masks a secret the server echoed in any form, records it, and writes every file anyway', async () => {
    const dir = join(root, 'leaky')
    const key = 'crmk_acme_t0p/secret+Value'
    const webhook = 'whsec_c2VjcmV0LXdlYmhvb2stdmFsdWU='
    const report = makeReport(undefined, {
      config: { key },
      // A Location header echoing the webhook secret URL-encoded, and the base64 part alone in a body.
      capabilities: { 'x.location': `https://x.test/cb?s=${encodeURIComponent(webhook)}`, 'x.body': `{"secret":"${webhook.slice(6)}"}` },
    })
    const { report: written, masked } = await writeReportFiles(report, dir, { secrets: { CRM_API_KEY: key, CRM_WEBHOOK_SECRET: webhook } })
    expect((await readdir(dir)).sort()).toEqual(['badge.json', 'junit.xml', 'report.html', 'report.json', 'summary.md'])
    expect(masked.map((m) => `${m.secret} ${m.encoding}`).sort()).toEqual([
      'CRM_API_KEY raw',
      'CRM_WEBHOOK_SECRET URL-encoded',
      'CRM_WEBHOOK_SECRET raw (base64 part)',
    ])
    const json = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8'))
    expect(json.secretsMasked).toEqual(written.secretsMasked)
    expect(json.config.key).toBe('<redacted:CRM_API_KEY>')
    expect(await readFile(join(dir, 'summary.md'), 'utf8')).toContain('A secret was masked')
    for (const name of await readdir(dir)) {
      const text = await readFile(join(dir, name), 'utf8')
      for (const form of [key, encodeURIComponent(key), webhook, encodeURIComponent(webhook), webhook.slice(6)]) expect(text, name).not.toContain(form)
    }
  })
})

describe('copyToLatest', () => {
  it("mirrors the run folder, removing an older run's files but not dotfiles", async () => {
    const run = join(root, 'runs', 'r2')
    const latest = join(root, 'latest')
    await writeReportFiles(makeReport(), run)
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
