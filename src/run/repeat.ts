// `run --rerun-failed <report>` and `--repeat N`: how each re-run check came out, labelled for the console, the
// report and junit. `fixed` and `still failing` compare with the earlier report; `flaky` is a check that both
// passed and failed (or errored) across the repetitions, each made with its own seed so a failure can be replayed.
import type { CheckResult } from '../checks/types.ts'
import type { Status } from '../vocabulary.ts'

export type RunLabel = 'fixed' | 'still failing' | 'flaky' | 'not judged'

export interface RepeatOutcome {
  seed: number
  status: Status
}

export interface LabelledCheck {
  id: string
  /** Its status in the report re-run (--rerun-failed). */
  before?: Status
  label: RunLabel
  /** One per repetition, in order. */
  outcomes: RepeatOutcome[]
}

/** The seed of repetition `i` (0 first): the run's seed, then the next ones. */
export const repeatSeed = (seed: number, i: number): number => (seed + i) % 2 ** 31

/**
 * The label of one check: `flaky` when it passed at least once and failed or errored at least once; else, for a
 * re-run, `fixed` (passed every time) or `still failing`; `not judged` when it only skipped. A repeat without a
 * re-run labels only the flaky ones.
 */
export function labelOf(outcomes: RepeatOutcome[], rerun: boolean): RunLabel | undefined {
  const passed = outcomes.some((o) => o.status === 'passed')
  const failing = outcomes.some((o) => o.status === 'failed' || o.status === 'error')
  if (passed && failing) return 'flaky'
  if (!rerun) return undefined
  return failing ? 'still failing' : passed ? 'fixed' : 'not judged'
}

/** The seeds of the repetitions with each outcome, in words: `passed with seeds 7, 9; failed with seed 8`. */
export function describeSeeds(outcomes: RepeatOutcome[]): string {
  const by = new Map<Status, number[]>()
  for (const o of outcomes) by.set(o.status, [...(by.get(o.status) ?? []), o.seed])
  return [...by].map(([status, seeds]) => `${status === 'error' ? 'errored' : status} with seed${seeds.length === 1 ? '' : 's'} ${seeds.join(', ')}`).join('; ')
}

/**
 * One row per check out of its repetitions: the first failure (its evidence is what to file), else the first
 * error, else the last run. A flaky check stays failed: a server that breaks a rule now and then breaks it.
 */
export function mergeRepetitions(
  repetitions: { seed: number; results: CheckResult[] }[],
  before?: Record<string, Status>,
): { results: CheckResult[]; labels: LabelledCheck[] } {
  const last = repetitions[repetitions.length - 1]!.results
  const results: CheckResult[] = []
  const labels: LabelledCheck[] = []
  for (const row of last) {
    const runs = repetitions.map((r) => ({ seed: r.seed, result: r.results.find((x) => x.id === row.id) ?? row }))
    const outcomes = runs.map((r) => ({ seed: r.seed, status: r.result.status }))
    const chosen = runs.find((r) => r.result.status === 'failed') ?? runs.find((r) => r.result.status === 'error') ?? runs[runs.length - 1]!
    const label = labelOf(outcomes, before !== undefined)
    const result = label === 'flaky' ? { ...chosen.result, notes: [...chosen.result.notes, `flaky: ${describeSeeds(outcomes)}`] } : chosen.result
    results.push(result)
    if (label) labels.push({ id: row.id, before: before?.[row.id], label, outcomes })
  }
  return { results, labels }
}

/**
 * `--repeat N`: one line per check that failed or errored in some repetition, `failed 3 of 3: <id>`, the most
 * often first; nothing for a single run.
 */
export function describeRepeatFailures(statuses: ReadonlyMap<string, readonly Status[]>, repeat: number): string[] {
  if (repeat <= 1) return []
  return [...statuses]
    .map(([id, seen]) => ({ id, failed: seen.filter((s) => s === 'failed' || s === 'error').length }))
    .filter((c) => c.failed > 0)
    .sort((a, b) => b.failed - a.failed || (a.id < b.id ? -1 : 1))
    .map((c) => `failed ${c.failed} of ${repeat}: ${c.id}`)
}
