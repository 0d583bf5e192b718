// The in-toto Statement of a submission (attestation.intoto.json): its subjects are the submission's files by
// SHA-256 (report.json first), its predicate the vetted Test Result predicate
// (https://github.com/in-toto/attestation/blob/main/spec/predicates/test-result.md), so that a customer's own tools
// (cosign, gh attestation verify, Conforma's test-result rules) read it without any tool of ours. What that
// predicate cannot hold (the verdict's label and reasons, the scope, the capabilities' digest) is in the
// configuration's `crm-conformance certification` descriptor, as annotations. Pure: no I/O.
import { KEY_VARIABLES } from '../vocabulary.ts'
import type { CertifiedReport } from './profile.ts'
import { certifyingChecks } from './profile.ts'
import type { CheckDefinition } from '../checks/types.ts'
import { sha256, type ManifestEntry } from './manifest.ts'
import { publicUrl } from './readme.ts'

export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1'
export const TEST_RESULT_PREDICATE = 'https://in-toto.io/attestation/test-result/v0.1'
/** The DSSE payload type of an in-toto statement (what cosign and gh attestation verify expect). */
export const INTOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json'
/** The statement, in every submission. */
export const STATEMENT_FILE = 'attestation.intoto.json'
/** The Sigstore bundle of the signed statement, in a signed submission. */
export const BUNDLE_FILE = 'attestation.sigstore.json'
/** Files of a submission that its manifest does not list: they are written after it and cover it. */
export const ATTESTATION_FILES: readonly string[] = [STATEMENT_FILE, BUNDLE_FILE]

export interface ResourceDescriptor {
  name?: string
  uri?: string
  digest?: Record<string, string>
  mediaType?: string
  annotations?: Record<string, unknown>
}

export interface TestResultPredicate {
  result: 'PASSED' | 'WARNED' | 'FAILED'
  configuration: ResourceDescriptor[]
  url?: string
  passedTests: string[]
  warnedTests: string[]
  failedTests: string[]
}

export interface Statement {
  _type: typeof STATEMENT_TYPE
  subject: { name: string; digest: { sha256: string } }[]
  predicateType: typeof TEST_RESULT_PREDICATE
  predicate: TestResultPredicate
}

/** What the statement says about the code that ran, besides the report (src/certify/code-digest.ts). */
export interface SuiteCode {
  /** SHA-256 over the sorted `<sha256>  <path>` lines of the suite's code files. */
  digest: string
  files: number
  tree: string
}

/** The names the configuration's descriptors carry (a policy selects them by name). */
export const DESCRIPTOR = {
  suite: 'crm-conformance',
  spec: 'crm-api-spec.md',
  run: 'crm-conformance run',
  certification: 'crm-conformance certification',
} as const

/**
 * PASSED only for `compliant`; `non-compliant` (a MUST failed) is FAILED; `partial` (a MUST skipped or errored:
 * nothing failed, and not everything was verified) is WARNED, as the predicate's "passed with warnings".
 */
export function resultOf(verdict: string): TestResultPredicate['result'] {
  return verdict === 'compliant' ? 'PASSED' : verdict === 'non-compliant' ? 'FAILED' : 'WARNED'
}

/** The roles whose keys the run had: for the embedded server, every role (it has them all). */
function keyRoles(report: CertifiedReport): string[] {
  if (report.target.embedded) return Object.values(KEY_VARIABLES)
  const keys = (report.config as { keys?: Record<string, unknown> }).keys ?? {}
  return Object.keys(keys).sort()
}

/**
 * The statement over `files` (report.json first, then the others in the order given). The certifying checks'
 * ids are sorted into passed (passed), failed (a MUST failed) and warned (a SHOULD failed): a check that was
 * skipped or errored is in none of them, and named in the certification's `notRun`.
 */
export function buildStatement(
  report: CertifiedReport,
  files: readonly ManifestEntry[],
  code: SuiteCode,
  catalogue: readonly CheckDefinition[],
  /** The CI run that wrote it (the predicate's `url`), when there is one. */
  runUrl?: string,
): Statement {
  const ordered = [...files.filter((f) => f.file === 'report.json'), ...files.filter((f) => f.file !== 'report.json')]
  const certifying = new Set(certifyingChecks(catalogue).map((c) => c.id))
  const rows = report.checks.filter((r) => certifying.has(r.id))
  const ids = (keep: (r: (typeof rows)[number]) => boolean) => rows.filter(keep).map((r) => r.id)
  const cert = report.certification
  return {
    _type: STATEMENT_TYPE,
    subject: ordered.map((f) => ({ name: f.file, digest: { sha256: f.sha256 } })),
    predicateType: TEST_RESULT_PREDICATE,
    predicate: {
      result: resultOf(cert.verdict),
      configuration: [
        {
          name: DESCRIPTOR.suite,
          uri: `pkg:npm/crm-conformance@${cert.suiteVersion}`,
          digest: { sha256: code.digest },
          annotations: { files: code.files, tree: code.tree },
        },
        { name: DESCRIPTOR.spec, digest: { sha256: cert.specDigest } },
        {
          name: DESCRIPTOR.run,
          uri: publicUrl(report.target.baseUrl),
          annotations: {
            profile: cert.profile,
            embedded: report.target.embedded,
            keyRoles: keyRoles(report),
            runId: report.runId,
            seed: report.seed,
            startedAt: report.startedAt,
            finishedAt: report.finishedAt,
          },
        },
        {
          name: DESCRIPTOR.certification,
          annotations: {
            verdict: cert.verdict,
            verdictLabel: report.verdictLabel,
            verdictReasons: cert.verdictReasons,
            scope: report.scope,
            notRun: cert.notRun.map((n) => n.id),
            capabilitiesSha256: sha256(JSON.stringify(report.capabilities ?? {})),
          },
        },
      ],
      ...(runUrl ? { url: runUrl } : {}),
      passedTests: ids((r) => r.status === 'passed'),
      warnedTests: ids((r) => r.status === 'failed' && r.level !== 'MUST'),
      failedTests: ids((r) => r.status === 'failed' && r.level === 'MUST'),
    },
  }
}

/** The CI job's page, for the predicate's `url`: GitHub Actions' run or GitLab's job; undefined elsewhere. */
export function ciRunUrl(env: NodeJS.ProcessEnv): string | undefined {
  if (env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID)
    return `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}${env.GITHUB_RUN_ATTEMPT ? `/attempts/${env.GITHUB_RUN_ATTEMPT}` : ''}`
  return env.CI_JOB_URL || undefined
}

/** The statement as written: two-space JSON and a final newline (the bytes the signature covers). */
export function renderStatement(statement: Statement): string {
  return `${JSON.stringify(statement, null, 2)}\n`
}

/**
 * What does not hold between a statement and the folder: a subject that is not a file of it or whose digest
 * differs (each named), a file of the submission that no subject covers, a predicate that disagrees with the
 * report. `digests` are the folder's files (the attestation files excluded).
 */
export function statementProblems(
  statement: unknown,
  digests: ReadonlyMap<string, string>,
  report: CertifiedReport | undefined,
  catalogue: readonly CheckDefinition[],
): string[] {
  const s = statement as Partial<Statement> | null
  if (!s || typeof s !== 'object' || s._type !== STATEMENT_TYPE) return [`the statement is not an in-toto Statement v1 (_type ${JSON.stringify(s?._type)})`]
  if (s.predicateType !== TEST_RESULT_PREDICATE) return [`the statement's predicate is ${JSON.stringify(s.predicateType)}, not ${TEST_RESULT_PREDICATE}`]
  const problems: string[] = []
  const subjects = Array.isArray(s.subject) ? s.subject : []
  const named = new Set<string>()
  // Another run's report.json: the statement belongs to another submission, whatever else matches (PRODUCT.json may).
  const reportSubject = subjects.find((subject) => subject?.name === 'report.json')
  const reportDigest = digests.get('report.json')
  if (reportSubject && reportDigest !== undefined && reportSubject.digest?.sha256 !== reportDigest)
    return [
      `report.json is not the report the statement covers: the statement was made for another submission (it says SHA-256 ${reportSubject.digest?.sha256}, this folder's is ${reportDigest})`,
    ]
  for (const subject of subjects) {
    const name = String(subject?.name)
    named.add(name)
    const actual = digests.get(name)
    if (actual === undefined) problems.push(`${name} is covered by the statement but missing from the folder`)
    else if (actual !== subject?.digest?.sha256)
      problems.push(`${name} is not the file the statement covers: its SHA-256 is ${actual}, the statement says ${subject?.digest?.sha256}`)
  }
  for (const name of digests.keys()) if (!named.has(name)) problems.push(`${name} is not covered by the statement: it was added after the run`)
  if (report && problems.length === 0) {
    // The subjects pin report.json; the predicate must say what it says (a statement edited alone is refused).
    const expected = buildStatement(report, [], { digest: '', files: 0, tree: '' }, catalogue).predicate
    const actual = s.predicate as TestResultPredicate | undefined
    for (const key of ['result', 'passedTests', 'warnedTests', 'failedTests'] as const)
      if (JSON.stringify(actual?.[key]) !== JSON.stringify(expected[key])) problems.push(`the statement's ${key} is not what report.json gives`)
  }
  return problems
}
