// Assembles a submission folder from a certify run's report folder: the run's report.json, report.html and
// junit.xml byte for byte, then PRODUCT.json, README.md, CAPABILITIES.md and badge.json rendered from
// report.json as written, MANIFEST.sha256 over all of them, and the in-toto statement over all of those
// (attestation.intoto.json, src/certify/attestation.ts), which certify --sign then signs.
import { copyFile, mkdir, readFile, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { renderBadge, type ShieldsEndpointBadge } from '../report/badge.ts'
import { assertNoSecrets, type SecretList } from '../report/secrets.ts'
import type { RunReport } from '../report/types.ts'
import { renderCapabilitiesMarkdown } from './capabilities.ts'
import { MANIFEST_FILE, manifestFor, writeManifest } from './manifest.ts'
import { buildStatement, renderStatement, STATEMENT_FILE, type SuiteCode } from './attestation.ts'
import type { CheckDefinition } from '../checks/types.ts'
import { renderProductJson, type ProductInfo } from './product.ts'
import type { CertificationBlock, CertifiedReport } from './profile.ts'
import { renderSubmissionReadme, SUBMISSION_FILES, type SubmissionFile } from './readme.ts'

/** Copied unchanged from the run's report folder. */
export const RUN_FILES = ['report.json', 'report.html', 'junit.xml'] as const satisfies readonly SubmissionFile[]

/** The badge of a submission: renderBadge's verdict and pass count, labelled with the suite version it holds for. */
export function submissionBadge(report: RunReport & { certification: Pick<CertificationBlock, 'suiteVersion' | 'verdict'> }): ShieldsEndpointBadge {
  const badge = renderBadge({ ...report, verdict: report.certification.verdict })
  return { ...badge, label: `CRM API conformance (suite ${report.certification.suiteVersion})` }
}

export function renderBadgeJson(badge: ShieldsEndpointBadge): string {
  return `${JSON.stringify(badge, null, 2)}\n`
}

/** The files certify renders itself, from report.json's parsed text and the product: verify-submission renders them again. */
export function renderedFiles(report: CertifiedReport, product: ProductInfo): Record<Exclude<SubmissionFile, (typeof RUN_FILES)[number]>, string> {
  return {
    'PRODUCT.json': renderProductJson(product),
    'README.md': renderSubmissionReadme(report, product),
    'CAPABILITIES.md': renderCapabilitiesMarkdown(report, product),
    'badge.json': renderBadgeJson(submissionBadge(report)),
  }
}

export interface AssembledSubmission {
  dir: string
  files: string[]
  /** SHA-256 of MANIFEST.sha256: what the vendor publishes. */
  manifestDigest: string
  report: CertifiedReport
  /** The statement as written (the bytes a signature covers). */
  statement: string
}

/** What the statement says besides the folder: the code that ran and the catalogue whose certifying checks it sorts. */
export interface AttestationInputs {
  code: SuiteCode
  catalogue: readonly CheckDefinition[]
  /** The CI run's page (attestation.ts ciRunUrl). */
  runUrl?: string
}

/**
 * Writes the submission into `outDir`, which must be missing or empty (a submission is never overwritten).
 * `secrets` (the run's known values) are checked in every rendered file before anything is written.
 */
export async function assembleSubmission(
  runDir: string,
  outDir: string,
  product: ProductInfo,
  attestation: AttestationInputs,
  secrets: SecretList = [],
): Promise<AssembledSubmission> {
  const reportText = await readFile(join(runDir, 'report.json'), 'utf8')
  const report = JSON.parse(reportText) as CertifiedReport
  if (!report.certification) throw new Error(`${join(runDir, 'report.json')} has no certification block: it was not written by certify`)
  const rendered = renderedFiles(report, product)
  for (const [name, text] of Object.entries(rendered)) assertNoSecrets(text, secrets, name)

  const existing = await readdir(outDir).catch(() => [] as string[])
  if (existing.length > 0) throw new Error(`${outDir} is not empty: a submission is written into a new folder`)
  await mkdir(outDir, { recursive: true })
  for (const name of RUN_FILES) await copyFile(join(runDir, name), join(outDir, name))
  for (const [name, text] of Object.entries(rendered)) await writeFile(join(outDir, name), text, 'utf8')

  const files = Object.keys(SUBMISSION_FILES)
  const manifestDigest = await writeManifest(outDir, files)
  const covered = await manifestFor(outDir, [...files, MANIFEST_FILE])
  const statement = renderStatement(buildStatement(report, covered, attestation.code, attestation.catalogue, attestation.runUrl))
  await writeFile(join(outDir, STATEMENT_FILE), statement, 'utf8')
  return { dir: outDir, files: [...files, MANIFEST_FILE, STATEMENT_FILE], manifestDigest, report, statement }
}
