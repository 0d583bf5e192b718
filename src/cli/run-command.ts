// `crm-conformance run`: the command-line shell of a run. Resolves the configuration, checks the target is
// there, prints the estimate, turns signals into an interrupt, and hands the run itself to runSuite
// (src/run/run-suite.ts), which runs the checks, cleans up and writes every report file.
// Exit codes: 0 no MUST check failed, 1 one did, 2 the run could not start, 130 interrupted.
import { mkdirSync, rmdirSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { randomBytes } from 'node:crypto'
import { DEFAULTS, describeMissingOptionals, environmentFacts, loadConfig, PUBLIC_VARIABLES, type ResolvedConfig } from '../config/config.ts'
import { lookalikeWarnings } from '../config/env-names.ts'
import { invocationFromEnv, setReplayInvocation } from '../checks/replay.ts'
import { select } from '../engine/selection.ts'
import { gateRun } from '../run/run-gate.ts'
import type { RunSession } from '../engine/session.ts'
import { sweep } from '../engine/sweep.ts'
import { preflightTarget, type KeyWarning } from '../run/preflight.ts'
import { scopesNeeded } from '../run/scope-needs.ts'
import { transportFor } from '../http/for-config.ts'
import { nothingTestedReason } from '../report/scope.ts'
import type { RunReport } from '../report/types.ts'
import { describeWaiverOutcome, loadWaivers, type Waiver } from '../run/waivers.ts'
import { describeEstimate, estimateRequests, formatDuration } from '../run/estimate.ts'
import { EXIT_INTERRUPTED, runSuite, type SuiteOutcome } from '../run/run-suite.ts'
import { TOOL_VERSION } from '../version.ts'
import { embeddedOptionProblem } from './embedded-options.ts'
import { Progress, skipsByReason } from './progress.ts'
import { printable, printableLine } from '../text/printable.ts'
import { describeRepeatFailures, describeSeeds, type RepeatOutcome } from '../run/repeat.ts'
import { describeFootprint, describeLeftovers } from '../run/footprint.ts'
import type { ProfileWord, Status } from '../vocabulary.ts'
import { counted } from '../text/counted.ts'
import { quotedPath } from '../text/quoted-path.ts'
import { exploredLine } from '../coverage/explored.ts'

export interface RunCommandOptions {
  baseUrl?: string
  /** `deep`: the full profile with the explorer's nightly budget. */
  profile?: ProfileWord
  /** `--explore-requests`: the explorer's budget (CRM_EXPLORE_REQUESTS). */
  exploreRequests?: number
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
  /** Where a run that cannot start says why (default: stderr; with `write` given and this not, `write`). */
  writeError?: (text: string) => void
  /** `--waivers FILE`: known failures of everyday runs (src/run/waivers.ts); a stale waiver fails the run. */
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
  const rawWrite = options.write ?? ((text: string) => process.stdout.write(text))
  // Every line quotes server text somewhere (ids, messages, skip reasons, /me's workspace): printed inert.
  const write = (text: string) => rawWrite(printable(text))
  // What stops a run before it starts goes to stderr, so a pipeline's log and a script's output tell it apart.
  const rawWriteError = options.writeError ?? options.write ?? ((text: string) => process.stderr.write(text))
  const writeError = (text: string) => rawWriteError(printable(text))
  const env = options.env ?? process.env
  setReplayInvocation(invocationFromEnv(env))
  let config: ResolvedConfig
  try {
    config = loadConfig(env, { baseUrl: options.baseUrl, profile: options.profile, seed: options.seed, exploreRequests: options.exploreRequests })
  } catch (error) {
    // A misspelt name is often why the configuration is unusable (CRM_APIKEY): said here too.
    for (const line of lookalikeWarnings(environmentFacts(env).names, PUBLIC_VARIABLES)) writeError(`${line}\n`)
    writeError(`${(error as Error).message}\n`)
    return { exitCode: 2 }
  }
  // --variant and --fault with the other options: one line naming the nearest, before anything is written.
  const embeddedProblem = await embeddedOptionProblem(options.variant, options.faults)
  if (embeddedProblem) {
    writeError(`${embeddedProblem}\n`)
    return { exitCode: 2 }
  }
  // Typo warnings, the embedded server only on purpose, a selection or profile that leaves nothing refused.
  const { catalogue } = await import('../../suites/index.ts')
  let rerunOf: Awaited<ReturnType<typeof rerunSelection>> | undefined
  if (options.rerunFailed) {
    rerunOf = await rerunSelection(options.rerunFailed, catalogue, options, writeError)
    if (typeof rerunOf === 'number') return { exitCode: rerunOf }
    options = { ...options, only: Object.keys(rerunOf.statuses) }
  }
  const gate = gateRun(config, catalogue, { env, embedded: options.embedded, only: options.only, skip: options.skip })
  if (gate.refusal) {
    for (const line of [...gate.lines, gate.refusal]) writeError(`${line}\n`)
    return { exitCode: 2 }
  }
  config = gate.config
  const scope = gate.scope
  const embedded = config.baseUrl === undefined
  if (!embedded && (options.variant || options.faults?.length)) {
    writeError('--variant and --fault apply to the embedded reference server only (unset CRM_BASE_URL)\n')
    return { exitCode: 2 }
  }
  // Waivers and certification (src/certify/): validated before the run starts.
  let waivers: Waiver[] | undefined
  if (options.waiversFile) {
    if (options.certification) {
      writeError('certification admits no waiver\n')
      return { exitCode: 2 }
    }
    try {
      waivers = loadWaivers(options.waiversFile)
    } catch (error) {
      writeError(`${(error as Error).message}\n`)
      return { exitCode: 2 }
    }
  }
  const startedAt = new Date()
  const runId = newRunId(startedAt)
  const reportDir = resolve(options.reportDir ?? join('reports', runId))
  const journalDir = join(reportDir, '.journal')

  // The first line names the target and the CI service detected (src/config/ci.ts).
  write(
    `crm-conformance ${TOOL_VERSION}: ${embedded ? 'embedded reference server' : config.baseUrl}, profile ${config.profile}, seed ${config.seed}${gate.ciName ? `, in ${gate.ciName}` : ''}\n`,
  )
  for (const line of gate.lines) write(`${line}\n`)

  let keyWarnings: KeyWarning[] = []
  let limitPerMinute: number | undefined
  // Only a run with a webhook check in it listens: a busy port elsewhere never stops a run that does not.
  if (!embedded && config.webhookSecret && select(catalogue, options.only, options.skip).some((c) => c.webhooks)) {
    const { sinkPortProblem } = await import('../webhooks/sink-port.ts')
    const busy = await sinkPortProblem(config.sinkHost, config.sinkPort)
    if (busy) {
      writeError(`${busy}\n`)
      return { exitCode: 2 }
    }
  }
  if (!embedded) {
    // The main key must be accepted; optional keys that answer contrary to their role are warned about.
    const checked = await preflightTarget(config, scopesNeeded(select(catalogue, options.only, options.skip), config.profile))
    if (checked.refusal) {
      writeError(`${checked.refusal}\n`)
      return { exitCode: 2 }
    }
    // What the optional variables left unset will skip: told once the target has accepted the main key, not before an error.
    for (const line of describeMissingOptionals(config)) write(`  ${line}\n`)
    for (const warning of checked.warnings) write(`  configuration warning: ${warning.message}\n`)
    keyWarnings = checked.warnings
    limitPerMinute = checked.limitPerMinute
    if (options.sweepOlderThanMs !== false && config.profile !== 'read-only') {
      const transport = transportFor(config)
      try {
        const swept = await sweep(transport, { olderThanMs: options.sweepOlderThanMs ?? DEFAULT_SWEEP_AGE_MS, exceptRunId: runId })
        if (swept.removed.length > 0) write(`  swept ${counted(swept.removed.length, 'record')} left by earlier runs\n`)
      } finally {
        await transport.close()
      }
    }
  }

  const selected = select(catalogue, options.only, options.skip)
  const limits: Record<string, number | undefined> = embedded ? { main: options.rateLimit ?? EMBEDDED_RATE_LIMIT } : { main: limitPerMinute }
  // Each repetition is a run of its own: its fixtures, pools and clean-up too.
  const estimate = Object.fromEntries(Object.entries(estimateRequests(selected)).map(([role, n]) => [role, n * (options.repeat ?? 1)]))
  for (const line of describeEstimate(estimate, limits)) write(`  ${line}\n`)

  const tty = options.write === undefined && process.stdout.isTTY === true
  const progress = new Progress({
    // --repeat N: every repetition runs each check once more.
    total: selected.length * (options.repeat ?? 1),
    write: rawWrite,
    tty,
    color: tty && !(options.env ?? process.env).NO_COLOR,
    quiet: options.quiet ?? false,
  })
  // As CI cancels a job (GitHub Actions: SIGINT, SIGTERM 7.5 s later, SIGKILL 2.5 s after that). First signal:
  // no new check, every report file written at once marked interrupted, then clean-up (bounded) and the files
  // written again; exit 130 within DEFAULTS.interruptExitS. Second signal: clean-up ends at once, the files
  // are kept, and the sweep command for what may be left is printed.
  const interrupt = new AbortController()
  const hurry = new AbortController()
  let session: RunSession | undefined
  let signals = 0
  let firstWritten = false
  let finished = false
  const onSignal = (signal: NodeJS.Signals) => {
    signals++
    // The run said all it had to say: a further signal (CI's SIGTERM) only ends the process, as interrupted.
    if (finished) process.exit(EXIT_INTERRUPTED)
    if (signals === 1) {
      progress.note(
        `\ninterrupted (${signal}): stopping the checks, writing the report, then cleaning up… (a second Ctrl-C or SIGTERM ends clean-up at once; the report is kept)`,
      )
      interrupt.abort(signal)
      // Whatever the server does: past the bound the files written so far stay, and the process ends.
      setTimeout(() => abandon('the interrupt reached its bound'), DEFAULTS.interruptExitS * 1000).unref()
      return
    }
    if (signals === 2) {
      // The files are still written (once) if they were not yet; the first signal's bound still holds.
      progress.note(`${signal}: ending clean-up at once; the report files are kept`)
      hurry.abort(signal)
      return
    }
    abandon(signal)
  }
  const abandon = (why: string) => {
    progress.stop()
    write(`\n${describeAbandoned(session, embedded, runId, firstWritten ? reportDir : undefined, why)}\n`)
    process.exit(EXIT_INTERRUPTED)
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  let outcome: SuiteOutcome
  let poolsTold = 0
  let cleanups = 0
  const repeated = new Map<string, Status[]>()
  mkdirSync(journalDir, { recursive: true })
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
      hurry: hurry.signal,
      onStoppedWritten: () => {
        firstWritten = true
        progress.note(`report written (interrupted): ${quotedPath(reportDir)}; cleaning up, then writing it again`)
      },
      onSession: (opened) => {
        session = opened
        progress.attach(opened)
      },
      // Before any check: how each fixture pool stands, and which MUST checks an empty one will skip.
      // --repeat: each repetition reads the pools and cleans up; the pools are told once, the last clean-up only.
      onPools: (pools) => {
        if (poolsTold++ > 0) return
        for (const pool of pools) if (!options.quiet || pool.mustSkips.length > 0) progress.note(`  ${pool.line}`)
      },
      onStart: (check) => progress.started(check),
      onResult: (result) => {
        repeated.set(result.id, [...(repeated.get(result.id) ?? []), result.status])
        progress.result(result)
      },
      onPhase: (phase, detail) => {
        if (phase === 'stopping') progress.note(`stopping: ${detail}`)
        else if (interrupt.signal.aborted) progress.note(`cleaning up (${detail}); ${progress.statusLine()}`)
        else if (!options.quiet && ++cleanups === (options.repeat ?? 1)) progress.note(`cleaning up (${detail})`)
      },
    })
  } finally {
    progress.stop()
    finished = true
    // After an interrupt the handlers stay until exit, so CI's next signal still ends it with 130.
    if (signals === 0) {
      process.off('SIGINT', onSignal)
      process.off('SIGTERM', onSignal)
    }
    removeIfEmpty(journalDir)
  }
  const wallMs = performance.now() - started
  const { report, leftovers, waiverOutcome } = outcome
  // The journal matters only while records of the run may be left (a crash, a leftover): else no folder stays behind.
  if (embedded || leftovers.length === 0) rmSync(journalDir, { recursive: true, force: true })

  if (outcome.harnessError) write(`harness error: ${outcome.harnessError}\n`)
  for (const masked of outcome.masked)
    write(`masked a secret in the report: ${masked.secret} appeared ${masked.count}× (${masked.encoding}) in what the server sent back\n`)
  const s = report.summary
  if (report.interrupted) write(`\nINTERRUPTED (${report.interrupted.reason}): the report lists the checks it did not reach as not run\n`)
  write(
    `\n${report.verdict.toUpperCase()}${report.verdictLabel.slice(report.verdict.length)}: ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped, ${s.errored} errored (${report.requests.total} requests in ${formatDuration(wallMs)})\n`,
  )
  for (const line of skipsByReason(report.checks).slice(0, MAX_SKIP_LINES)) write(`  ${line}\n`)
  for (const line of describeRepeatFailures(repeated, options.repeat ?? 1)) write(`  ${line}\n`)
  for (const line of describeLabels(report)) write(`  ${line}\n`)
  const byArea = Object.entries(report.requests.byArea).sort((a, b) => b[1] - a[1])
  if (byArea.length > 0 && !options.quiet) write(`  requests by area: ${byArea.map(([area, n]) => `${area} ${n}`).join(', ')}\n`)
  // On the embedded server they went with it; against a real one each is named, to be removed by hand.
  if (report.footprint) write(`  ${describeFootprint(report.footprint)}\n`)
  if (report.explored) write(`  ${exploredLine(report.explored)}\n`)
  if (embedded && leftovers.length > 0)
    write(`  ${counted(leftovers.length, 'record')} the API cannot delete stayed in the embedded server and went with it (listed in the report)\n`)
  else
    for (const line of describeLeftovers(
      leftovers.map((l) => ({ ...l, id: printableLine(l.id), reason: printableLine(l.reason) })),
      'report.html (Leftovers) and report.json',
    ))
      write(`  ${line}\n`)
  if (!embedded && leftovers.some((l) => l.reason.startsWith('not removed'))) write(`remove them with: ${sweepCommand(runId)}\n`)
  for (const line of waiverOutcome ? describeWaiverOutcome(waiverOutcome) : []) write(`${line}\n`)
  if (report.history?.warning) write(`${report.history.warning}\n`)
  write(`reports: ${quotedPath(reportDir)}\n`)
  const nothingTested = nothingTestedReason(report.checks)
  if (nothingTested) write(`${nothingTested}\n`)
  // A pacer still sleeping out a spent window must not keep an interrupted process alive.
  if (signals > 0) setTimeout(() => process.exit(EXIT_INTERRUPTED), HURRY_EXIT_MS).unref()
  return { exitCode: outcome.exitCode, report, reportDir, files: outcome.files }
}

/** Once an interrupted run has said everything: the longest the process lingers (a pacer may still sleep). */
const HURRY_EXIT_MS = 200

function removeIfEmpty(dir: string): void {
  try {
    rmdirSync(dir)
  } catch {
    // Not empty (a journal of records left behind is kept), or already gone.
  }
}

/** `crm-conformance sweep --run <id>`, as the user invokes the command (npx or not). */
function sweepCommand(runId: string): string {
  const npx = invocationFromEnv(process.env).prefix.startsWith('npx ')
  return `${npx ? 'npx ' : ''}crm-conformance sweep --run ${runId}`
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

/** What a run abandoned before its clean-up ended may leave behind, where its report is, and the command that removes what is left. */
function describeAbandoned(session: RunSession | undefined, embedded: boolean, runId: string, reportDir: string | undefined, why: string): string {
  const report = reportDir ? `the report (marked interrupted) is kept in ${quotedPath(reportDir)}` : 'no report was written'
  if (embedded) return `stopped at once (${why}): ${report}; the embedded server went with the run, nothing is left behind`
  const pending = session?.ledger.pending() ?? []
  const lines = [`stopped at once (${why}): ${report}; ${counted(pending.length, 'record')} this run created may be left behind`]
  for (const entry of pending.slice(0, 20)) lines.push(`  ${entry.resource} ${printableLine(entry.id)}`)
  if (pending.length > 20) lines.push(`  … and ${pending.length - 20} more`)
  lines.push(`remove them with: ${sweepCommand(runId)}`)
  return lines.join('\n')
}
