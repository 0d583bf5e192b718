// Runs one check against a session and turns its ending into a CheckResult; schedules the checks of a run.
// The one run path (src/run/run-suite.ts) and the vitest integration use both, so every route judges alike.
import { DEFAULTS, keyUnset } from '../config/config.ts'
import { CheckFailed, CheckSkipped } from '../checks/define.ts'
import { noteCapabilityIn } from '../checks/note-capability.ts'
import type { CheckContext, CheckDefinition, CheckResult, CheckSession, EvidenceItem } from '../checks/types.ts'
import type { Exchange } from '../http/exchange.ts'
import { ApiClient } from '../http/api-client.ts'
import { curlFor } from '../http/curl.ts'
import { deadlineOn, Stopwatch } from '../http/stopwatch.ts'
import { CrmConfError } from '../errors.ts'
import { declaredRow, replayTarget } from '../checks/replay.ts'
import { profileExclusion } from './scope.ts'
import type { RunSession } from './session.ts'

/** Exchanges shown as evidence when a check does not name its own. */
const EVIDENCE_TAIL = 3

/** Why a check cannot run in this session, or undefined when it can. */
export function precondition(check: CheckDefinition, session: RunSession): string | undefined {
  // The one profile rule; the report lists these checks as out of scope (src/engine/scope.ts).
  const excluded = profileExclusion(check, session.profile)
  if (excluded) return excluded
  for (const role of check.keys ?? []) {
    if (!session.transport.hasKey(role)) return keyUnset(role)
  }
  if (check.webhooks && !session.config.webhookSecret) return 'CRM_WEBHOOK_SECRET is not set'
  return undefined
}

/** What the scheduler sees of a running check: its requests on their way, and when its last one ended. */
export interface CheckActivity {
  sending: number
  lastAt: number
}

export async function runCheck(check: CheckDefinition, session: RunSession, activity?: CheckActivity): Promise<CheckResult> {
  const exchanges: Exchange[] = []
  const observations: Record<string, unknown> = {}
  const notes: string[] = []
  const started = performance.now()
  const target = replayTarget(session)
  const finish = (status: CheckResult['status'], message: string, extra: Partial<CheckResult> = {}): CheckResult => ({
    ...declaredRow(check, 'skipped', message, target),
    status,
    observations,
    notes,
    requests: exchanges.length,
    durationMs: Math.round(performance.now() - started),
    ...extra,
  })

  const unmet = precondition(check, session)
  if (unmet) return finish('skipped', unmet)

  const record = (exchange: Exchange) => exchanges.push(exchange)
  // The deadline is measured on the check's own clock, which stands still while its requests wait for the
  // key's rate limit: a check queued behind a spent fixed window is not the check's fault.
  const stopwatch = new Stopwatch()
  const untrackClock = session.transport.trackClock(stopwatch)
  const others = async <T>(work: Promise<T>): Promise<T> => {
    const release = stopwatch.hold()
    try {
      return await work
    } finally {
      release()
    }
  }
  const clients = new Map<string, ApiClient>()
  const clientFor = (role: Parameters<CheckContext['as']>[0]): ApiClient => {
    let client = clients.get(role)
    if (!client) {
      client = new ApiClient(activity ? watched(session.transport, activity) : session.transport, role, record, check.id, stopwatch)
      clients.set(role, client)
    }
    return client
  }
  const ctx: CheckContext = {
    api: clientFor('main'),
    as: (role) => {
      if (!session.transport.hasKey(role)) throw new CheckSkipped(keyUnset(role))
      return clientFor(role)
    },
    config: session.config,
    session: withOwnClock(session, others),
    profile: session.profile,
    seed: session.seed,
    runId: session.runId,
    observe: (name, value) => {
      observations[name] = value
    },
    noteCapability: (name, value) => noteCapabilityIn(session.capabilities, name, value),
    skip: (reason) => {
      throw new CheckSkipped(reason)
    },
    fail: (message, detail) => {
      throw new CheckFailed(message, detail)
    },
    note: (text) => {
      notes.push(text)
    },
    others,
  }

  const timeoutMs = check.timeoutMs ?? session.config.checkTimeoutMs ?? DEFAULTS.checkTimeoutMs
  let cancelDeadline = () => {}
  const deadline = new Promise<never>((_, reject) => {
    cancelDeadline = deadlineOn(stopwatch, timeoutMs, () =>
      reject(
        new CrmConfError(
          'CRMCONF_TIMEOUT',
          `the check did not finish within ${timeoutMs} ms of its own time (time queued for the rate limit not counted; CRM_CHECK_TIMEOUT_MS)`,
        ),
      ),
    )
  })
  try {
    await Promise.race([check.run(ctx), deadline])
    return finish('passed', '')
  } catch (error) {
    if (error instanceof CheckFailed) {
      const shown = error.detail.exchanges ?? exchanges.slice(-EVIDENCE_TAIL)
      return finish('failed', session.redactor.string(error.message), {
        expected: error.detail.expected,
        evidence: shown.map(toEvidence),
        data: error.detail.data === undefined ? undefined : session.redactor.value(error.detail.data),
      })
    }
    if (error instanceof CheckSkipped) return finish('skipped', session.redactor.string(error.message))
    const code = error instanceof CrmConfError ? `${error.code}: ` : ''
    return finish('error', session.redactor.string(`${code}${(error as Error)?.message ?? String(error)}`), {
      evidence: exchanges.slice(-1).map(toEvidence),
      data: error instanceof CrmConfError ? undefined : session.redactor.string((error as Error)?.stack ?? ''),
    })
  } finally {
    cancelDeadline()
    untrackClock()
  }
}

/**
 * The session as one check sees it: a shared fixture another check is already making is awaited with this
 * check's clock stopped (its factory, when this check runs it, counts as the check's own work).
 */
function withOwnClock(session: RunSession, others: <T>(work: Promise<T>) => Promise<T>): CheckSession {
  const memo = <T>(key: string, factory: () => Promise<T>): Promise<T> => {
    let mine = false
    const shared = session.memo(key, () => {
      mine = true
      return factory()
    })
    return mine ? shared : others(shared)
  }
  // Everything else is the session itself (its methods bound to it, so the run's state stays one).
  return new Proxy(session, {
    get(target, property) {
      if (property === 'memo') return memo
      const value = Reflect.get(target, property, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

/** The transport with each of a check's requests counted in `activity` while on its way. */
function watched(transport: RunSession['transport'], activity: CheckActivity): RunSession['transport'] {
  return new Proxy(transport, {
    get(target, property) {
      const value = Reflect.get(target, property, target)
      if (property !== 'send') return typeof value === 'function' ? value.bind(target) : value
      return async (...args: Parameters<typeof target.send>) => {
        activity.sending++
        try {
          return await target.send(...args)
        } finally {
          activity.sending--
          activity.lastAt = performance.now()
        }
      }
    },
  })
}

/** A running check with no request on its way for this long is waiting deliberately (a window, a delivery): it leaves the key idle. */
export function idle(activity: CheckActivity, now: number): boolean {
  return activity.sending === 0 && now - activity.lastAt > DEFAULTS.checkIdleMs
}

function toEvidence(exchange: Exchange): EvidenceItem {
  return { exchange, curl: curlFor(exchange.request, exchange.keyRole) }
}

/**
 * Checks in flight at most: twice the ceiling of the main key's requests in flight (CRM_CONCURRENCY), so that
 * checks waiting (on a Retry-After, a webhook delivery, the pacer, a slow answer) leave the key's slots busy
 * with the others. Within it the scheduler follows the key's adaptive cap (`admitted`).
 */
export const checksInFlight = (requestConcurrency: number): number => 2 * requestConcurrency

/**
 * Checks the scheduler runs at once now: twice the main key's current cap (adaptive-concurrency.ts), at least
 * DEFAULTS.checksInFlightMin, at most `most`. A fast server keeps the cap at four and eight checks run; a slow
 * one, whose checks mostly wait for answers, raises the cap and so the checks that fill it.
 */
export function admitted(session: Pick<RunSession, 'transport'>, most: number): number {
  return Math.min(most, Math.max(DEFAULTS.checksInFlightMin, 2 * session.transport.mainCap))
}

/**
 * Whether the scheduler may start another check: fewer than `admitted` of those running are busy (a check waiting
 * deliberately, `idle`, does not count: the long waits that start first must not hold the key idle behind them,
 * 30 s of a slow run did so), and fewer than twice `most` run at all (memory).
 */
function mayStart(session: Pick<RunSession, 'transport'>, most: number, running: Iterable<CheckActivity>, now: number): boolean {
  const all = [...running]
  const busy = all.filter((activity) => !idle(activity, now)).length
  return busy < admitted(session, most) && all.length < 2 * most
}

/** How often the scheduler looks whether the main key's cap grew enough to start another check (besides at each check's end). */
const ADMIT_RECHECK_MS = 250

/** How many requests a check sends, as the run path knows it (the last full run's counts); 0 when unknown. */
export type RequestsOf = (check: CheckDefinition) => number

/**
 * A check's requests one after another, when they are many (LONG_CHAIN_REQUESTS or more); else 0. Such a check
 * (the pagination area's 101-record child set) takes 111 answers' time however many other requests are in
 * flight: 80 s at 700 ms an answer.
 */
function chain(check: CheckDefinition, requestsOf: RequestsOf): number {
  const requests = requestsOf(check)
  return requests >= LONG_CHAIN_REQUESTS ? requests : 0
}

/** Requests of one check from which its own sequence of answers, not the key's budget, may set the run's wall. */
const LONG_CHAIN_REQUESTS = 20

/**
 * The order checks start in: the longest declared timeouts first (the rate-limit probe's Retry-After, the
 * webhook waits), then the checks with long chains of requests (`chain`), then the areas taken in turn, so
 * that one area's deliberate waits and long chains overlap every other area's work instead of adding to it.
 */
export function startOrder(checks: CheckDefinition[], requestsOf: RequestsOf = () => 0): CheckDefinition[] {
  const byArea = new Map<string, CheckDefinition[]>()
  for (const check of checks) byArea.set(check.area, [...(byArea.get(check.area) ?? []), check])
  const queues = [...byArea.values()]
  const interleaved: CheckDefinition[] = []
  for (let i = 0; interleaved.length < checks.length; i++) for (const queue of queues) if (queue[i]) interleaved.push(queue[i])
  const budget = (c: CheckDefinition) => c.timeoutMs ?? DEFAULTS.checkTimeoutMs
  return interleaved.sort((a, b) => budget(b) - budget(a) || chain(b, requestsOf) - chain(a, requestsOf))
}

/**
 * Starts every check in start order, at most `concurrency` at a time (fewer while the main key's adaptive cap is
 * low: `admitted`), those of phase `last` once all others have ended, and hands back each one's result as a
 * promise, by id. Once `signal` aborts (an interrupt, the run's bound) no further check starts: those left end
 * as skipped, `not run: <the signal's reason>`. `onStart` is told of each check as it starts.
 */
export function scheduleChecks(
  checks: CheckDefinition[],
  session: RunSession,
  concurrency: number,
  signal?: AbortSignal,
  onStart?: (check: CheckDefinition) => void,
  requestsOf?: RequestsOf,
): Map<string, Promise<CheckResult>> {
  const settle = new Map<string, (result: CheckResult) => void>()
  const results = new Map<string, Promise<CheckResult>>()
  for (const check of checks) results.set(check.id, new Promise((resolve) => settle.set(check.id, resolve)))
  const ended = new Set<string>()
  const pool = (queue: CheckDefinition[]) =>
    new Promise<void>((done) => {
      // Only checks of the same phase are waited for: one of a later phase has not started yet.
      const phase = new Set(queue.map((c) => c.id))
      const ready = (check: CheckDefinition) => (check.after ?? []).every((id) => !phase.has(id) || ended.has(id))
      const running = new Set<CheckActivity>()
      const pump = () => {
        if (signal?.aborted && queue.length > 0) {
          const why = typeof signal.reason === 'string' ? signal.reason : 'the run was interrupted'
          for (const check of queue.splice(0)) settle.get(check.id)!(declaredRow(check, 'skipped', `not run: ${why}`, replayTarget(session)))
        }
        while (queue.length > 0 && mayStart(session, concurrency, running, performance.now())) {
          // None ready: every check left waits for one that is running, whose end pumps again.
          const index = queue.findIndex(ready)
          if (index === -1) break
          const check = queue.splice(index, 1)[0]!
          // A check just started counts as busy (its first request is on its way at once, or soon).
          const activity: CheckActivity = { sending: 0, lastAt: performance.now() }
          running.add(activity)
          onStart?.(check)
          // runCheck turns every ending of a check into a result; a throw here is the harness's own fault.
          void runCheck(check, session, activity)
            .catch((error: unknown) => declaredRow(check, 'error', `harness error: ${String(error)}`, replayTarget(session)))
            .then((result) => {
              ended.add(check.id)
              settle.get(check.id)!(result)
              running.delete(activity)
              pump()
            })
        }
        if (queue.length === 0 && running.size === 0) {
          clearInterval(recheck)
          done()
        }
      }
      // The main key's cap grows between check ends too (every good answer may raise it).
      const recheck = setInterval(pump, ADMIT_RECHECK_MS)
      recheck.unref()
      pump()
    })
  void pool(
    startOrder(
      checks.filter((c) => c.phase !== 'last'),
      requestsOf,
    ),
  ).then(() => pool(checks.filter((c) => c.phase === 'last')))
  return results
}

/** Runs checks as scheduleChecks does and returns the results in declaration order. */
export async function runChecks(checks: CheckDefinition[], session: RunSession, concurrency: number): Promise<CheckResult[]> {
  const scheduled = scheduleChecks(checks, session, concurrency)
  return Promise.all(checks.map((c) => scheduled.get(c.id)!))
}
