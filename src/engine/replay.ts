// The command that replays a run, or one check of it: the same target, seed, profile, variant and faults.
import type { CheckDefinition, CheckResult, Profile } from '../checks/types.ts'

export interface ReplayTarget {
  seed: number
  profile: Profile
  /** Absent for the embedded reference server. */
  baseUrl?: string
  variant?: string
  faults?: string[]
}

const quote = (text: string) => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`)

/** `crm-conformance run --only <id> --seed …`; the profile always, as it changes what a check may write. */
export function replayCommand(target: ReplayTarget, selection: { only?: string[]; skip?: string[] } = {}): string {
  const parts = ['crm-conformance run']
  for (const only of selection.only ?? []) parts.push(`--only ${quote(only)}`)
  for (const skip of selection.skip ?? []) parts.push(`--skip ${quote(skip)}`)
  parts.push(`--seed ${target.seed}`, `--profile ${target.profile}`)
  if (target.baseUrl) parts.push(`--base-url ${quote(target.baseUrl)}`)
  if (target.variant) parts.push(`--variant ${quote(target.variant)}`)
  for (const fault of target.faults ?? []) parts.push(`--fault ${quote(fault)}`)
  return parts.join(' ')
}

/** The row of a check before (or without) a verdict of its own: the run was interrupted, its test died. */
export function unrunResult(check: CheckDefinition, status: 'skipped' | 'error', message: string, target: ReplayTarget): CheckResult {
  return {
    id: check.id,
    clause: check.clauses[0] ?? '',
    clauses: check.clauses,
    level: check.level,
    area: check.area,
    title: check.title,
    status,
    message,
    evidence: [],
    observations: {},
    notes: [],
    requests: 0,
    durationMs: 0,
    replay: replayCommand(target, { only: [check.id] }),
    declaredAt: check.declaredAt,
  }
}
