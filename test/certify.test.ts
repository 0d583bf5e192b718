// The certification path end to end, through the real CLI against the embedded reference server: a certify
// run gives a compliant submission that verify-submission accepts; any edit, a waiver or a selection makes it
// refuse the folder with a reason; a fault-injected server gives non-compliant, naming the failed clause.
// One certify run of each kind is shared by every case (a tampering case edits a copy).
import { execFile, execFileSync } from 'node:child_process'
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { STATEMENT_FILE } from '../src/certify/attestation.ts'
import { MANIFEST_FILE, sha256, writeManifest } from '../src/certify/manifest.ts'
import type { ProductInfo } from '../src/certify/product.ts'
import { certifyingChecks, type CertifiedReport } from '../src/certify/profile.ts'
import { SUBMISSION_FILES } from '../src/certify/readme.ts'
import { verifySubmission, type InstalledSuite } from '../src/certify/verify.ts'
import { specDigest } from '../src/spec/spec-text.ts'
import { PROJECT_ROOT, TOOL_VERSION } from '../src/version.ts'
import { catalogue } from '../suites/index.ts'

const BIN = join(PROJECT_ROOT, 'bin', 'crm-conformance-ts.mjs')
const RUN_TIMEOUT_MS = 240_000
/** A fault a MUST check catches: a request without a key answered 403 instead of 401 (§5.5). */
const FAULT = 'auth.missing-key-403'
const INSTALLED: InstalledSuite = { catalogue, toolVersion: TOOL_VERSION, specDigest: specDigest() }
const PRODUCT: ProductInfo = {
  product: 'Reference CRM',
  version: '1.0.0-test',
  vendor: 'crm-conformance tests',
  contact: 'tests@example.com',
  description: "The embedded reference server, certified by the project's own tests.",
}

interface CliResult {
  code: number
  stdout: string
  stderr: string
}

/** The CLI as a vendor runs it: a child process, in a folder without .env, with no CRM_* variable set. */
function cli(args: string[], cwd: string): Promise<CliResult> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('CRM_')))
  return new Promise((resolvePromise) => {
    execFile(process.execPath, [BIN, ...args], { cwd, env, maxBuffer: 64 * 1024 * 1024, timeout: RUN_TIMEOUT_MS }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 99) : 0
      resolvePromise({ code, stdout, stderr })
    })
  })
}

let root: string
let compliant: { dir: string; run: CliResult }
let faulty: { dir: string; run: CliResult }
let subset: { dir: string; run: CliResult }
let copies = 0

/** A copy of the compliant submission to tamper with. */
async function copyOfCompliant(): Promise<string> {
  const dir = join(root, `copy-${++copies}`)
  await cp(compliant.dir, dir, { recursive: true })
  return dir
}

async function readReport(dir: string): Promise<CertifiedReport> {
  return JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as CertifiedReport
}

/** A dishonest edit of report.json followed by a fresh manifest, so that the digests alone no longer tell. */
async function rewriteReport(dir: string, edit: (report: any) => void): Promise<void> {
  const report = await readReport(dir)
  edit(report)
  await writeFile(join(dir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`)
  await writeManifest(dir, Object.keys(SUBMISSION_FILES))
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'crm-certify-e2e-'))
  await writeFile(join(root, 'product.json'), JSON.stringify(PRODUCT))
  const certify = (name: string, extra: string[]) =>
    cli(['certify', '--out', join(root, name), '--product-file', join(root, 'product.json'), '--seed', '20260101', '--quiet', '--embedded', ...extra], root)
  const [c, f, s] = await Promise.all([
    certify('compliant', []),
    certify('faulty', ['--fault', FAULT]),
    cli(['run', '--embedded', '--only', 'discovery', '--report-dir', join(root, 'subset-run'), '--quiet'], root),
  ])
  compliant = { dir: join(root, 'compliant'), run: c }
  faulty = { dir: join(root, 'faulty'), run: f }
  subset = { dir: join(root, 'subset-run'), run: s }
}, RUN_TIMEOUT_MS)

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true })
})

describe('certify against the embedded reference server', () => {
  it('writes a compliant submission and exits 0, printing the manifest digest to publish', async () => {
    expect(compliant.run.stderr).toBe('')
    expect(compliant.run.code, compliant.run.stdout).toBe(0)
    expect((await readdir(compliant.dir)).sort()).toEqual([...Object.keys(SUBMISSION_FILES), MANIFEST_FILE, STATEMENT_FILE].sort())
    const manifestDigest = sha256(await readFile(join(compliant.dir, MANIFEST_FILE)))
    expect(compliant.run.stdout).toContain(`CERTIFICATION COMPLIANT: Reference CRM 1.0.0-test, crm-conformance ${TOOL_VERSION}, spec sha256 ${specDigest()}`)
    expect(compliant.run.stdout).toContain(`MANIFEST.sha256 sha256: ${manifestDigest}`)
  })

  it('freezes the certifying profile into report.json: suite version, spec digest, every MUST and SHOULD check, no selection, no waiver', async () => {
    const report = await readReport(compliant.dir)
    const ids = certifyingChecks(catalogue).map((c) => c.id)
    expect(report.certification).toMatchObject({
      suiteVersion: TOOL_VERSION,
      specDigest: specDigest(),
      profile: 'full',
      selection: 'none',
      waivers: 'none',
      verdict: 'compliant',
      verdictReasons: [],
      notRun: [],
    })
    expect(report.certification.checkIds).toEqual(ids)
    const rows = new Set(report.checks.map((c) => c.id))
    expect(ids.filter((id) => !rows.has(id))).toEqual([])
    expect(report.verdict).toBe('compliant')
  })

  it('writes PRODUCT.json, a badge, a capability page and a README with the steps to reproduce and verify', async () => {
    const read = (name: string) => readFile(join(compliant.dir, name), 'utf8')
    expect(JSON.parse(await read('PRODUCT.json'))).toEqual(PRODUCT)
    const report = await readReport(compliant.dir)
    expect(JSON.parse(await read('badge.json'))).toEqual({
      schemaVersion: 1,
      label: `CRM API conformance (suite ${TOOL_VERSION})`,
      message: `compliant · ${report.summary.passed}/${report.summary.total}`,
      color: 'brightgreen',
    })
    const capabilities = await read('CAPABILITIES.md')
    for (const heading of [
      '## Update method (§4.1)',
      '## Success status codes (§4.1)',
      '## Delete responses (status and body) (§4.1)',
      '## nextCursor on the last page (§4.1)',
      '## RateLimit-Reset format (§8)',
      '## Same Idempotency-Key, different body (§4.1)',
      '## State names seen (§3)',
    ]) {
      expect(capabilities).toContain(heading)
    }
    expect(capabilities).toMatch(/\| update\.method \| \\\["PATCH"\\\] \|/)
    const readme = await read('README.md')
    expect(readme).toContain('| verdict | **compliant** |')
    expect(readme).toContain(`crm-conformance certify --seed 20260101 --embedded --product-file PRODUCT.json --out submission`)
    expect(readme).toContain(`crm-conformance verify-submission <this folder>`)
    expect(readme).toContain(`npm install --global ./crm-conformance-${TOOL_VERSION}.tgz`)
  })

  it('is accepted by verify-submission (exit 0) and by sha256sum -c', async () => {
    const verified = await cli(['verify-submission', compliant.dir], root)
    expect(verified.code, verified.stdout).toBe(0)
    expect(verified.stdout).toContain(`ACCEPTED: compliant with the CRM API spec sha256 ${specDigest()}, crm-conformance ${TOOL_VERSION}`)
    expect(verified.stdout).not.toContain('✗')
    let sha256sum = true
    try {
      execFileSync('sha256sum', ['--version'], { stdio: 'ignore' })
    } catch {
      sha256sum = false
    }
    if (sha256sum) expect(execFileSync('sha256sum', ['-c', MANIFEST_FILE], { cwd: compliant.dir, encoding: 'utf8' })).toContain('report.json: OK')
  })
})

describe('verify-submission refuses a tampered submission with a clear reason', () => {
  it('an edit of any byte of report.json', async () => {
    const dir = await copyOfCompliant()
    const original = await readFile(join(dir, 'report.json'))
    // Bytes spread over the whole file: the first, the verdict, rows, evidence, the last.
    // And inside a key every row has: a renamed "clauses" must be a problem found, not a crash of the renderer.
    const positions = [
      0,
      original.indexOf('"verdict"'),
      original.indexOf('"clauses"') + 3,
      Math.floor(original.length / 3),
      Math.floor((2 * original.length) / 3),
      original.length - 1,
    ]
    for (const at of positions) {
      const edited = Buffer.from(original)
      edited[at] = edited[at] === 0x20 ? 0x09 : 0x20
      await writeFile(join(dir, 'report.json'), edited)
      const result = await verifySubmission(dir, INSTALLED)
      expect(result.accepted, `byte ${at}`).toBe(false)
      expect(result.problems[0], `byte ${at}`).toMatch(
        /^report\.json was modified after the run: its SHA-256 is [0-9a-f]{64}, MANIFEST\.sha256 says [0-9a-f]{64}$/,
      )
    }
    const verified = await cli(['verify-submission', dir], root)
    expect(verified.code).toBe(1)
    expect(verified.stdout).toContain('✗ report.json was modified after the run')
    expect(verified.stdout).toMatch(/REFUSED: (1 problem|\d+ problems)\b/)
  })

  it('a waiver: certify refuses --waivers, and a waiver written into report.json is found even under a fresh manifest', async () => {
    const refused = await cli(['certify', '--waivers', 'waivers.json', '--out', join(root, 'never')], root)
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('--waivers is not allowed')
    const dir = await copyOfCompliant()
    await rewriteReport(dir, (r) => {
      r.checks[0].status = 'failed'
      r.checks[0].waived = { reason: 'vendor ticket 12' }
    })
    const result = await verifySubmission(dir, INSTALLED)
    expect(result.accepted).toBe(false)
    expect(result.problems).toContain(`the run used waivers (${(await readReport(dir)).checks[0]!.id}); certification admits none`)
  })

  it('a selection: certify refuses --only, and a report of run --only is no certification', async () => {
    const refused = await cli(['certify', '--only', 'auth', '--out', join(root, 'never')], root)
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('certify runs every MUST and SHOULD check with the full profile and no waiver: --only is not allowed')
    // A vendor packages an everyday `run --only` report as if it were a submission.
    expect(subset.run.code, subset.run.stdout).toBe(0)
    const dir = join(root, 'subset-submission')
    await cp(compliant.dir, dir, { recursive: true })
    for (const name of ['report.json', 'report.html', 'junit.xml']) await cp(join(subset.dir, name), join(dir, name))
    await writeManifest(dir, Object.keys(SUBMISSION_FILES))
    const verified = await cli(['verify-submission', dir], root)
    expect(verified.code).toBe(1)
    expect(verified.stdout).toContain('✗ report.json has no certification block: it was written by `run`, not `certify`')
  })

  it('a certifying check removed from the rows', async () => {
    const dir = await copyOfCompliant()
    const removed = (await readReport(dir)).checks.find((c) => c.level === 'MUST')!
    await rewriteReport(dir, (r) => {
      r.checks = r.checks.filter((c: { id: string }) => c.id !== removed.id)
    })
    const result = await verifySubmission(dir, INSTALLED)
    expect(result.problems).toContain(`MUST ${removed.id} (${removed.clause}) has no row: a certifying check is missing from report.json`)
  })

  it('a secret in a file', async () => {
    const dir = await copyOfCompliant()
    await writeFile(
      join(dir, 'README.md'),
      `${await readFile(join(dir, 'README.md'), 'utf8')}\nexport CRM_API_KEY=crm_ws_main_Q7fT2mK9xLp4Rv8Zb1Nc6Hd3Wj5Ys0Ae\n`,
    )
    await writeManifest(dir, Object.keys(SUBMISSION_FILES))
    const verified = await cli(['verify-submission', dir], root)
    expect(verified.code).toBe(1)
    expect(verified.stdout).toMatch(/✗ possible secret: README\.md line \d+ holds what looks like an API key/)
    expect(verified.stdout).not.toContain('Q7fT2mK9')
  })
})

describe('certify against a fault-injected server', () => {
  it('gives non-compliant naming the failed clause, exits 1, and the submission verifies as intact but not compliant', async () => {
    expect(faulty.run.code, faulty.run.stdout).toBe(1)
    expect(faulty.run.stdout).toMatch(/CERTIFICATION NON-COMPLIANT: Reference CRM 1\.0\.0-test/)
    expect(faulty.run.stdout).toMatch(/MUST \S+ \(§5\.5\) failed: status is 403, expected 401/)
    const report = await readReport(faulty.dir)
    expect(report.certification.verdict).toBe('non-compliant')
    expect(report.certification.verdictReasons.length).toBeGreaterThan(0)
    for (const reason of report.certification.verdictReasons) expect(reason).toMatch(/^MUST \S+ \(§5\.5\) failed/)
    expect(await readFile(join(faulty.dir, 'README.md'), 'utf8')).toMatch(/## What did not pass\n\n- MUST \S+ \(§5\.5\) failed/)
    expect(JSON.parse(await readFile(join(faulty.dir, 'badge.json'), 'utf8'))).toMatchObject({
      color: 'red',
      message: expect.stringMatching(/^non-compliant · \d+\/\d+$/),
    })

    const verified = await cli(['verify-submission', faulty.dir], root)
    expect(verified.code).toBe(1)
    expect(verified.stdout).not.toContain('✗')
    expect(verified.stdout).toContain('REFUSED: the submission is intact, but its verdict is non-compliant, not compliant:')
    expect(verified.stdout).toMatch(/\(§5\.5\) failed/)
  })
})
