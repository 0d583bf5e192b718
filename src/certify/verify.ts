// verify-submission: what a reviewer or a bot does with a submission folder. Every problem is collected
// (never only the first), each one a sentence that says what is wrong.
//
// It proves: the files are those the manifest lists, byte for byte, and nothing else is in the folder; the
// run was a certification (full profile, no selection, no waiver) of the installed suite version; every
// certifying check of that version's catalogue has exactly one row with a verdict, at the catalogue's level;
// the verdicts (report, certification) and counts follow from the rows by the report builder's own rules;
// README.md, CAPABILITIES.md and badge.json are what certify renders from report.json and PRODUCT.json;
// junit.xml is what report.json renders; no file holds a credential-shaped value.
// It cannot prove that the rows came from a real run against the product: only re-running does (README.md
// gives the steps), and the manifest digest the vendor published pins the folder to what they ran.
import { readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { CheckDefinition, CheckResult } from '../checks/types.ts'
import { summarize, verdictOf } from '../report/build.ts'
import { renderJunit } from '../report/junit.ts'
import type { Verdict } from '../report/types.ts'
import { MANIFEST_FILE, parseManifest, sha256 } from './manifest.ts'
import { validateProduct, type ProductInfo } from './product.ts'
import { CERTIFYING_PROFILE, certificationVerdictOf, certifyingChecks, notRunOf, type CertifiedReport } from './profile.ts'
import { SUBMISSION_FILES } from './readme.ts'
import { describeFinding, findSecretShapes } from './secret-patterns.ts'
import { STATUSES } from '../vocabulary.ts'
import { renderedFiles } from './submission.ts'
import { ATTESTATION_FILES, STATEMENT_FILE } from './attestation.ts'
import { checkAttestation, type SignerPolicy } from './signature.ts'

/** What is installed: the suite whose catalogue defines "every certifying check". */
export interface InstalledSuite {
  catalogue: readonly CheckDefinition[]
  toolVersion: string
  specDigest: string
  /** Who must have signed the statement (verify-submission's --key, --certificate-identity…, --require-signature). */
  signer?: SignerPolicy
}

export interface VerifyResult {
  /** True only when there is no problem and the verdict is compliant. */
  accepted: boolean
  /** What makes the folder unusable as evidence (tampering, an incomplete or uncertified run, a secret). */
  problems: string[]
  /** What was checked and held, one line each. */
  confirmed: string[]
  verdict?: Verdict
  verdictReasons: string[]
  product?: ProductInfo
  suiteVersion?: string
  specDigest?: string
  /** SHA-256 of MANIFEST.sha256, to compare with the one the vendor published. */
  manifestDigest?: string
  /** Who signed the statement, once verified (attestation.sigstore.json). */
  signer?: string
}

/** Deep equality of JSON values, whatever the key order (report.json orders keys for reading, not as built). */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical)
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
  )
}
const same = (a: unknown, b: unknown) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b))

function listDiff(label: string, actual: readonly string[], expected: readonly string[]): string[] {
  const a = new Set(actual)
  const e = new Set(expected)
  const missing = expected.filter((x) => !a.has(x))
  const extra = actual.filter((x) => !e.has(x))
  const out: string[] = []
  if (missing.length)
    out.push(
      `${label} lacks ${missing.length} certifying check(s) of this suite version: ${missing.slice(0, 20).join(', ')}${missing.length > 20 ? ', …' : ''}`,
    )
  if (extra.length)
    out.push(
      `${label} names ${extra.length} check(s) that are not certifying checks of this suite version: ${extra.slice(0, 20).join(', ')}${extra.length > 20 ? ', …' : ''}`,
    )
  return out
}

/** What the steps share: the folder's files as read, the result they add to, and what earlier steps found. */
interface Verification {
  dir: string
  installed: InstalledSuite
  result: VerifyResult
  problems: string[]
  confirmed: string[]
  /** Every plain file of the folder by name, as text. */
  texts: Map<string, string>
  present: Set<string>
  product?: ProductInfo
  report?: CertifiedReport
  /** The submission was made by the installed suite version: its catalogue judges the rows. */
  sameVersion?: boolean
  /** Files the manifest step already named (changed, missing, added): the statement's step does not name them again. */
  named: Set<string>
}

/** One step of the verification; `stop` when what follows cannot be judged (no folder, no report, no certification). */
type Step = (v: Verification) => Promise<'stop' | void> | 'stop' | void

/** A report.json that a step reached (the steps after `certificationOfInstalledSuite` run only with one). */
const reportOf = (v: Verification) => v.report!
const certificationOf = (v: Verification) => v.report!.certification

async function readFolder(v: Verification): Promise<'stop' | void> {
  const { dir, problems } = v
  const info = await stat(dir).catch(() => undefined)
  if (!info?.isDirectory()) {
    problems.push(`${dir} is not a folder`)
    return 'stop'
  }
  const entries = await readdir(dir, { withFileTypes: true })
  v.present = new Set(entries.filter((e) => e.isFile()).map((e) => e.name))
  for (const e of entries) if (!e.isFile()) problems.push(`${e.name} is not a plain file: a submission holds only the files its manifest lists`)
  for (const name of v.present) v.texts.set(name, await readFile(join(dir, name), 'utf8'))
}

/** 1. The files are those the manifest lists, unmodified, and nothing else is in the folder. */
async function manifestHolds(v: Verification): Promise<void> {
  const { dir, problems, confirmed, result, texts, present } = v
  const manifestText = texts.get(MANIFEST_FILE)
  if (manifestText === undefined) {
    problems.push(`${MANIFEST_FILE} is missing: nothing proves the files are those of the run`)
    v.named.add(MANIFEST_FILE)
  } else {
    result.manifestDigest = sha256(await readFile(join(dir, MANIFEST_FILE)))
    const manifest = parseManifest(manifestText)
    problems.push(...manifest.problems)
    const listed = new Set(manifest.entries.map((e) => e.file))
    let intact = manifest.problems.length === 0
    for (const entry of manifest.entries) {
      if (!present.has(entry.file)) {
        problems.push(`${entry.file} is listed in ${MANIFEST_FILE} but missing from the folder`)
        v.named.add(entry.file)
        intact = false
        continue
      }
      const actual = sha256(await readFile(join(dir, entry.file)))
      if (actual !== entry.sha256) {
        problems.push(`${entry.file} was modified after the run: its SHA-256 is ${actual}, ${MANIFEST_FILE} says ${entry.sha256}`)
        v.named.add(entry.file)
        intact = false
      }
    }
    for (const name of present) {
      if (name !== MANIFEST_FILE && !ATTESTATION_FILES.includes(name) && !listed.has(name)) {
        problems.push(`${name} is not listed in ${MANIFEST_FILE}: it was added after the run`)
        v.named.add(name)
        intact = false
      }
    }
    for (const name of Object.keys(SUBMISSION_FILES)) {
      if (!listed.has(name)) {
        problems.push(`${name} is not listed in ${MANIFEST_FILE}: every submission has it`)
        intact = false
      }
    }
    if (intact) confirmed.push(`${MANIFEST_FILE}: ${manifest.entries.length} files, every digest matches, no other file`)
  }
}

/** 1b. The in-toto statement covers exactly the folder's files; its signature, if any, is the named signer's. */
async function attestationHolds(v: Verification): Promise<void> {
  const digests = new Map<string, string>()
  for (const name of [...v.present].sort()) if (!ATTESTATION_FILES.includes(name)) digests.set(name, sha256(await readFile(join(v.dir, name))))
  let report: CertifiedReport | undefined
  try {
    const parsed = JSON.parse(v.texts.get('report.json') ?? 'null') as CertifiedReport | null
    if (parsed?.certification && Array.isArray(parsed.checks)) report = parsed
  } catch {
    // report.json's own step says what is wrong with it.
  }
  const checked = await checkAttestation(v.texts, digests, report, v.installed.catalogue, v.installed.signer ?? {})
  // One line per file: a file the manifest step named (changed, missing, added) is not named again here.
  const again = (p: string) => [...v.named].some((name) => p.startsWith(`${STATEMENT_FILE}: ${name} `))
  v.problems.push(...checked.problems.filter((p) => !again(p)))
  v.confirmed.push(...checked.confirmed)
  v.result.signer = checked.signer
}

/** 2. Nothing in the folder holds a secret (by shape: the values are not known here). */
function noSecretShapes(v: Verification): void {
  const { problems, confirmed, texts } = v
  const findings = [...texts.entries()].flatMap(([name, text]) => findSecretShapes(text, name))
  for (const f of findings) problems.push(`possible secret: ${describeFinding(f)}`)
  if (findings.length === 0) confirmed.push(`no file holds a bearer token, whsec_ secret, §5.2-shaped key or private key`)
}

/** 3. PRODUCT.json. */
function productIsValid(v: Verification): void {
  const { problems, result, texts } = v
  const productText = texts.get('PRODUCT.json')
  if (productText === undefined) problems.push('PRODUCT.json is missing')
  else {
    let doc: unknown
    try {
      doc = JSON.parse(productText)
    } catch (error) {
      problems.push(`PRODUCT.json is not JSON: ${(error as Error).message}`)
    }
    if (doc !== undefined) {
      const checked = validateProduct(doc)
      problems.push(...checked.problems)
      v.product = checked.product
      result.product = v.product
    }
  }
}

/** 4. report.json: a certification of the installed suite version. */
function certificationOfInstalledSuite(v: Verification): 'stop' | void {
  const { problems, confirmed, result, texts, installed } = v
  const reportText = texts.get('report.json')
  if (reportText === undefined) {
    problems.push('report.json is missing')
    return 'stop'
  }
  let report: CertifiedReport
  try {
    report = JSON.parse(reportText) as CertifiedReport
  } catch (error) {
    problems.push(`report.json is not JSON: ${(error as Error).message}`)
    return 'stop'
  }
  if (report?.tool?.name !== 'crm-conformance' || !Array.isArray(report.checks) || typeof report.summary !== 'object') {
    problems.push('report.json is not a crm-conformance report')
    return 'stop'
  }
  const cert = report.certification
  if (!cert || typeof cert !== 'object') {
    problems.push('report.json has no certification block: it was written by `run`, not `certify` (a selection, a profile or waivers may have been used)')
    return 'stop'
  }
  v.report = report
  result.suiteVersion = cert.suiteVersion
  result.specDigest = cert.specDigest
  if (cert.suiteVersion !== report.tool.version)
    problems.push(`the certification names suite ${cert.suiteVersion} but the report was written by ${report.tool.version}`)
  if (cert.specDigest !== report.spec?.digest)
    problems.push(`the certification names spec digest ${cert.specDigest} but the report names ${report.spec?.digest}`)
  const sameVersion = report.tool.version === installed.toolVersion
  v.sameVersion = sameVersion
  if (!sameVersion) {
    problems.push(
      `the submission was made with crm-conformance ${report.tool.version}; this is ${installed.toolVersion}. Its certifying checks are those of ${report.tool.version}: verify it with crm-conformance ${report.tool.version} (its README.md, step 1, says how to install that version)`,
    )
  } else if (report.spec?.digest !== installed.specDigest) {
    problems.push(
      `report.json names spec digest ${report.spec?.digest}, but crm-conformance ${installed.toolVersion} ships the spec with digest ${installed.specDigest}: the run used a modified suite`,
    )
  } else confirmed.push(`suite crm-conformance ${installed.toolVersion}, spec sha256 ${installed.specDigest}`)
}

/** 5. The certifying profile: full, no selection, no waiver. */
function certifyingProfile(v: Verification): void {
  const { problems, confirmed } = v
  const report = reportOf(v)
  const cert = certificationOf(v)
  const before = problems.length
  if (report.profile !== CERTIFYING_PROFILE || cert.profile !== CERTIFYING_PROFILE)
    problems.push(`the run used the ${report.profile} profile; certification needs ${CERTIFYING_PROFILE}`)
  if (cert.selection !== 'none' || /\s--(only|skip)\b/.test(String(report.replay ?? '')))
    problems.push('the run selected checks (--only / --skip); certification runs every check')
  // A report that says its own scope was not the whole catalogue is not a certification.
  if (report.scope && report.scope.complete !== true)
    problems.push('report.json says its scope was not complete (a selection or a narrower profile); certification runs every check')
  const waived = report.checks.filter((c) => c && c.waived)
  if (cert.waivers !== 'none' || waived.length > 0 || (report.summary?.waived ?? 0) > 0 || 'waivers' in report) {
    problems.push(`the run used waivers${waived.length ? ` (${waived.map((c) => c.id).join(', ')})` : ''}; certification admits none`)
  }
  if (problems.length === before) confirmed.push(`profile ${CERTIFYING_PROFILE}, no selection, no waiver`)
}

/** 6. Every certifying check of this suite version has one row with a verdict, at the catalogue's level. */
function everyCertifyingCheckHasARow(v: Verification): void {
  const { problems, confirmed, installed } = v
  const cert = certificationOf(v)
  const rows = reportOf(v).checks as CheckResult[]
  if (v.sameVersion) {
    const before = problems.length
    const certifying = certifyingChecks(installed.catalogue)
    const expectedIds = certifying.map((c) => c.id)
    problems.push(...listDiff('the certification block', Array.isArray(cert.checkIds) ? cert.checkIds : [], expectedIds))
    const known = new Map(installed.catalogue.map((c) => [c.id, c]))
    const count = new Map<string, number>()
    for (const row of rows) count.set(row?.id, (count.get(row?.id) ?? 0) + 1)
    for (const check of certifying) {
      const n = count.get(check.id) ?? 0
      if (n === 0) problems.push(`${check.level} ${check.id} (${check.clauses[0] ?? ''}) has no row: a certifying check is missing from report.json`)
    }
    for (const [id, n] of count) if (n > 1) problems.push(`${id} has ${n} rows in report.json`)
    for (const row of rows) {
      const check = known.get(row?.id)
      if (!check) {
        problems.push(`report.json has a row for ${row?.id}, which is not a check of this suite version`)
        continue
      }
      if (!STATUSES.includes(row.status)) problems.push(`${row.id} has no verdict (status ${JSON.stringify(row.status)})`)
      if (row.level !== check.level) problems.push(`${row.id} is reported at level ${row.level}; this suite version declares it ${check.level}`)
      if (!same(row.clauses, check.clauses))
        problems.push(`${row.id} names clauses ${JSON.stringify(row.clauses)}; this suite version declares ${JSON.stringify(check.clauses)}`)
    }
    if (problems.length === before) confirmed.push(`all ${certifying.length} certifying checks (MUST and SHOULD) have one row with a verdict`)
  }
}

/** 7. The verdicts and counts follow from the rows (the report builder's own rules). */
function verdictsFollowFromRows(v: Verification): void {
  const { problems, confirmed, result } = v
  const report = reportOf(v)
  const cert = certificationOf(v)
  const rows = report.checks as CheckResult[]
  const before = problems.length
  const derived = verdictOf(rows)
  if (report.verdict !== derived.verdict || !same(report.verdictReasons, derived.reasons))
    problems.push(`report.json says ${report.verdict}, but its rows give ${derived.verdict}`)
  const certified = certificationVerdictOf(rows)
  if (cert.verdict !== certified.verdict || !same(cert.verdictReasons, certified.reasons))
    problems.push(`the certification says ${cert.verdict}, but the rows give ${certified.verdict}`)
  if (!same(cert.notRun, notRunOf(rows))) problems.push("the certification's list of checks that did not run does not match the rows")
  if (!same(report.summary, summarize(rows))) problems.push("report.json's counts (summary) do not match its rows")
  result.verdict = certified.verdict
  result.verdictReasons = certified.reasons
  if (problems.length === before) confirmed.push(`the verdict ${certified.verdict} and the counts follow from the ${rows.length} rows`)
}

/** A file rendered again from report.json, or a problem: a tampered report.json (a key renamed by one byte) may not render at all. */
function renderedAgain<T>(v: Verification, render: () => T): T | undefined {
  try {
    return render()
  } catch (error) {
    v.problems.push(`report.json cannot be rendered again as the run renders it (${(error as Error).message})`)
    return undefined
  }
}

/** 8. The files certify renders from report.json and PRODUCT.json are exactly that. */
function renderedFilesMatch(v: Verification): void {
  const { problems, confirmed, texts, product } = v
  const report = reportOf(v)
  if (product && v.sameVersion) {
    const before = problems.length
    for (const [name, text] of Object.entries(renderedAgain(v, () => renderedFiles(report, product)) ?? {})) {
      if (name === 'PRODUCT.json') continue
      if (texts.get(name) !== undefined && texts.get(name) !== text) problems.push(`${name} is not what certify renders from report.json and PRODUCT.json`)
    }
    if (problems.length === before) confirmed.push('README.md, CAPABILITIES.md and badge.json match report.json and PRODUCT.json')
  }
}

/** 9. junit.xml and report.html describe the same run: junit.xml is what the run renders from report.json. */
function junitAndHtmlOfTheRun(v: Verification): void {
  const { problems, confirmed, texts } = v
  const report = reportOf(v)
  const junit = texts.get('junit.xml')
  if (junit !== undefined) {
    const again = renderedAgain(v, () => renderJunit(report))
    if (junit === again) confirmed.push('junit.xml is what report.json renders')
    else if (again !== undefined) problems.push('junit.xml is not what the run renders from report.json')
  }
  const html = texts.get('report.html')
  if (html !== undefined && typeof report.runId === 'string' && !html.includes(report.runId))
    problems.push(`report.html is not the report of run ${report.runId}`)
}

/** The verification, in order: every problem is collected; a step that finds nothing left to judge stops the rest. */
const STEPS: readonly Step[] = [
  readFolder,
  manifestHolds,
  attestationHolds,
  noSecretShapes,
  productIsValid,
  certificationOfInstalledSuite,
  certifyingProfile,
  everyCertifyingCheckHasARow,
  verdictsFollowFromRows,
  renderedFilesMatch,
  junitAndHtmlOfTheRun,
]

export async function verifySubmission(dir: string, installed: InstalledSuite): Promise<VerifyResult> {
  const problems: string[] = []
  const confirmed: string[] = []
  const result: VerifyResult = { accepted: false, problems, confirmed, verdictReasons: [] }
  const v: Verification = { dir, installed, result, problems, confirmed, texts: new Map(), present: new Set(), named: new Set() }
  for (const step of STEPS) if ((await step(v)) === 'stop') break
  return finish(result)
}

function finish(result: VerifyResult): VerifyResult {
  result.accepted = result.problems.length === 0 && result.verdict === 'compliant'
  return result
}
