// The §5.4 scopes a selection needs of the main key, so that a key lacking some stops the run before it starts
// (src/run/preflight.ts) instead of reading as the server's 403s. Measured, not guessed: the main key's requests
// of a full run against the reference server (scripts/request-estimates.ts), per area and write need.
import type { CheckDefinition, Profile } from '../checks/types.ts'
import { profileExclusion } from '../engine/scope.ts'
import { ALL_SCOPES, resourceByPath } from '../spec/resources.ts'
import type { RequestEstimates } from './estimate-table.ts'
import { REQUEST_ESTIMATES } from './request-estimates.ts'

/** The scope one request needs (§4.2, §5.4): `<area>:read` for GET and HEAD, `<area>:write` otherwise; undefined for /me, unknown paths and scopes §5.4 does not name. */
export function scopeOfRequest(method: string, url: string): string | undefined {
  let path = url
  try {
    path = new URL(url).pathname
  } catch {
    // Already a path.
  }
  const resource = resourceByPath(path.replace(/^.*?\/v1(?=\/)/, ''))
  if (!resource) return undefined
  const scope = `${resource.scopeArea}:${method === 'GET' || method === 'HEAD' ? 'read' : 'write'}`
  // A write to a read-only collection (`users`, a 405 probe) needs no scope §5.4 names.
  return ALL_SCOPES.includes(scope) ? scope : undefined
}

/** Every scope the main key needs for the checks the profile lets run, sorted. */
export function scopesNeeded(checks: readonly CheckDefinition[], profile: Profile, table: RequestEstimates = REQUEST_ESTIMATES): string[] {
  const needed = new Set<string>()
  // A narrower profile than `full` sends what a `safe` run measured (its checks may write less there).
  const measured = profile === 'full' ? table.scopes : (table.safeScopes ?? table.scopes)
  for (const check of checks) {
    if (profileExclusion(check, profile)) continue
    for (const scope of measured?.[check.area]?.[check.writes ?? 'none'] ?? []) needed.add(scope)
  }
  return [...needed].sort()
}
