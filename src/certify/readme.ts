// The submission's README.md: the claim, the verdict with its suite version and spec digest, what did not
// pass, and the exact steps and configuration (secrets redacted) to reproduce the run and verify the folder.
// Rendered from report.json and PRODUCT.json only, so verify-submission can render it again and compare.
import { FIXTURE_VARIABLES, KEY_VARIABLES, type FixtureName } from '../config/config.ts'
import { mdCell as commentCell } from '../text/markdown-cell.ts'
import type { RunReport } from '../report/types.ts'
import { MANIFEST_FILE } from './manifest.ts'
import type { ProductInfo } from './product.ts'
import type { CertificationBlock } from './profile.ts'

/**
 * A table cell as summary.md writes it, without the zero-width spaces it puts after `@`, `#`, `:` so a pull-request
 * comment mentions, links and converts nothing: a README in a folder notifies no one, and the spaces broke copied
 * addresses, versions and times.
 */
const mdCell = (text: unknown, max?: number): string => commentCell(text, max).replaceAll('\u200b', '')

/** The files of a submission, with what each is; MANIFEST.sha256 covers all the others. */
export const SUBMISSION_FILES = {
  'report.json': 'every check with its level, clauses, status, message and evidence; the verdict; the `certification` block',
  'report.html': 'the same report for people',
  'junit.xml': 'one test case per check, rendered from report.json (JUnit XML as Jenkins and Ant read it)',
  'PRODUCT.json': 'product, version, vendor, contact and what was tested',
  'README.md': 'this file',
  'CAPABILITIES.md': 'what the server chose where the spec leaves the choice open, for comparing servers',
  'badge.json': 'a shields.io endpoint badge: the verdict and the pass count',
} as const

export type SubmissionFile = keyof typeof SUBMISSION_FILES

type CertifiedView = Pick<
  RunReport,
  'tool' | 'spec' | 'target' | 'profile' | 'seed' | 'runId' | 'startedAt' | 'finishedAt' | 'verdict' | 'verdictReasons' | 'summary' | 'config' | 'checks'
> &
  Partial<Pick<RunReport, 'fixturePools'>> & { certification: CertificationBlock }

/** A base URL without credentials in its userinfo (`https://user:pass@host` would otherwise be published). */
export function publicUrl(url: string): string {
  try {
    const u = new URL(url)
    if (!u.username && !u.password) return url
    u.username = '<redacted>'
    u.password = ''
    return u.toString().replace('%3Credacted%3E', '<redacted>')
  } catch {
    return url
  }
}

const shellQuote = (text: string) => (/^[A-Za-z0-9_./:@%+=,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`)

/**
 * `export NAME=value` lines reproducing the run's configuration; every secret is a placeholder. A fixture pool
 * is exported as the id the run used (report.json's `fixturePools`), not the pool's first id, which an earlier
 * run may have used up.
 */
export function reproductionEnv(report: Pick<RunReport, 'config' | 'target' | 'fixturePools'>): string[] {
  const c = report.config ?? {}
  const lines: string[] = []
  if (report.target?.embedded) lines.push('unset CRM_BASE_URL   # the embedded reference server')
  else if (typeof c.baseUrl === 'string') lines.push(`export CRM_BASE_URL=${shellQuote(publicUrl(c.baseUrl))}`)
  const keys = (c.keys ?? {}) as Record<string, unknown>
  for (const variable of Object.values(KEY_VARIABLES)) if (variable in keys) lines.push(`export ${variable}='<redacted: your ${variable}>'`)
  if (Array.isArray(c.restrictedScopes)) lines.push(`export CRM_API_KEY_RESTRICTED_SCOPES=${shellQuote(c.restrictedScopes.join(' '))}`)
  if (Array.isArray(c.roleLimitedDenied)) lines.push(`export CRM_API_KEY_ROLE_LIMITED_DENIED=${shellQuote(c.roleLimitedDenied.join(' '))}`)
  if (c.webhookSecret) lines.push(`export CRM_WEBHOOK_SECRET='<redacted: your whsec_ secret>'`)
  const fixtures = (c.fixtures ?? {}) as Record<string, unknown>
  for (const [name, variable] of Object.entries(FIXTURE_VARIABLES) as [FixtureName, string][]) {
    const used = report.fixturePools?.find((p) => p.fixture === name)?.chosen ?? fixtures[name]
    if (typeof used === 'string') lines.push(`export ${variable}=${shellQuote(used)}`)
  }
  const tuning: [string, unknown][] = [
    ['CRM_WEBHOOK_SINK_HOST', c.sinkHost],
    ['CRM_WEBHOOK_SINK_PORT', c.sinkPort],
    ['CRM_WEBHOOK_TIMEOUT_S', c.webhookTimeoutS],
    ['CRM_WEBHOOK_RETRY_WAIT_S', c.webhookRetryWaitS],
    ['CRM_REQUEST_TIMEOUT_MS', c.requestTimeoutMs],
    ['CRM_CHECK_TIMEOUT_MS', c.checkTimeoutMs],
    ['CRM_CONSISTENCY_WINDOW_MS', c.consistencyWindowMs],
    ['CRM_RUN_TIMEOUT_S', c.runTimeoutS],
    ['CRM_CONCURRENCY', c.concurrency],
    ['CRM_REQUEST_BUDGET', c.requestBudget],
  ]
  for (const [variable, value] of tuning) if (value !== undefined && value !== null) lines.push(`export ${variable}=${shellQuote(String(value))}`)
  return lines
}

/** The certify command that reproduces the run (same seed, same embedded variant and faults). */
export function reproductionCommand(report: Pick<RunReport, 'seed' | 'target'>): string {
  const parts = ['crm-conformance certify', `--seed ${report.seed}`]
  if (report.target?.embedded) parts.push('--embedded')
  if (report.target?.embedded && report.target.variant) parts.push(`--variant ${shellQuote(report.target.variant)}`)
  for (const fault of report.target?.embedded ? (report.target.faults ?? []) : []) parts.push(`--fault ${shellQuote(fault)}`)
  parts.push('--product-file PRODUCT.json', '--out submission')
  return parts.join(' ')
}

function counts(report: CertifiedView): string {
  const s = report.summary
  const level = (l: 'MUST' | 'SHOULD') => `${l} ${s.byLevel?.[l]?.passed ?? 0}/${s.byLevel?.[l]?.total ?? 0} passed`
  return `${s.total} checks: ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped, ${s.errored} errored (${level('MUST')}, ${level('SHOULD')})`
}

export function renderSubmissionReadme(report: CertifiedView, product: ProductInfo): string {
  const cert = report.certification
  const version = cert.suiteVersion
  const target = report.target?.embedded
    ? `embedded reference server${report.target.variant ? `, variant ${report.target.variant}` : ''}${report.target.faults?.length ? `, faults injected: ${report.target.faults.join(', ')}` : ''}`
    : publicUrl(report.target?.baseUrl ?? '')
  const out: string[] = [
    `# CRM API conformance submission: ${mdCell(product.product)} ${mdCell(product.version)}`,
    '',
    `${mdCell(product.vendor)} submits this run of the CRM REST API conformance suite against ${mdCell(product.product)} ${mdCell(product.version)}.`,
    '',
    '| | |',
    '|---|---|',
    `| verdict | **${cert.verdict}** |`,
    `| suite | crm-conformance ${mdCell(version)} (profile ${mdCell(cert.profile)}, every MUST and SHOULD check, no selection, no waiver) |`,
    `| spec | \`spec/crm-api-spec.md\` sha256 \`${mdCell(cert.specDigest)}\` |`,
    `| result | ${mdCell(counts(report))} |`,
    `| run | ${mdCell(report.runId)}, ${mdCell(report.startedAt)} to ${mdCell(report.finishedAt)}, seed ${mdCell(report.seed)} |`,
    `| target | ${mdCell(target)} |`,
    `| tested | ${mdCell(product.description)} |`,
    `| contact | ${mdCell(product.contact)} |`,
  ]
  if (product.website) out.push(`| website | ${mdCell(product.website)} |`)
  out.push(
    '',
    `The verdict holds for crm-conformance ${mdCell(version)} and the spec text with that digest only. \`compliant\`: no MUST`,
    'check failed, errored or was skipped; `partial`: a MUST check errored or was skipped (did not run); `non-compliant`: a',
    'MUST check failed. SHOULD results are reported and never change the verdict.',
    '',
  )

  const failedShould = report.checks.filter((c) => c.level === 'SHOULD' && c.status === 'failed')
  if (cert.verdictReasons.length || cert.notRun.length || failedShould.length) {
    out.push('## What did not pass', '')
    for (const reason of cert.verdictReasons) out.push(`- ${mdCell(reason, 400)}`)
    for (const c of failedShould) out.push(`- SHOULD ${mdCell(c.id)} (${mdCell(c.clause)}) failed: ${mdCell(c.message, 300)}`)
    const notRunShould = cert.notRun.filter((n) => n.level === 'SHOULD')
    for (const n of notRunShould) out.push(`- SHOULD ${mdCell(n.id)} (${mdCell(n.clause)}) did not run (${n.status}): ${mdCell(n.reason, 300)}`)
    out.push('')
  }

  out.push('## Files', '', '| file | content |', '|---|---|')
  for (const [file, what] of Object.entries(SUBMISSION_FILES)) out.push(`| \`${file}\` | ${what} |`)
  out.push(`| \`${MANIFEST_FILE}\` | the SHA-256 of every file above, in \`sha256sum\` format |`, '')

  out.push(
    '## Reproduce this run',
    '',
    `1. Install the same suite version, ${version}. crm-conformance is not on the npm registry yet: install the package file`,
    `   made from that version (\`npm pack\` in its checkout writes \`crm-conformance-${version}.tgz\`) with`,
    `   \`npm install --global ./crm-conformance-${version}.tgz\`, or run it from that checkout after \`npm ci\` with`,
    '   `node bin/crm-conformance.mjs` in place of `crm-conformance` below.',
    '2. Configure it as the run was configured. Secrets are redacted: use your own values for them.',
    '',
    '```sh',
    ...reproductionEnv(report),
    '```',
    '',
    "3. Run the certifying profile with the same seed (the same generated data; the server's own data may differ):",
    '',
    '```sh',
    reproductionCommand(report),
    '```',
    '',
    '## Verify this submission',
    '',
    "With the same suite version installed as in step 1 above, in this folder's parent:",
    '',
    '```sh',
    `crm-conformance verify-submission <this folder>`,
    `sha256sum -c ${MANIFEST_FILE}        # inside this folder: every file is as the run wrote it`,
    `sha256sum ${MANIFEST_FILE}           # compare with the manifest digest the vendor published`,
    '```',
    '',
    'verify-submission checks the manifest, that every certifying check of this suite version has a row with a verdict,',
    'that the verdict follows from the rows, that nothing was selected or waived, and that no file holds a secret.',
  )
  return `${out.join('\n')}\n`
}
