// The shape of report.json: the one document every other report file is rendered from.
import type { CheckResult, Level, Profile } from '../checks/types.ts'
import type { CoverageBlock } from '../coverage/matrix.ts'
import type { ExploredBlock } from '../coverage/explored.ts'

export type Verdict = 'compliant' | 'partial' | 'non-compliant'

export interface StatusCounts {
  passed: number
  /** Failed without a waiver; a waived failure counts under `waived` instead. */
  failed: number
  skipped: number
  errored: number
}

/** The counts of one level: the status counts plus its waived failures and its total. */
export interface LevelCounts extends StatusCounts {
  waived: number
  total: number
}

export interface RunReport {
  tool: { name: 'crm-conformance'; version: string }
  /** SHA-256 (hex) of spec/crm-api-spec.md, the spec text the suite was built from. */
  spec: { digest: string; file: string }
  target: { baseUrl: string; embedded: boolean; variant?: string; faults?: string[] }
  profile: Profile
  seed: number
  runId: string
  startedAt: string
  finishedAt: string
  durationMs: number
  /** The resolved configuration with every secret replaced by the name of its variable. */
  config: Record<string, unknown>
  /** compliant: no MUST failed, errored or skipped; partial: a MUST errored or was skipped; non-compliant: a MUST failed. */
  verdict: Verdict
  /** The verdict as people read it, naming what it covers: `compliant (safe profile: 404 of 468 MUST checks)`; plain only for a complete run (scope.complete). */
  verdictLabel: string
  /** What the run was asked to judge; the verdict speaks for these checks only. */
  scope: RunScope
  /** Why the verdict is not compliant: the MUST checks that failed, errored or were skipped, with reasons. */
  verdictReasons: string[]
  summary: StatusCounts & { total: number; waived: number; byLevel: Record<Level, LevelCounts> }
  requests: { total: number; byArea: Record<string, number>; byKey: Record<string, number>; rateLimited: Record<string, number> }
  /** What the server chose where the spec leaves the choice open, merged from the checks' observations. */
  capabilities: Record<string, unknown>
  /** Records the run created and could not remove through the API. */
  leftovers: { resource: string; id: string; reason: string }[]
  /** Command that replays the whole run. */
  replay: string
  checks: CheckResult[]
  /** Set when the run did not end on its own: a signal (SIGINT, SIGTERM) or the run's bound (CRM_RUN_TIMEOUT_S). */
  interrupted?: { reason: string; at: string }
  /**
   * Secrets the report writer found in the report and masked (the server echoed one in a form the transport's
   * redaction did not know): which, in what form, how many times. Never the value.
   */
  secretsMasked?: { secret: string; encoding: string; count: number }[]
  /** `run --rerun-failed` / `--repeat N`: the labels `fixed`, `still failing`, `flaky` with each repetition's seed and outcome. */
  rerun?: RerunSection
  /** What the API cannot delete: this run's leftovers and earlier runs' still there, by resource (src/run/footprint.ts). */
  footprint?: { thisRun: Record<string, number>; earlierRuns: Record<string, number>; archived: number; method: string }
  /** `run --history FILE`: the last runs of that file, this one last, for report.html's trend chart. */
  history?: { file: string; runs: HistoryLine[]; /** The runs shown judged other targets too. */ warning?: string }
  /** How each fixture pool stood before the checks started (src/engine/fixture-pools.ts): one line each. */
  fixturePools?: FixturePoolLine[]
  /** Set on the report of observed traffic (`proxy`, `verify-traffic`): its rows are traffic rules, not checks. */
  traffic?: TrafficReportSection
  /** The requirement matrix (src/coverage/): per MUST/SHOULD statement, its cells and those this run's checks judged. */
  coverage?: CoverageBlock
  /** The explorer's reach: cells (operation × axis × value form) its requests fell in, this run and over the `--history` nights (src/coverage/explored.ts). */
  explored?: ExploredBlock
}

/** What a traffic report judged: where the exchanges came from, how many, and who broke the contract. */
export interface TrafficReportSection {
  source: 'proxy' | 'files'
  /** The files read (verify-traffic), or the recording the proxy wrote. */
  files: string[]
  basePath: string
  exchanges: number
  rules: { total: number; exercised: number; must: number; mustExercised: number }
  /** Of the exchanges, those the server answered: with none, nothing was verified. */
  answered?: number
  /** Rules failed, by the side that broke them (all levels), and the MUST ones among them. */
  violations: { server: number; client: number; must: number }
  failOn: 'must' | 'should'
  /**
   * What the report leads with: the server's verdict on what it answered (`conformant`: every MUST rule exercised
   * and none broken by the server; `partial`: none broken, some not exercised; `violations`: one was broken;
   * `nothing-verified`: the server answered nothing of the API), and the line that says it, the client's
   * violations named apart.
   */
  headline?: { tone: 'conformant' | 'partial' | 'violations' | 'nothing-verified'; text: string; client: string }
  /** Set on one shard's report (verify-traffic --shard K/N): what `merge-reports` merges into the whole's report. */
  shard?: TrafficShardSection
}

/** One shard of traffic judged (src/traffic/partition.ts): its place, its rules, and each rule's mergeable tally. */
export interface TrafficShardSection {
  /** K-1 and N of --shard K/N. */
  index: number
  count: number
  /** Digest of the rules (ids, levels, clauses, what each remembers by): shards merge only with the same. */
  ruleSet: string
  /** Per rule, in the rows' order: counts, the first violation and where the evidence fell ([phase, seq], src/traffic/verifier.ts ViolationAt). */
  tallies: {
    id: string
    /** The rule's side (who a violation blames unless it says otherwise). */
    side: 'server' | 'client'
    judged: number
    violations: number
    first?: { message: string; expected?: string; side: 'server' | 'client'; at: [0 | 1, number] }
    evidenceAt: [0 | 1, number][]
  }[]
  /** Exchanges this shard counted whose judgement is missing (a worker crashed). */
  notJudged?: { count: number; why: string }
}

/** The checks a run judged, out of this suite version's catalogue (src/engine/scope.ts). */
export interface RunScope {
  /** Every check of the catalogue with the full profile and no selection: the only run whose verdict speaks for the whole spec. */
  complete: boolean
  /** The `--only` and `--skip` values as given; empty: no selection. */
  only: string[]
  skip: string[]
  /** The checks of this suite version's catalogue, and the MUST checks among them. */
  catalogue: { checks: number; must: number }
  /** Selected and allowed by the profile: what the verdict covers. */
  inScope: { checks: number; must: number }
  /** Selected checks the profile leaves out by design (they write what it does not send): listed here, not judged, not in `checks`. */
  outOfScope: { id: string; level: Level; reason: string }[]
}

/** One fixture pool's health as report.json keeps it. */
export interface FixturePoolLine {
  fixture: string
  variable: string
  label: string
  configured: number
  usable: number
  unusable: { id: string; reason: string }[]
  /** The id this run's checks used. */
  chosen?: string
  usesPerRun: number
  runsLeft?: number
  mustSkips: string[]
  line: string
}

/** What `--rerun-failed` and `--repeat` add to a report (src/run/repeat.ts). */
export interface RerunSection {
  /** The report whose failed and errored checks were run again. */
  from?: { path: string; runId?: string }
  /** Repetitions of each check (1 without --repeat). */
  repeat: number
  seeds: number[]
  checks: { id: string; before?: string; label: 'fixed' | 'still failing' | 'flaky' | 'not judged'; outcomes: { seed: number; status: string }[] }[]
}

/** One line of a `--history` file: one run. */
export interface HistoryLine {
  date: string
  runId: string
  version: string
  target: string
  verdict: Verdict
  counts: StatusCounts
  /** Ids of the checks that failed or errored. */
  failing: string[]
  /** The cells the explorer explored in this run (report.json's `explored.cells`): the union over the lines is the explored share over the nights. */
  explored?: string[]
}
