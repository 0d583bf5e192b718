// Turns the checks' results into the run report: counts, verdict, capabilities. Pure: no I/O, no clock.
import type { CheckResult, Level, Profile, Status } from '../checks/types.ts'
import { LEVELS } from '../vocabulary.ts'
import { EXPLORED_CELLS } from './explored-of-run.ts'
import { executedCount, verdictLabel } from './scope.ts'
import type { LevelCounts, RunReport, RunScope, Verdict } from './types.ts'

export { LEVELS }

/** Longest message quoted in a verdict reason; the full text stays in the check's row. */
const MAX_REASON_MESSAGE_CHARS = 300

export interface BuildRunReportInput {
  results: CheckResult[]
  tool: RunReport['tool']
  spec: RunReport['spec']
  target: RunReport['target']
  profile: Profile
  seed: number
  runId: string
  /** ISO 8601. */
  startedAt: string
  /** ISO 8601. */
  finishedAt: string
  /** Already redacted (`redactedConfig`): the builder cannot tell a secret from a value. */
  config: Record<string, unknown>
  requests: RunReport['requests']
  leftovers: RunReport['leftovers']
  /** Capabilities the runner found itself (e.g. the reference variant); they win over a check's observation of the same key. */
  capabilities?: Record<string, unknown>
  replay: string
  /** What the run was asked to judge (src/engine/scope.ts describeScope); rows of its `outOfScope` checks are listed there, not judged. */
  scope: RunScope
}

/** The outcome a report counts a result under: a failure with a waiver is `waived`, nothing else is. */
export type Outcome = 'passed' | 'failed' | 'waived' | 'skipped' | 'errored'

export function outcomeOf(result: CheckResult): Outcome {
  const byStatus: Record<Status, Outcome> = { passed: 'passed', failed: 'failed', skipped: 'skipped', error: 'errored' }
  if (result.status === 'failed' && result.waived) return 'waived'
  return byStatus[result.status] ?? 'errored'
}

function emptyCounts(): LevelCounts {
  return { passed: 0, failed: 0, waived: 0, skipped: 0, errored: 0, total: 0 }
}

export function summarize(results: readonly CheckResult[]): RunReport['summary'] {
  const all = emptyCounts()
  const byLevel = Object.fromEntries(LEVELS.map((level) => [level, emptyCounts()])) as Record<Level, LevelCounts>
  for (const result of results) {
    const outcome = outcomeOf(result)
    for (const counts of [all, byLevel[result.level]]) {
      if (!counts) continue
      counts[outcome]++
      counts.total++
    }
  }
  return { passed: all.passed, failed: all.failed, skipped: all.skipped, errored: all.errored, waived: all.waived, total: all.total, byLevel }
}

function oneLine(text: string, max = MAX_REASON_MESSAGE_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}

/**
 * non-compliant: a MUST check failed (waivers excepted); partial: a MUST check errored or was skipped, or no
 * MUST check ran at all (a run that checked no MUST proves nothing); compliant otherwise.
 * SHOULD and INFO results never change the verdict. Reasons list every non-passing MUST check, failures first.
 */
export function verdictOf(results: readonly CheckResult[]): { verdict: Verdict; reasons: string[] } {
  const must = results.filter((r) => r.level === 'MUST')
  const failed = must.filter((r) => outcomeOf(r) === 'failed')
  const errored = must.filter((r) => outcomeOf(r) === 'errored')
  const skipped = must.filter((r) => outcomeOf(r) === 'skipped')
  const reasons = [
    ...failed.map((r) => `MUST ${r.id} (${r.clause}) failed: ${oneLine(r.message)}`),
    ...errored.map((r) => `MUST ${r.id} (${r.clause}) could not be verified (harness error): ${oneLine(r.message)}`),
    ...skipped.map((r) => `MUST ${r.id} (${r.clause}) was skipped: ${oneLine(r.message)}`),
  ]
  if (failed.length > 0) return { verdict: 'non-compliant', reasons }
  if (must.length === 0) return { verdict: 'partial', reasons: ['no MUST check ran: nothing was verified'] }
  if (reasons.length > 0) return { verdict: 'partial', reasons }
  return { verdict: 'compliant', reasons: [] }
}

/**
 * Every check's observations, keyed `<checkId>.<name>` always (never the bare name): a key then means the same
 * thing in every run, whichever other checks ran (`--only`) or observe the same name. Keys are sorted.
 */
export function mergeCapabilities(results: readonly CheckResult[], fromRunner: Record<string, unknown> = {}): Record<string, unknown> {
  const merged: Record<string, unknown> = {}
  for (const result of results) {
    for (const [name, value] of Object.entries(result.observations ?? {}))
      // The explored cells are report.json's `explored` block; as a capability they would be a thousand-line row.
      if (name !== EXPLORED_CELLS) merged[`${result.id}.${name}`] = value
  }
  Object.assign(merged, fromRunner)
  return Object.fromEntries(
    Object.keys(merged)
      .sort()
      .map((key) => [key, merged[key]]),
  )
}

function durationBetween(startedAt: string, finishedAt: string): number {
  const ms = Date.parse(finishedAt) - Date.parse(startedAt)
  return Number.isFinite(ms) && ms > 0 ? ms : 0
}

export function buildRunReport(input: BuildRunReportInput): RunReport {
  // A check the profile leaves out by design is not a skipped MUST; it is out of scope.
  const outOfScope = new Set(input.scope.outOfScope.map((c) => c.id))
  const checks = input.results.filter((r) => !outOfScope.has(r.id))
  const { verdict, reasons } = verdictOf(checks)
  return {
    tool: input.tool,
    spec: input.spec,
    target: input.target,
    profile: input.profile,
    seed: input.seed,
    runId: input.runId,
    startedAt: input.startedAt,
    finishedAt: input.finishedAt,
    durationMs: durationBetween(input.startedAt, input.finishedAt),
    config: input.config,
    verdict,
    verdictLabel: verdictLabel(verdict, input.scope, input.profile, checks),
    scope: input.scope,
    verdictReasons: reasons,
    summary: summarize(checks),
    requests: input.requests,
    capabilities: mergeCapabilities(checks, input.capabilities),
    leftovers: input.leftovers,
    replay: input.replay,
    checks,
  }
}

/**
 * The process exit code of a run: 1 when a MUST check failed (not waived) or errored — an error means the
 * clause could not be verified, and CI must not go green on an unverified MUST. A skipped MUST (an unmet
 * precondition such as an unset optional key) gives 0; it shows in the verdict (`partial`) instead.
 * With `strict`, SHOULD checks are held to the same rule (failed or errored gives 1). INFO never counts.
 * 2 when no check reached the server (all skipped, or none ran): such a run tested nothing and must not pass
 * CI; it is a setup problem (missing keys, a profile or selection that leaves nothing), not a server failure.
 */
export function exitCodeFor(report: Pick<RunReport, 'checks'>, options: { strict?: boolean } = {}): 0 | 1 | 2 {
  if (executedCount(report.checks) === 0) return 2
  const gating = new Set<Level>(options.strict ? ['MUST', 'SHOULD'] : ['MUST'])
  const broken = report.checks.some((r) => gating.has(r.level) && (outcomeOf(r) === 'failed' || outcomeOf(r) === 'errored'))
  return broken ? 1 : 0
}
