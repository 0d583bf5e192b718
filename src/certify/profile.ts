// The certifying profile: which checks a certification needs, the rows a certify run must hold, and the
// `certification` block frozen into its report.json. Pure: no I/O.
import { declaredRow, type ReplayTarget } from '../checks/replay.ts'
import type { CheckDefinition, CheckResult, Level, Profile } from '../checks/types.ts'
import { verdictOf } from '../report/build.ts'
import type { RunReport, Verdict } from '../report/types.ts'

/** Every MUST and SHOULD check of the catalogue must have a row; INFO rows may be there too, and are not required. */
export const CERTIFYING_LEVELS: readonly Level[] = ['MUST', 'SHOULD']

/** A certification always runs everything it can: the full profile (outward effects included). */
export const CERTIFYING_PROFILE: Profile = 'full'

export interface NotRun {
  id: string
  level: Level
  clause: string
  status: 'skipped' | 'error'
  reason: string
}

/** Frozen into report.json by `certify`; `verify-submission` re-derives every field of it. */
export interface CertificationBlock {
  /** The crm-conformance version whose catalogue defines "every certifying check". */
  suiteVersion: string
  /** SHA-256 of spec/crm-api-spec.md: the spec text the verdict is about. */
  specDigest: string
  profile: Profile
  levels: Level[]
  /** `none`: certification never runs a subset (no --only / --skip). */
  selection: 'none'
  /** `none`: certification never waives a failure. */
  waivers: 'none'
  /** The certifying checks of this suite version, in catalogue order. */
  checkIds: string[]
  /** The verdict, which holds for this suite version and this spec digest only. */
  verdict: Verdict
  verdictReasons: string[]
  /** Every certifying check (MUST or SHOULD) that did not reach a pass/fail verdict, and why. */
  notRun: NotRun[]
}

export type CertifiedReport = RunReport & { certification: CertificationBlock }

export function certifyingChecks(catalogue: readonly CheckDefinition[]): CheckDefinition[] {
  return catalogue.filter((c) => CERTIFYING_LEVELS.includes(c.level))
}

/**
 * The rows of a certify run: the run's results, plus an `error` row for every certifying check that reached
 * no result at all (its test died before reporting). A check that did not run must show as not run, never
 * disappear: an absent row would otherwise leave the verdict untouched.
 */
export function completeCertifyingRows(
  results: readonly CheckResult[],
  catalogue: readonly CheckDefinition[],
  run: { target: ReplayTarget; harnessErrors?: readonly string[] },
): CheckResult[] {
  const seen = new Set(results.map((r) => r.id))
  const firstError = run.harnessErrors?.[0]
  const missing = certifyingChecks(catalogue)
    .filter((c) => !seen.has(c.id))
    .map((c) =>
      declaredRow(c, 'error', `no result: the check did not report${firstError ? ` (first harness error of the run: ${firstError})` : ''}`, run.target),
    )
  return [...results, ...missing]
}

export function notRunOf(rows: readonly CheckResult[]): NotRun[] {
  return rows
    .filter((r) => CERTIFYING_LEVELS.includes(r.level) && (r.status === 'skipped' || r.status === 'error'))
    .map((r) => ({ id: r.id, level: r.level, clause: r.clause, status: r.status as NotRun['status'], reason: r.message }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}

/**
 * The certification verdict: the report's own rules (src/report/build.ts verdictOf), and a waived failure
 * counts as a failure, because certification admits no waiver.
 */
export function certificationVerdictOf(rows: readonly CheckResult[]): { verdict: Verdict; reasons: string[] } {
  const unwaived = rows.map((r) => (r.waived ? { ...r, waived: undefined } : r))
  return verdictOf(unwaived)
}

export function certificationBlock(
  rows: readonly CheckResult[],
  catalogue: readonly CheckDefinition[],
  identity: { suiteVersion: string; specDigest: string },
): CertificationBlock {
  const { verdict, reasons } = certificationVerdictOf(rows)
  return {
    suiteVersion: identity.suiteVersion,
    specDigest: identity.specDigest,
    profile: CERTIFYING_PROFILE,
    levels: [...CERTIFYING_LEVELS],
    selection: 'none',
    waivers: 'none',
    checkIds: certifyingChecks(catalogue).map((c) => c.id),
    verdict,
    verdictReasons: reasons,
    notRun: notRunOf(rows),
  }
}
