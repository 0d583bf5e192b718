// The one way checks are run: opens the session, schedules the selected checks (src/engine/runner.ts), stops
// on an interrupt or at the run's bound, cleans up within clean-up's own bound, and closes the session.
// `run`, `certify` (through runSuite), self-validation and the in-process tests (through runInProcess) all
// come here, so every route judges a check alike.
import { compileSchemas } from '../schemas/registry.ts'
import type { CheckDefinition, CheckResult } from '../checks/types.ts'
import { DEFAULTS, type ResolvedConfig } from '../config/config.ts'
import { CLEANUP_TIMEOUT_MS, cleanUpWith } from '../engine/cleanup.ts'
import type { Leftover } from '../engine/ledger.ts'
import { declaredRow, replayTarget } from '../checks/replay.ts'
import { checksInFlight, scheduleChecks } from '../engine/runner.ts'
import { RunSession } from '../engine/session.ts'
import { sweep } from '../engine/sweep.ts'
import { choosePoolFixtures, type PoolHealth } from '../engine/fixture-pools.ts'
import { archiveProducts, countFootprint, type Footprint } from './footprint.ts'
import { transportFor } from '../http/for-config.ts'
import { resolveTarget, type EmbeddedOptions } from './target.ts'
import { measuredRequests } from './estimate.ts'
import { counted } from '../text/counted.ts'
import { openOracle } from './oracle.ts'

/** After a stop, how long requests already on the wire may take to answer before the run moves on without them. */
const STOP_DRAIN_MAX_MS = 4_000
/** After the last request in flight answered, how long a check has to record what it made and end. */
const STOP_SETTLE_MS = 300
/** Pages of 100 per collection an interrupted run searches for records of its own that its journal missed. */
const INTERRUPTED_SWEEP_PAGES = 5
/** Of the time from an interrupt to exit (DEFAULTS.interruptExitS), what is kept for rewriting the report after clean-up (a full run's files take 0.4–3 s to render and write on a loaded machine). */
const INTERRUPT_REWRITE_MS = 3_000
/** After an interrupt, the longest the search for unjournaled records may take: a nicety, never a reason to be killed. */
const INTERRUPTED_SWEEP_MS = 2_000

export interface ExecuteOptions {
  config: ResolvedConfig
  /** The selected checks, in declaration order. */
  checks: CheckDefinition[]
  runId: string
  /** Where the ledger journal goes; none: kept in memory. */
  journalDir?: string
  embedded?: EmbeddedOptions
  /** Checks in flight at once (default: twice the requests a key may have in flight). */
  concurrency?: number
  /** Aborting it interrupts the run; its reason (a string: `SIGINT`) is named in the report. */
  signal?: AbortSignal
  /** The whole run's bound (default config.runTimeoutS). */
  runTimeoutMs?: number
  cleanupTimeoutMs?: number
  /** Told once the session is open (the progress line reads its transport). */
  onSession?: (session: RunSession) => void
  /** Told once each fixture pool was read, before any check starts (src/engine/fixture-pools.ts). */
  onPools?: (pools: PoolHealth[]) => void
  onStart?: (check: CheckDefinition) => void
  onResult?: (result: CheckResult) => void
  /** Told when the run stops early and when clean-up starts. */
  onPhase?: (phase: 'stopping' | 'cleanup', detail: string) => void
  /**
   * Told once a stopped run's rows are known, before its clean-up: the report files are written then, so that
   * a job killed during clean-up keeps them (the files are written again after it).
   */
  onStopped?: (results: CheckResult[], stop: RunStop, session: RunSession) => Promise<void>
  /** Aborted (a second signal): the drain and the clean-up end at once; what is left is named. */
  hurry?: AbortSignal
}

export interface RunStop {
  kind: 'interrupted' | 'timeout'
  /** In words, for the report: `interrupted (SIGINT)`, `the run reached its bound of 3600 s (CRM_RUN_TIMEOUT_S)`. */
  reason: string
  at: Date
}

export interface ExecutedRun {
  /** One row per selected check, in declaration order. */
  results: CheckResult[]
  session: RunSession
  leftovers: Leftover[]
  stop?: RunStop
  /** How each fixture pool stood before the checks started. */
  pools: PoolHealth[]
  /** What this run and earlier ones left that the API cannot delete (absent in the read-only profile or after a stop). */
  footprint?: Footprint
}

/** A check the stop caught: not started (skipped, not run) or running (interrupt: skipped; bound: error). */
function stoppedResult(check: CheckDefinition, started: boolean, stop: RunStop, session: RunSession): CheckResult {
  const target = replayTarget(session)
  if (!started) return declaredRow(check, 'skipped', `not run: ${stop.reason}`, target)
  if (stop.kind === 'timeout') return declaredRow(check, 'error', `CRMCONF_RUN_TIMEOUT: ${stop.reason} before the check finished`, target)
  return declaredRow(check, 'skipped', `${stop.reason} before the check finished`, target)
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Requests already on the wire finish (the transport sends no new one, once stopped); a check that is only
 * waiting (a pacer window, a Retry-After, a webhook) is not waited for.
 */
async function drain(session: RunSession, config: ResolvedConfig, hurry?: AbortSignal): Promise<void> {
  const until = Date.now() + Math.min(STOP_DRAIN_MAX_MS, config.requestTimeoutMs)
  while (session.transport.inFlight > 0 && Date.now() < until && !hurry?.aborted) await sleep(50)
}

/** `work`, or `fallback` once `ms` have passed or `hurry` is aborted, whichever comes first. */
async function within<T>(work: Promise<T>, ms: number, fallback: T, hurry?: AbortSignal): Promise<T> {
  if (ms <= 0 || hurry?.aborted) return fallback
  let timer: NodeJS.Timeout | undefined
  let onAbort: (() => void) | undefined
  const cut = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms)
    onAbort = () => resolve(fallback)
    hurry?.addEventListener('abort', onAbort, { once: true })
  })
  try {
    return await Promise.race([work, cut])
  } finally {
    clearTimeout(timer)
    if (onAbort) hurry?.removeEventListener('abort', onAbort)
  }
}

export async function executeRun(options: ExecuteOptions): Promise<ExecutedRun> {
  const { config } = options
  // A broken schema is a start-up error of the run, not a failed check (the registry compiles lazily for --help and list).
  compileSchemas()
  const session = await RunSession.open({
    target: await resolveTarget(config, options.embedded),
    runId: options.runId,
    journalDir: options.journalDir,
    oracle: openOracle,
  })
  options.onSession?.(session)
  const halt = new AbortController()
  let stop: RunStop | undefined
  let stopped!: () => void
  const whenStopped = new Promise<void>((resolve) => (stopped = resolve))
  const stopRun = (kind: RunStop['kind'], reason: string) => {
    if (stop) return
    stop = { kind, reason, at: new Date() }
    session.transport.stop(`not sent: ${reason}`)
    halt.abort(reason)
    options.onPhase?.('stopping', reason)
    stopped()
  }
  const onAbort = () => stopRun('interrupted', `the run was interrupted (${String(options.signal?.reason ?? 'signal')})`)
  if (options.signal?.aborted) onAbort()
  options.signal?.addEventListener('abort', onAbort, { once: true })
  const boundMs = options.runTimeoutMs ?? config.runTimeoutS * 1000
  const bound = setTimeout(() => stopRun('timeout', `the run reached its bound of ${Math.round(boundMs / 1000)} s (CRM_RUN_TIMEOUT_S)`), boundMs)
  bound.unref()

  const started = new Set<string>()
  const settled = new Map<string, CheckResult>()
  let leftovers: Leftover[] = []
  let pools: PoolHealth[] = []
  let footprint: Footprint | undefined
  try {
    // The fixture each check sees is the first usable id of its pool, chosen before any check starts.
    const chosen = await choosePoolFixtures(session.config, session.transport, options.checks, session.embedded !== undefined)
    session.config.fixtures = chosen.fixtures
    pools = chosen.health
    options.onPools?.(pools)
    const scheduled = scheduleChecks(
      options.checks,
      session,
      options.concurrency ?? checksInFlight(config.concurrency),
      halt.signal,
      (check) => {
        started.add(check.id)
        options.onStart?.(check)
      },
      measuredRequests,
    )
    const all = Promise.all(
      [...scheduled].map(([id, promise]) =>
        promise.then((result) => {
          if (stop && result.message.startsWith('CRMCONF_RUN_STOPPED')) return
          settled.set(id, result)
          options.onResult?.(result)
        }),
      ),
    )
    await Promise.race([all, whenStopped])
    if (stop) {
      // The checks not reached are told apart from those done (the progress line counts them as not run).
      const rows = options.checks.map((check) => settled.get(check.id) ?? stoppedResult(check, started.has(check.id), stop!, session))
      for (const row of rows) if (!settled.has(row.id)) options.onResult?.(row)
      // The files are written while the requests on the wire drain: a job killed from here on keeps them.
      await Promise.all([options.onStopped?.(rows, stop, session), drain(session, config, options.hurry)])
      if (!options.hurry?.aborted) await Promise.race([all, sleep(STOP_SETTLE_MS)])
    }
  } finally {
    clearTimeout(bound)
    options.signal?.removeEventListener('abort', onAbort)
    // However the run ended (a harness error too), no check sends anything more once clean-up starts.
    session.transport.stop('not sent: the run is over')
    halt.abort('the run is over')
    try {
      await drain(session, config, options.hurry)
      options.onPhase?.('cleanup', `${counted(session.ledger.pending().length, 'record')} to remove`)
      // After an interrupt CI kills the job soon: clean-up ends in time for the report to be written again.
      const interrupted = stop?.kind === 'interrupted'
      const timeoutMs = options.cleanupTimeoutMs ?? CLEANUP_TIMEOUT_MS
      const exitBy = interrupted ? stop!.at.getTime() + DEFAULTS.interruptExitS * 1000 - INTERRUPT_REWRITE_MS : Infinity
      // What cannot be deleted (only the full profile makes it) is left inert where the API allows (products
      // archived), then counted; never past the request budget, where only clean-up's deletes go out.
      const footprinted = !stop && config.profile === 'full' && session.transport.stats.total < config.requestBudget
      const archived = footprinted ? await archiveProducts(session) : new Set<string>()
      leftovers = await cleanUpWith(session.ledger, session.transport, {
        timeoutMs: Math.max(0, Math.min(timeoutMs, exitBy - Date.now())),
        windowWaitMs: (interrupted ? DEFAULTS.interruptedCleanupWindowWaitS : DEFAULTS.cleanupWindowWaitS) * 1000,
        windowWaitName: interrupted ? 'DEFAULTS.interruptedCleanupWindowWaitS' : 'DEFAULTS.cleanupWindowWaitS',
        signal: options.hurry,
      })
      leftovers = leftovers.map((l) => (archived.has(l.id) ? { ...l, reason: `${l.reason}; left archived` } : l))
      if (footprinted) footprint = await countFootprint(session, leftovers, archived.size)
      // Only when clean-up got through: a search now would wait for the same window or the same signal.
      const cleanedUp = !leftovers.some((l) => l.reason.startsWith('not removed: '))
      if (stop && cleanedUp && !session.embedded && config.profile !== 'read-only')
        leftovers = await within(
          sweepStopped(config, options.runId, leftovers),
          Math.min(timeoutMs, exitBy - Date.now(), interrupted ? INTERRUPTED_SWEEP_MS : Infinity),
          leftovers,
          options.hurry,
        )
    } finally {
      // Requests still on the wire are not waited for past the interrupt's bound (a second signal: not at all).
      if (stop?.kind === 'interrupted')
        await within(session.close(), stop.at.getTime() + DEFAULTS.interruptExitS * 1000 - INTERRUPT_REWRITE_MS - Date.now(), undefined, options.hurry)
      else await session.close()
    }
  }
  const results = options.checks.map((check) => settled.get(check.id) ?? stoppedResult(check, started.has(check.id), stop!, session))
  return { results, session, leftovers, stop, pools, footprint }
}

/**
 * A check stopped between its create and the journal line leaves a record only a search finds: the newest
 * pages of each collection (the default order is newest first, §4.1) for this run's tag or label.
 */
async function sweepStopped(config: ResolvedConfig, runId: string, leftovers: Leftover[]): Promise<Leftover[]> {
  const transport = transportFor(config)
  try {
    const swept = await sweep(transport, { olderThanMs: 0, onlyRunId: runId, maxPages: INTERRUPTED_SWEEP_PAGES })
    const gone = new Set(swept.removed.map((r) => r.id))
    const unswept = swept.failed.filter((f) => f.id !== '*').map((f) => ({ resource: f.resource, id: f.id, reason: f.reason }))
    return [...leftovers.filter((l) => !gone.has(l.id)), ...unswept.filter((u) => !leftovers.some((l) => l.id === u.id))]
  } catch {
    return leftovers
  } finally {
    await transport.close()
  }
}
