// What a run is asked to judge: the selected checks the profile allows. A verdict speaks for this scope only,
// and says so (src/report/scope.ts); only the full profile with no selection speaks for the whole spec.
import type { CheckDefinition, Profile, WriteNeed } from '../checks/types.ts'
import type { RunScope } from '../report/types.ts'
import { select } from './selection.ts'

const WRITE_RANK: Record<WriteNeed, number> = { none: 0, 'if-allowed': 0, safe: 1, full: 2 }
const PROFILE_ALLOWS: Record<Profile, number> = { 'read-only': 0, safe: 1, full: 2 }

/** Why the profile leaves a check out by design (it writes what the profile does not send), or undefined. */
export function profileExclusion(check: Pick<CheckDefinition, 'writes'>, profile: Profile): string | undefined {
  const writes = check.writes ?? 'none'
  if (WRITE_RANK[writes] <= PROFILE_ALLOWS[profile]) return undefined
  return writes === 'full'
    ? `needs the full profile (it has outward effects or creates records the API cannot delete); profile is ${profile}`
    : `writes records; the ${profile} profile sends no write`
}

export interface ScopeRequest {
  only?: string[]
  skip?: string[]
  profile: Profile
}

export function describeScope(catalogue: CheckDefinition[], request: ScopeRequest): RunScope {
  const only = request.only ?? []
  const skip = request.skip ?? []
  const selected = select(catalogue, only, skip)
  const outOfScope = selected.flatMap((c) => {
    const reason = profileExclusion(c, request.profile)
    return reason ? [{ id: c.id, level: c.level, reason }] : []
  })
  const excluded = new Set(outOfScope.map((c) => c.id))
  const inScope = selected.filter((c) => !excluded.has(c.id))
  const must = (checks: CheckDefinition[]) => checks.filter((c) => c.level === 'MUST').length
  return {
    complete: only.length === 0 && skip.length === 0 && request.profile === 'full',
    only,
    skip,
    catalogue: { checks: catalogue.length, must: must(catalogue) },
    inScope: { checks: inScope.length, must: must(inScope) },
    outOfScope,
  }
}

/** Why a scope cannot run, or undefined: the profile leaves out every selected check. */
export function emptyScopeProblem(scope: RunScope, profile: Profile): string | undefined {
  if (scope.inScope.checks > 0) return undefined
  return `the ${profile} profile leaves out every selected check (${scope.outOfScope.length}: ${scope.outOfScope[0]?.reason ?? 'none selected'}): nothing would be tested; choose --profile full or other checks`
}
