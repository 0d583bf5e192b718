// One run, start to report: the selected checks through executeRun, then report.json and every file rendered
// from it (report.html, summary.md, badge.json, junit.xml). The files are written whatever happens: a harness
// error, an exception mid-run, an interrupt, the run's bound. `run` and `certify` call this.
import type { CheckDefinition, CheckResult } from '../checks/types.ts'
import { redactedConfig, type ResolvedConfig } from '../config/config.ts'
import { certificationBlock } from '../certify/profile.ts'
import type { Waiver, WaiverOutcome } from './waivers.ts'
import type { Leftover } from '../engine/ledger.ts'
import { declaredRow, replayCommand, replayTarget, type ReplayInvocation } from '../checks/replay.ts'
import { select } from '../engine/selection.ts'
import type { RunSession } from '../engine/session.ts'
import type { PoolHealth } from '../engine/fixture-pools.ts'
import type { Status } from '../vocabulary.ts'
import { mergeRepetitions, repeatSeed, type LabelledCheck } from './repeat.ts'
import type { Footprint } from './footprint.ts'
import { appendHistory, HISTORY_SHOWN, historyLine, historyWarning, readHistory } from './history.ts'
import type { EmbeddedOptions } from './target.ts'
import { requestsByArea } from '../engine/stats.ts'
import { namedSecrets } from '../http/for-config.ts'
import { buildRunReport, exitCodeFor } from '../report/build.ts'
import { coverageOfRun } from '../report/coverage-of-run.ts'
import { exploredOfRun } from '../report/explored-of-run.ts'
import type { KeyWarning } from './preflight.ts'
import { describeScope } from '../engine/scope.ts'
import type { RunScope } from '../report/types.ts'
import type { MaskedSecret } from '../report/secrets.ts'
import type { RunReport } from '../report/types.ts'
import { copyToLatest, writeReportFiles } from '../report/write.ts'
import { specDigest } from '../spec/spec-text.ts'
import { TOOL_VERSION } from '../version.ts'
import { executeRun, type ExecuteOptions, type RunStop } from './execute.ts'
import { amendRows } from './row-pipeline.ts'

/** The exit code of an interrupted run, as a shell expects after Ctrl-C (128 + SIGINT). */
export const EXIT_INTERRUPTED = 130

export interface RunSuiteOptions extends Pick<
  ExecuteOptions,
  'signal' | 'runTimeoutMs' | 'cleanupTimeoutMs' | 'concurrency' | 'onSession' | 'onPools' | 'onStart' | 'onResult' | 'onPhase' | 'hurry'
> {
  config: ResolvedConfig
  /** The whole catalogue; `only` and `skip` select from it. */
  catalogue: CheckDefinition[]
  only?: string[]
  skip?: string[]
  runId: string
  startedAt?: Date
  /** Where the report files go. */
  reportDir: string
  /** Also copy the files there (reports/latest). */
  latestDir?: string
  journalDir?: string
  /** The embedded reference server (config.baseUrl unset). */
  embedded?: EmbeddedOptions
  strict?: boolean
  waivers?: Waiver[]
  waiversFile?: string
  /** `certify`: a row for every certifying check and the certification block. */
  certification?: boolean
  /** What the run was asked to judge (src/engine/scope.ts); default: described from the catalogue, the selection and the profile. */
  scope?: RunScope
  /** `--history FILE`: one JSON line per run appended there; report.html charts the last runs. */
  historyFile?: string
  /** `--repeat N`: each selected check runs N times, with seeds seed, seed+1, …; one that passed and failed is `flaky`. */
  repeat?: number
  /** `--rerun-failed`: exactly these checks run, each labelled `fixed` or `still failing` against its status there. */
  rerunOf?: { path: string; runId?: string; statuses: Record<string, Status> }
  /** Optional keys that answered contrary to their role (src/run/preflight.ts): noted on the checks that use them. */
  keyWarnings?: KeyWarning[]
  /** Told once the files of a stopped run were first written, before its clean-up. */
  onStoppedWritten?: (paths: string[]) => void
  /** How the user invoked the command, for the replay line (src/checks/replay.ts). */
  invocation?: ReplayInvocation
}

export interface SuiteOutcome {
  exitCode: number
  /** The report as written (secrets masked). */
  report: RunReport
  files: string[]
  leftovers: Leftover[]
  stop?: RunStop
  waiverOutcome?: WaiverOutcome
  /** Secrets the writer found and masked. */
  masked: MaskedSecret[]
  /** The run could not start or the harness failed: in words. */
  harnessError?: string
  /** The run's session (closed), when it opened. */
  session?: RunSession
}

export async function runSuite(options: RunSuiteOptions): Promise<SuiteOutcome> {
  const { config } = options
  const startedAt = options.startedAt ?? new Date()
  const embedded = config.baseUrl === undefined
  const target = replayTarget({ ...config, embedded: embedded ? (options.embedded ?? {}) : undefined })
  const rerunOf = options.rerunOf
  const selected = select(options.catalogue, options.only, options.skip).filter((c) => !rerunOf || c.id in rerunOf.statuses)
  const repeat = Math.max(1, options.repeat ?? 1)

  let results: CheckResult[]
  let session: RunSession | undefined
  let leftovers: Leftover[] = []
  let stop: RunStop | undefined
  let harnessError: string | undefined
  let pools: PoolHealth[] = []
  let labels: LabelledCheck[] | undefined
  let footprint: Footprint | undefined
  const repetitions: { seed: number; results: CheckResult[] }[] = []
  const sessions: RunSession[] = []
  try {
    // Each repetition is a run of its own (its session, fixtures, clean-up), with the next seed.
    for (let i = 0; i < repeat && !stop; i++) {
      const seed = repeatSeed(config.seed, i)
      const run = await executeRun({
        ...options,
        config: { ...config, seed },
        checks: selected,
        onSession: (s) => ((session = s), sessions.push(s), options.onSession?.(s)),
        // Before clean-up: a CI job killed during it keeps every file, marked interrupted.
        onStopped: async (rows, early, opened) => {
          const pending = opened.ledger.pending().map((e) => ({
            resource: e.resource,
            id: e.id,
            reason: `not removed yet: clean-up was starting when this report was written (crm-conformance sweep --run ${options.runId} removes it)`,
          }))
          const { written } = await compose(rows, pending, early, undefined)
          options.onStoppedWritten?.(written.paths)
        },
      })
      repetitions.push({ seed, results: run.results })
      leftovers = [...leftovers, ...run.leftovers]
      stop = run.stop
      if (i === 0) pools = run.pools
      footprint = run.footprint
    }
    if (repeat > 1 || rerunOf) ({ results, labels } = mergeRepetitions(repetitions, rerunOf?.statuses))
    else results = repetitions[0]!.results
  } catch (error) {
    // A harness fault: every check not judged is an error row, so the report says the run proved nothing.
    harnessError = (error as Error)?.stack ?? String(error)
    const message = `harness error: ${(error as Error)?.message ?? String(error)}`
    results = selected.map((check) => declaredRow(check, 'error', message, target))
    leftovers =
      (session as RunSession | undefined)?.ledger
        .pending()
        .map((e) => ({ resource: e.resource, id: e.id, reason: 'not removed: the run ended on a harness error' })) ?? []
  }
  const opened = session as RunSession | undefined
  if (harnessError && opened) harnessError = opened.redactor.string(harnessError)
  const { written, waiverOutcome } = await compose(results, leftovers, stop, harnessError)
  if (options.historyFile) appendHistory(options.historyFile, historyLine(written.report))

  let exitCode: number = exitCodeFor(written.report, { strict: options.strict ?? false })
  if (stop?.kind === 'interrupted') exitCode = EXIT_INTERRUPTED
  else if (harnessError && !opened) exitCode = 2
  else if (harnessError) exitCode = Math.max(exitCode, 1)
  // A stale waiver fails the run, so waivers never outlive the failure they excuse.
  else if (exitCode === 0 && waiverOutcome && waiverOutcome.stale.length > 0) exitCode = 1
  return { exitCode, report: written.report, files: written.paths, leftovers, stop, waiverOutcome, masked: written.masked, harnessError, session: opened }

  /** The report of these rows, and every file rendered from it, written (again, after an interrupt's first writing). */
  async function compose(results: CheckResult[], leftovers: Leftover[], stop: RunStop | undefined, harnessError: string | undefined) {
    const opened = session as RunSession | undefined
    const { catalogue, keyWarnings, certification, waivers, waiversFile } = options
    const amended = amendRows(results, { catalogue, target, startedAt, keyWarnings, certification, waivers, waiversFile, harnessError })
    const waiverOutcome = amended.waiverOutcome
    results = amended.rows

    const stats = sessions.length > 1 ? mergedStats(sessions) : opened?.transport.stats
    let report: RunReport = buildRunReport({
      results,
      tool: { name: 'crm-conformance', version: TOOL_VERSION },
      spec: { digest: specDigest(), file: 'spec/crm-api-spec.md' },
      target: { baseUrl: opened?.baseUrl ?? config.baseUrl ?? 'embedded', embedded, variant: options.embedded?.variant, faults: options.embedded?.faults },
      profile: config.profile,
      seed: config.seed,
      runId: options.runId,
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      config: redactedConfig(config),
      // The transport's own count: every request that went out, the clean-up's included.
      requests: {
        total: stats?.total ?? 0,
        byArea: requestsByArea(sessions.length > 1 ? sessions.flatMap((s) => s.exchanges) : (opened?.exchanges ?? [])),
        byKey: { ...(stats?.byKey ?? {}) },
        rateLimited: { ...(stats?.rateLimited ?? {}) },
      },
      leftovers,
      capabilities: opened?.capabilities,
      replay: replayCommand(target, { only: options.only, skip: options.skip }),
      scope: options.scope ?? describeScope(options.catalogue, { only: options.only, skip: options.skip, profile: config.profile }),
    })
    if (pools.length > 0) report = { ...report, fixturePools: pools }
    if (footprint) report = { ...report, footprint }
    if (labels)
      report = {
        ...report,
        rerun: {
          ...(rerunOf ? { from: { path: rerunOf.path, runId: rerunOf.runId } } : {}),
          repeat,
          seeds: repetitions.map((r) => r.seed),
          checks: labels,
        },
      }
    if (stop) report = { ...report, interrupted: { reason: stop.reason, at: stop.at.toISOString() } }
    if (options.certification)
      report = {
        ...report,
        certification: certificationBlock(results, options.catalogue, { suiteVersion: TOOL_VERSION, specDigest: report.spec.digest }),
      } as RunReport
    if (waiverOutcome) report = { ...report, waivers: waiverOutcome } as RunReport
    report = { ...report, coverage: coverageOfRun(report.checks, options.catalogue) }
    const earlier = options.historyFile ? readHistory(options.historyFile) : []
    const explored = exploredOfRun(report.checks, options.historyFile ? { file: options.historyFile, earlier: earlier.map((l) => l.explored) } : undefined)
    if (explored) report = { ...report, explored }
    if (options.historyFile) {
      const runs = [...earlier, historyLine(report)].slice(-HISTORY_SHOWN)
      const warning = historyWarning(runs)
      report = { ...report, history: { file: options.historyFile, runs, ...(warning ? { warning } : {}) } }
    }

    // Secrets the server echoed in a form redaction missed are masked here, and the files written anyway.
    const secretList = Object.fromEntries(namedSecrets(opened?.config ?? config).map((s) => [s.name, s.value]))
    const written = await writeReportFiles(report, options.reportDir, { secrets: secretList })
    if (options.latestDir) await copyToLatest(options.reportDir, options.latestDir)
    return { report, written, waiverOutcome }
  }
}

/** The request counts of several repetitions' transports, added up. */
function mergedStats(sessions: RunSession[]): { total: number; byKey: Record<string, number>; rateLimited: Record<string, number> } {
  const add = (into: Record<string, number>, from: Record<string, number> | undefined) => {
    for (const [k, v] of Object.entries(from ?? {})) into[k] = (into[k] ?? 0) + v
  }
  const merged = { total: 0, byKey: {} as Record<string, number>, rateLimited: {} as Record<string, number> }
  for (const s of sessions) {
    merged.total += s.transport.stats.total
    add(merged.byKey, s.transport.stats.byKey)
    add(merged.rateLimited, s.transport.stats.rateLimited)
  }
  return merged
}
