// verify-submission against synthetic submissions (a made-up catalogue, no server): every way a folder can
// be wrong. The end-to-end path (a real certify run) is test/certify.test.ts.
import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CheckDefinition, CheckResult, Level } from '../checks/types.ts'
import { buildRunReport } from '../report/build.ts'
import { renderHtml } from '../report/html.ts'
import { renderJunit } from '../report/junit.ts'
import { toReportJson } from '../report/json.ts'
import { makeCheckResult, makeReportInput } from '../report/test-fixtures.ts'
import { MANIFEST_FILE, writeManifest } from './manifest.ts'
import type { ProductInfo } from './product.ts'
import { certificationBlock, type CertifiedReport } from './profile.ts'
import { assembleSubmission } from './submission.ts'
import { verifySubmission, type InstalledSuite } from './verify.ts'

const SPEC = 'e'.repeat(64)
const VERSION = '1.2.3'

function check(id: string, level: Level, clause = '§4.1'): CheckDefinition {
  return { id, level, clauses: [clause], area: id.split('.')[0]!, title: `does ${id}`, run: async () => {} }
}
const CATALOGUE = [
  check('auth.missing-key', 'MUST', '§5.5'),
  check('records.schema', 'MUST', '§2'),
  check('errors.no-5xx', 'SHOULD', '§7.8'),
  check('lists.last-page', 'INFO'),
]
const INSTALLED: InstalledSuite = { catalogue: CATALOGUE, toolVersion: VERSION, specDigest: SPEC }
const PRODUCT: ProductInfo = {
  product: 'Acme CRM',
  version: '2026.1',
  vendor: 'Acme',
  contact: 'crm@acme.example',
  description: 'SaaS, EU region, staging workspace',
}

function rowsFor(statuses: Partial<Record<string, CheckResult['status']>> = {}): CheckResult[] {
  return CATALOGUE.map((c) =>
    makeCheckResult({
      id: c.id,
      level: c.level,
      clause: c.clauses[0],
      clauses: c.clauses,
      area: c.area,
      title: c.title,
      status: statuses[c.id] ?? 'passed',
      observations: c.level === 'INFO' ? { lastPageCursor: 'null' } : {},
    }),
  )
}

let root: string
let counter = 0

/** A run folder as certify's run writes it, then a submission assembled from it. */
async function submission(rows: CheckResult[], edit: (report: CertifiedReport) => void = () => {}): Promise<string> {
  const runDir = join(root, `run-${++counter}`)
  const base = buildRunReport(
    makeReportInput(rows, {
      tool: { name: 'crm-conformance', version: VERSION },
      spec: { digest: SPEC, file: 'spec/crm-api-spec.md' },
      profile: 'full',
      replay: 'crm-conformance run --seed 424242 --profile full',
    }),
  )
  const report: CertifiedReport = { ...base, certification: certificationBlock(rows, CATALOGUE, { suiteVersion: VERSION, specDigest: SPEC }) }
  edit(report)
  const { mkdir } = await import('node:fs/promises')
  await mkdir(runDir, { recursive: true })
  await writeFile(join(runDir, 'report.json'), toReportJson(report))
  await writeFile(join(runDir, 'report.html'), renderHtml(report))
  await writeFile(join(runDir, 'junit.xml'), renderJunit(report))
  const out = join(root, `submission-${counter}`)
  await assembleSubmission(runDir, out, PRODUCT, { code: { digest: '0'.repeat(64), files: 0, tree: 'test' }, catalogue: CATALOGUE })
  return out
}

/** A dishonest vendor's edit: change report.json, then write a fresh manifest so the digests match again. */
async function editReport(dir: string, edit: (report: any) => void): Promise<void> {
  const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8'))
  edit(report)
  await writeFile(join(dir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`)
  await writeManifest(
    dir,
    (await readFile(join(dir, MANIFEST_FILE), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => l.slice(66)),
  )
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'crm-verify-'))
})
afterAll(async () => {
  await rm(root, { recursive: true, force: true })
})

describe('verifySubmission', () => {
  it('accepts an intact, compliant submission and says what it checked', async () => {
    const dir = await submission(rowsFor())
    const result = await verifySubmission(dir, INSTALLED)
    expect(result.problems).toEqual([])
    expect(result).toMatchObject({ accepted: true, verdict: 'compliant', suiteVersion: VERSION, specDigest: SPEC, product: PRODUCT })
    expect(result.manifestDigest).toMatch(/^[0-9a-f]{64}$/)
    expect(result.confirmed).toContain('all 3 certifying checks (MUST and SHOULD) have one row with a verdict')
  })

  it('accepts that a SHOULD failed (the verdict stays compliant)', async () => {
    const result = await verifySubmission(await submission(rowsFor({ 'errors.no-5xx': 'failed' })), INSTALLED)
    expect(result).toMatchObject({ accepted: true, verdict: 'compliant', problems: [] })
  })

  it('refuses an intact non-compliant or partial submission, with the reasons, but finds no problem in it', async () => {
    const failed = await verifySubmission(await submission(rowsFor({ 'auth.missing-key': 'failed' })), INSTALLED)
    expect(failed).toMatchObject({ accepted: false, verdict: 'non-compliant', problems: [] })
    expect(failed.verdictReasons).toEqual(['MUST auth.missing-key (§5.5) failed: status is 500, expected 404 (§5.7)'])
    const partial = await verifySubmission(await submission(rowsFor({ 'records.schema': 'skipped' })), INSTALLED)
    expect(partial).toMatchObject({ accepted: false, verdict: 'partial', problems: [] })
  })

  it('refuses a file changed after the run, naming it', async () => {
    const dir = await submission(rowsFor())
    const text = await readFile(join(dir, 'report.json'), 'utf8')
    // A row's notes: shown in no rendered file (junit.xml carries the times, so a time would show).
    const edited = text.replace(/"notes": \[\]/, '"notes": ["edited"]')
    expect(edited).not.toBe(text)
    await writeFile(join(dir, 'report.json'), edited)
    const result = await verifySubmission(dir, INSTALLED)
    expect(result.accepted).toBe(false)
    expect(result.problems).toEqual([
      expect.stringMatching(/^report\.json was modified after the run: its SHA-256 is [0-9a-f]{64}, MANIFEST\.sha256 says [0-9a-f]{64}$/),
    ])
    // A change that shows in the rendered files is named again for each: the digest, and every file that no longer matches.
    await writeFile(join(dir, 'report.json'), text.replace('"seed": 424242', '"seed": 424243'))
    expect((await verifySubmission(dir, INSTALLED)).problems).toEqual([
      expect.stringMatching(/^report\.json was modified after the run/),
      'README.md is not what certify renders from report.json and PRODUCT.json',
      'junit.xml is not what the run renders from report.json',
    ])
  })

  it('refuses a file added, a file removed, a missing manifest', async () => {
    const added = await submission(rowsFor())
    await writeFile(join(added, 'NOTES.md'), 'all good\n')
    expect((await verifySubmission(added, INSTALLED)).problems).toEqual(['NOTES.md is not listed in MANIFEST.sha256: it was added after the run'])
    const removed = await submission(rowsFor())
    await rm(join(removed, 'junit.xml'))
    expect((await verifySubmission(removed, INSTALLED)).problems).toEqual(['junit.xml is listed in MANIFEST.sha256 but missing from the folder'])
    const unsigned = await submission(rowsFor())
    await rm(join(unsigned, MANIFEST_FILE))
    expect((await verifySubmission(unsigned, INSTALLED)).problems).toEqual(['MANIFEST.sha256 is missing: nothing proves the files are those of the run'])
  })

  it('refuses a waiver, even with a fresh manifest', async () => {
    const dir = await submission(rowsFor({ 'auth.missing-key': 'failed' }))
    await editReport(dir, (r) => {
      r.checks[0].waived = { reason: 'vendor ticket 12' }
    })
    const result = await verifySubmission(dir, INSTALLED)
    expect(result.accepted).toBe(false)
    expect(result.problems).toContain('the run used waivers (auth.missing-key); certification admits none')
  })

  it('refuses a run with a selection: a missing certifying check, or no certification block', async () => {
    const dir = await submission(rowsFor())
    await editReport(dir, (r) => {
      r.checks = r.checks.filter((c: CheckResult) => c.id !== 'records.schema')
    })
    const result = await verifySubmission(dir, INSTALLED)
    expect(result.problems).toContain('MUST records.schema (§2) has no row: a certifying check is missing from report.json')
    const plain = await submission(rowsFor())
    await editReport(plain, (r) => {
      delete r.certification
      r.replay += ' --only auth'
    })
    expect((await verifySubmission(plain, INSTALLED)).problems).toContain(
      'report.json has no certification block: it was written by `run`, not `certify` (a selection, a profile or waivers may have been used)',
    )
  })

  it('refuses a verdict that does not follow from the rows, and a demoted level', async () => {
    const dir = await submission(rowsFor({ 'auth.missing-key': 'failed' }))
    await editReport(dir, (r) => {
      r.verdict = 'compliant'
      r.certification.verdict = 'compliant'
      r.checks[0].level = 'INFO'
    })
    const result = await verifySubmission(dir, INSTALLED)
    expect(result.problems).toEqual(
      expect.arrayContaining([
        'auth.missing-key is reported at level INFO; this suite version declares it MUST',
        "report.json's counts (summary) do not match its rows",
        'README.md is not what certify renders from report.json and PRODUCT.json',
      ]),
    )
    // Demoted to INFO, the rows now do give compliant: the level check is what catches it.
    const relabelled = await submission(rowsFor({ 'auth.missing-key': 'failed' }))
    await editReport(relabelled, (r) => {
      r.verdict = 'compliant'
    })
    expect((await verifySubmission(relabelled, INSTALLED)).problems).toContain('report.json says compliant, but its rows give non-compliant')
  })

  it('refuses a submission of another suite version, or of a modified spec', async () => {
    const dir = await submission(rowsFor())
    const other = await verifySubmission(dir, { ...INSTALLED, toolVersion: '1.3.0' })
    expect(other.problems).toEqual([
      'the submission was made with crm-conformance 1.2.3; this is 1.3.0. Its certifying checks are those of 1.2.3: verify it with crm-conformance 1.2.3 (its README.md, step 1, says how to install that version)',
    ])
    const spec = await verifySubmission(dir, { ...INSTALLED, specDigest: 'd'.repeat(64) })
    expect(spec.problems).toEqual([
      `report.json names spec digest ${SPEC}, but crm-conformance 1.2.3 ships the spec with digest ${'d'.repeat(64)}: the run used a modified suite`,
    ])
  })

  it('refuses a secret in any file, without printing it', async () => {
    const dir = await submission(rowsFor())
    const key = 'crm_ws_acme_Q7fT2mK9xLp4Rv8Zb1Nc6Hd3Wj5Ys0Ae'
    await appendFile(join(dir, 'README.md'), `\nexport CRM_API_KEY=${key}\n`)
    await writeManifest(dir, ['report.json', 'report.html', 'junit.xml', 'PRODUCT.json', 'README.md', 'CAPABILITIES.md', 'badge.json'])
    const result = await verifySubmission(dir, INSTALLED)
    expect(result.problems).toContain(
      'possible secret: README.md line 65 holds what looks like an API key (<prefix>_<workspace>_<secret>): crm_ws… (44 characters)'.replace(
        'line 65',
        `line ${(await readFile(join(dir, 'README.md'), 'utf8')).split('\n').findIndex((l) => l.includes('crm_ws_acme')) + 1}`,
      ),
    )
    expect(result.problems.join('\n')).not.toContain('Q7fT2mK9')
  })

  it('refuses junit.xml that is not what report.json renders', async () => {
    const dir = await submission(rowsFor())
    const junit = await readFile(join(dir, 'junit.xml'), 'utf8')
    const edited = junit.replace(/(<testcase name="records\.schema[^"]*"[^>]*>)/, '$1<failure message="x"/>')
    expect(edited).not.toBe(junit)
    await writeFile(join(dir, 'junit.xml'), edited)
    await writeManifest(dir, ['report.json', 'report.html', 'junit.xml', 'PRODUCT.json', 'README.md', 'CAPABILITIES.md', 'badge.json'])
    // The fresh manifest no longer helps: the statement written with the run names both files.
    expect((await verifySubmission(dir, INSTALLED)).problems).toEqual([
      expect.stringMatching(/^attestation\.intoto\.json: junit\.xml is not the file the statement covers/),
      expect.stringMatching(/^attestation\.intoto\.json: MANIFEST\.sha256 is not the file the statement covers/),
      'junit.xml is not what the run renders from report.json',
    ])
  })

  it('refuses a folder that is not one', async () => {
    expect((await verifySubmission(join(root, 'nope'), INSTALLED)).problems).toEqual([`${join(root, 'nope')} is not a folder`])
  })
})
