// The words that say what a verdict covers. A subset or a narrower profile is never labelled
// plain `compliant`; a run that executed no check says it tested nothing. Pure.
import type { CheckResult, Profile } from '../checks/types.ts'
import type { RunScope, Verdict } from './types.ts'

/** Checks that reached the server: passed, failed or errored (a skipped check tested nothing). */
export function executedCount(checks: readonly CheckResult[]): number {
  return checks.filter((c) => c.status !== 'skipped').length
}

/** `(subset, safe profile: 2 of 511 checks)`, `(safe profile: 404 of 468 MUST checks)`, or '' for a complete run. */
export function scopeQualifier(scope: RunScope, profile: Profile): string {
  if (scope.complete) return ''
  const selected = scope.only.length > 0 || scope.skip.length > 0
  const what = [...(selected ? ['subset'] : []), ...(profile === 'full' ? [] : [`${profile} profile`])].join(', ')
  const count = selected ? `${scope.inScope.checks} of ${scope.catalogue.checks} checks` : `${scope.inScope.must} of ${scope.catalogue.must} MUST checks`
  return `(${what}: ${count})`
}

/** The verdict as people read it, in every report file and on the console. */
export function verdictLabel(verdict: Verdict, scope: RunScope, profile: Profile, checks: readonly CheckResult[]): string {
  if (executedCount(checks) === 0) return `${verdict} (nothing tested: none of ${checks.length} checks reached the server)`
  const qualifier = scopeQualifier(scope, profile)
  return qualifier ? `${verdict} ${qualifier}` : verdict
}

/** Why a run tested nothing, for the console and exit code 2; undefined when a check reached the server. */
export function nothingTestedReason(checks: readonly CheckResult[]): string | undefined {
  if (executedCount(checks) > 0) return undefined
  if (checks.length === 0) return 'nothing was tested: no check ran'
  const reasons = [...new Set(checks.map((c) => c.message).filter(Boolean))]
  return `nothing was tested: all ${checks.length} checks were skipped (${reasons.slice(0, 3).join('; ')}${reasons.length > 3 ? '; …' : ''})`
}
