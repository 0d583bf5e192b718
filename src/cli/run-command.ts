// `crm-conformance run`: the command-line shell of a run. Resolves the configuration, checks the target is
// there, prints the estimate, turns signals into an interrupt, and hands the run itself to runSuite
// (src/run/run-suite.ts), which runs the checks, cleans up and writes every report file.
// Exit codes: 0 no MUST check failed, 1 one did, 2 the run could not start, 130 interrupted.
import { mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { randomBytes } from 'node:crypto'
import type { Profile } from '../checks/types.ts'
import { DEFAULTS, describeMissingOptionals, loadConfig, type ResolvedConfig } from '../config/config.ts'
import { select } from '../engine/selection.ts'
import { gateRun } from '../engine/run-gate.ts'
import type { RunSession } from '../engine/session.ts'
import { sweep } from '../engine/sweep.ts'
import { preflightTarget, type KeyWarning } from '../engine/preflight.ts'
import { transportFor } from '../http/for-config.ts'
import { nothingTestedReason } from '../report/scope.ts'
import type { RunReport } from '../report/types.ts'
import { describeWaiverOutcome, loadWaivers, type Waiver } from '../certify/waivers.ts'
import { describeEstimate, estimateRequests, formatDuration } from '../run/estimate.ts'
import { EXIT_INTERRUPTED, runSuite, type SuiteOutcome } from '../run/run-suite.ts'
import { TOOL_VERSION } from '../version.ts'
import { Progress, skipsByReason } from './progress.ts'
import { describeSeeds, type RepeatOutcome } from '../run/repeat.ts'
import { describeFootprint } from '../run/footprint.ts'
import type { Status } from '../vocabulary.ts'

export interface RunCommandOptions {
  baseUrl?: string
  profile?: Profile
  only?: string[]
  skip?: string[]
  seed?: number
  reportDir?: string
  strict?: boolean
  /** Embedded reference server only: a legal variant, faults to inject, the main key's per-minute limit. */
  variant?: string
  faults?: string[]
  rateLimit?: number
  quiet?: boolean
  /** Before a run against CRM_BASE_URL, remove what crashed runs older than this left behind (default 6h; false: don't). */
  sweepOlderThanMs?: number | false
  env?: NodeJS.ProcessEnv
  write?: (text: string) => void
  /** `--waivers FILE`: known failures of everyday runs (src/certify/waivers.ts); a stale waiver fails the run. */
  waiversFile?: string
  /** `--embedded`: test the embedded reference server on purpose (src/config/target-choice.ts). */
  embedded?: boolean
  /** `--rerun-failed <report>`: run exactly the checks that failed or errored there, labelled `fixed` or `still failing`. */
  rerunFailed?: string
  /** `--history FILE`: one JSON line per run appended there; report.html charts the last runs. */
  history?: string
  /** `--repeat N`: each selected check N times (seeds seed, seed+1, …); one that passed and failed is `flaky`. */
  repeat?: number
  /** Set by `certify` only: a row for every certifying check, and the certification block in report.json (src/certify/profile.ts). */
  certification?: boolean
}

export interface RunOutcome {
  exitCode: number
  report?: RunReport
  reportDir?: string
  files?: string[]
}

/** The embedded server's main key gets a high limit so a local run is not paced; `--rate-limit 600` restores the spec's default. */
export const EMBEDDED_RATE_LIMIT = DEFAULTS.embeddedRateLimitPerMinute

/** Records of earlier runs younger than this may belong to a run still going on elsewhere: left alone. */
export const DEFAULT_SWEEP_AGE_MS = 6 * 3_600_000

export function newRunId(now = new Date()): string {
  return `${now.toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-')}-${randomBytes(3).toString('hex')}`
}

export async function runCommand(options: RunCommandOptions): Promise<RunOutcome> {
  const write = options.write ?? ((text: string) => process.stdout.write(text))
  let config: ResolvedConfig
  try {
    config = loadConfig(options.env ?? process.env, { baseUrl: options.baseUrl, profile: options.profile, seed: options.seed })
  } catch (error) {
    write(`${(error as Error).message}\n`)
    return { exitCode: 2 }
  }
  // Typo warnings, the embedded server only on purpose, a selection or profile that leaves nothing refused.
  const { catalogue } = await import('../../suites/index.ts')
  let rerunOf: Awaited<ReturnType<typeof rerunSelection>> | undefined
  if (options.rerunFailed) {
    rerunOf = await rerunSelection(options.rerunFailed, catalogue, options, write)
    if (typeof rerunOf === 'number') return { exitCode: rerunOf }
    options = { ...options, only: Object.keys(rerunOf.statuses) }
  }
  const gate = gateRun(config, catalogue, { env: options.env ?? process.env, embedded: options.embedded, only: options.only, skip: options.skip })
  for (const line of [...gate.lines, ...(gate.refusal ? [gate.refusal] : [])]) write(`${line}\n`)
  if (gate.refusal) return { exitCode: 2 }
  config = gate.config
  const scope = gate.scope
  const embedded = config.baseUrl === undefined
  if (!embedded && (options.variant || options.faults?.length)) {
    write('--variant and --fault apply to the embedded reference server only (unset CRM_BASE_URL)\n')
    return { exitCode: 2 }
  }
  // Waivers and certification (src/certify/): validated before the run starts.
  let waivers: Waiver[] | undefined
  if (options.waiversFile) {
    if (options.certification) {
      write('certification admits no waiver\n')
      return { exitCode: 2 }
    }
    try {
      waivers = loadWaivers(options.waiversFile)
    } catch (error) {
      write(`${(error as Error).message}\n`)
      return { exitCode: 2 }
    }
  }
  const startedAt = new Date()
  const runId = newRunId(startedAt)
  const reportDir = resolve(options.reportDir ?? join('reports', runId))
  const journalDir = join(reportDir, '.journal')
  mkdirSync(journalDir, { recursive: true })

  write(`crm-conformance ${TOOL_VERSION}: ${embedded ? 'embedded reference server' : config.baseUrl}, profile ${config.profile}, seed ${config.seed}\n`)
  for (const line of embedded ? [] : describeMissingOptionals(config)) write(`  ${line}\n`)

  let keyWarnings: KeyWarning[] = []
  let limitPerMinute: number | undefined
  if (!embedded) {
    // The main key must be accepted; optional keys that answer contrary to their role are warned about.
    const checked = await preflightTarget(config)
    if (checked.refusal) {
      write(`${checked.refusal}\n`)
      return { exitCode: 2 }
    }
    for (const warning of checked.warnings) write(`  configuration warning: ${warning.message}\n`)
    keyWarnings = checked.warnings
    limitPerMinute = checked.limitPerMinute
    if (options.sweepOlderThanMs !== false && config.profile !== 'read-only') {
      const transport = transportFor(config)
      try {
        const swept = await sweep(transport, { olderThanMs: options.sweepOlderThanMs ?? DEFAULT_SWEEP_AGE_MS, exceptRunId: runId })
        if (swept.removed.length > 0) write(`  swept ${swept.removed.length} records left by earlier runs\n`)
      } finally {
        await transport.close()
      }
    }
  }

  const selected = select(catalogue, options.only, options.skip)
  const limits: Record<string, number | undefined> = embedded ? { main: options.rateLimit ?? EMBEDDED_RATE_LIMIT } : { main: limitPerMinute }
  for (const line of describeEstimate(estimateRequests(selected), limits)) write(`  ${line}\n`)

  const tty = options.write === undefined && process.stdout.isTTY === true
  const progress = new Progress({ total: selected.length, write, tty, color: tty && !(options.env ?? process.env).NO_COLOR, quiet: options.quiet ?? false })
  // First signal: no new check, clean up, write the report marked interrupted, exit 130. Second: exit at once.
  const interrupt = new AbortController()
  let session: RunSession | undefined
  let signals = 0
  const onSignal = (signal: NodeJS.Signals) => {
    signals++
    if (signals === 1) {
      progress.note('\ninterrupted: stopping the checks and cleaning up… (Ctrl-C again to exit at once)')
      interrupt.abort(signal)
      return
    }
    progress.stop()
    write(`\n${describeAbandoned(session, embedded, runId)}\n`)
    process.exit(EXIT_INTERRUPTED)
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  let outcome: SuiteOutcome
  const started = performance.now()
  try {
    outcome = await runSuite({
      config,
      catalogue,
      only: options.only,
      skip: options.skip,
      runId,
      startedAt,
      reportDir,
      latestDir: options.reportDir ? undefined : resolve('reports', 'latest'),
      journalDir,
      embedded: embedded ? { variant: options.variant, faults: options.faults, rateLimitPerMinute: options.rateLimit ?? EMBEDDED_RATE_LIMIT } : undefined,
      strict: options.strict,
      waivers,
      waiversFile: options.waiversFile,
      certification: options.certification,
      repeat: options.repeat,
      historyFile: options.history ? resolve(options.history) : undefined,
      rerunOf: rerunOf && typeof rerunOf === 'object' ? rerunOf : undefined,
      scope,
      keyWarnings,
      signal: interrupt.signal,
      onSession: (opened) => {
        session = opened
        progress.attach(opened)
      },
      // Before any check: how each fixture pool stands, and which MUST checks an empty one will skip.
      onPools: (pools) => {
        for (const pool of pools) if (!options.quiet || pool.mustSkips.length > 0) progress.note(`  ${pool.line}`)
      },
      onStart: (check) => progress.started(check),
      onResult: (result) => progress.result(result),
      onPhase: (phase, detail) => {
        if (phase === 'stopping') progress.note(`stopping: ${detail}`)
        else if (!options.quiet) progress.note(`cleaning up (${detail})`)
      },
    })
  } finally {
    progress.stop()
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
  }
  const wallMs = performance.now() - started
  const { report, leftovers, waiverOutcome } = outcome

  if (outcome.harnessError) write(`harness error: ${outcome.harnessError}\n`)
  for (const masked of outcome.masked)
    write(`masked a secret in the report: ${masked.secret} appeared ${masked.count}× (${masked.encoding}) in what the server sent back\n`)
  const s = report.summary
  if (report.interrupted) write(`\nINTERRUPTED (${report.interrupted.reason}): the report lists the checks it did not reach as not run\n`)
  write(
    `\n${report.verdict.toUpperCase()}${report.verdictLabel.slice(report.verdict.length)}: ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped, ${s.errored} errored (${report.requests.total} requests in ${formatDuration(wallMs)})\n`,
  )
  for (const line of skipsByReason(report.checks).slice(0, MAX_SKIP_LINES)) write(`  ${line}\n`)
  for (const line of describeLabels(report)) write(`  ${line}\n`)
  const byArea = Object.entries(report.requests.byArea).sort((a, b) => b[1] - a[1])
  if (byArea.length > 0 && !options.quiet) write(`  requests by area: ${byArea.map(([area, n]) => `${area} ${n}`).join(', ')}\n`)
  // On the embedded server they went with it; against a real one each is named, to be removed by hand.
  if (report.footprint) write(`  ${describeFootprint(report.footprint)}\n`)
  if (embedded && leftovers.length > 0)
    write(`  ${leftovers.length} records the API cannot delete stayed in the embedded server and went with it (listed in the report)\n`)
  else for (const leftover of leftovers) write(`  left behind: ${leftover.resource} ${leftover.id} (${leftover.reason})\n`)
  for (const line of waiverOutcome ? describeWaiverOutcome(waiverOutcome) : []) write(`${line}\n`)
  write(`reports: ${reportDir}\n`)
  const nothingTested = nothingTestedReason(report.checks)
  if (nothingTested) write(`${nothingTested}\n`)
  return { exitCode: outcome.exitCode, report, reportDir, files: outcome.files }
}

/**
 * The checks of `--rerun-failed` or `--repeat`: what is left of the earlier run's failures, or which checks both
 * passed and failed. Returns the exit code when the re-run cannot start.
 */
async function rerunSelection(
  path: string,
  catalogue: { id: string }[],
  options: RunCommandOptions,
  write: (text: string) => void,
): Promise<{ path: string; runId?: string; statuses: Record<string, Status> } | number> {
  if (options.only?.length || options.skip?.length) {
    write('--rerun-failed runs exactly the checks that failed in that report: it takes no --only or --skip\n')
    return 2
  }
  const { readReport } = await import('./diff-command.ts')
  let earlier: ReturnType<typeof readReport>
  try {
    earlier = readReport(path)
  } catch (error) {
    write(`${(error as Error).message}\n`)
    return 2
  }
  const known = new Set(catalogue.map((c) => c.id))
  const failed = earlier.checks.filter((c) => c.status === 'failed' || c.status === 'error')
  const gone = failed.filter((c) => !known.has(c.id))
  if (gone.length) write(`  not in this suite version, not re-run: ${gone.map((c) => c.id).join(', ')}\n`)
  const statuses = Object.fromEntries(failed.filter((c) => known.has(c.id)).map((c) => [c.id, c.status]))
  if (Object.keys(statuses).length === 0) {
    write(`no check failed or errored in ${path}${gone.length ? ' that this suite version has' : ''}: nothing to re-run\n`)
    return gone.length ? 2 : 0
  }
  write(`re-running the ${Object.keys(statuses).length} checks that failed or errored in run ${earlier.runId ?? path}\n`)
  return { path, runId: earlier.runId, statuses }
}

/** One line per labelled check of a re-run or repeat: `fixed`, `still failing`, `flaky` with the seeds. */
export function describeLabels(report: RunReport): string[] {
  return (report.rerun?.checks ?? []).map(
    (c) => `${c.label}: ${c.id}${c.label === 'flaky' || (report.rerun?.repeat ?? 1) > 1 ? ` (${describeSeeds(c.outcomes as RepeatOutcome[])})` : ''}`,
  )
}

/** Skip reasons listed at the end of a run; the rest are in the report. */
const MAX_SKIP_LINES = 8

/** What a run abandoned by a second signal may leave behind, and the command that removes it. */
function describeAbandoned(session: RunSession | undefined, embedded: boolean, runId: string): string {
  if (embedded) return 'stopped at once: the embedded server went with the run, nothing is left behind; no report was written'
  const pending = session?.ledger.pending() ?? []
  const lines = [`stopped at once: no report was written; ${pending.length} records this run created may be left behind`]
  for (const entry of pending.slice(0, 20)) lines.push(`  ${entry.resource} ${entry.id}`)
  if (pending.length > 20) lines.push(`  … and ${pending.length - 20} more`)
  lines.push(`remove them with: crm-conformance sweep --run ${runId}`)
  return lines.join('\n')
}
