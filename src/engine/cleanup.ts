// Removes what a run created: at the end of every run (also an interrupted one), within its own time bound.
import { DEFAULTS, type KeyRole } from '../config/config.ts'
import type { Transport } from '../http/transport.ts'
import { cleanUp, Ledger, type Leftover } from './ledger.ts'

/** Clean-up's own bound: past it the records still listed are reported as left behind, not waited for. */
export const CLEANUP_TIMEOUT_MS = 300_000

/** RateLimit-Reset counts whole seconds (as the pacer allows for). */
const RESET_ROUNDING_MS = 1_000

export interface CleanupBounds {
  /** The whole clean-up's bound. */
  timeoutMs?: number
  /** The longest it waits for a key's spent rate-limit window (default DEFAULTS.cleanupWindowWaitS). */
  windowWaitMs?: number
  /** Aborted: the clean-up ends at once (a second signal); what is left is named as left behind. */
  signal?: AbortSignal
  /** Words for the reason a bound names, e.g. `DEFAULTS.interruptedCleanupWindowWaitS`. */
  windowWaitName?: string
}

/** Clean-up stopped early: the records still listed are named as left behind with this reason. */
class CleanupStopped extends Error {}

/** A promise that rejects at the deadline or when `signal` aborts, whichever is first, until `cancel`. */
function stopOn(
  deadline: number,
  signal: AbortSignal | undefined,
  stop: (reason: string) => string,
  timeoutMs: number,
): { ended: Promise<never>; cancel: () => void } {
  let cancel = () => {}
  const ended = new Promise<never>((_, reject) => {
    const timer = setTimeout(
      () => reject(new CleanupStopped(stop(`not removed: clean-up reached its bound of ${Math.round(timeoutMs / 1000)} s`))),
      Math.max(0, deadline - Date.now()),
    )
    timer.unref()
    const onAbort = () => reject(new CleanupStopped(stop('not removed: clean-up was ended by a second signal')))
    signal?.addEventListener('abort', onAbort, { once: true })
    cancel = () => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
    }
  })
  // Nobody may be racing it when it fires (every delete done): that is no unhandled rejection.
  ended.catch(() => undefined)
  return { ended, cancel }
}

export function cleanUpWith(ledger: Ledger, transport: Transport, bounds: number | CleanupBounds = CLEANUP_TIMEOUT_MS): Promise<Leftover[]> {
  const options: CleanupBounds = typeof bounds === 'number' ? { timeoutMs: bounds } : bounds
  const timeoutMs = options.timeoutMs ?? CLEANUP_TIMEOUT_MS
  const windowWaitMs = options.windowWaitMs ?? DEFAULTS.cleanupWindowWaitS * 1000
  const deadline = Date.now() + timeoutMs
  let stopped: string | undefined
  // One timer and one listener for the whole clean-up, however many deletes run side by side (one per delete
  // put more listeners on the signal than Node allows before it warns on stderr).
  const cut = stopOn(deadline, options.signal, (reason) => (stopped = reason), timeoutMs)
  const cleaned = cleanUp(
    ledger,
    async (path, keyRole) => {
      if (stopped) throw new CleanupStopped(stopped)
      if (options.signal?.aborted) throw new CleanupStopped((stopped = 'not removed: clean-up was ended by a second signal'))
      if (Date.now() >= deadline) throw new CleanupStopped((stopped = `not removed: clean-up reached its bound of ${Math.round(timeoutMs / 1000)} s`))
      const role = transport.hasKey(keyRole as KeyRole) ? (keyRole as KeyRole) : 'main'
      // A spent window that resets later than clean-up waits: stop now rather than sit in the pacer's queue.
      const { remaining, resetAt } = transport.pacerFor(role).snapshot
      const resetInMs = resetAt === undefined ? 0 : resetAt + RESET_ROUNDING_MS - Date.now()
      if (remaining !== undefined && remaining <= 0 && resetInMs > windowWaitMs)
        throw new CleanupStopped(
          (stopped = `not removed: the key's rate-limit window resets in ${Math.ceil(resetInMs / 1000)} s, longer than clean-up waits (${Math.round(windowWaitMs / 1000)} s, ${options.windowWaitName ?? 'DEFAULTS.cleanupWindowWaitS'})`),
        )
      // Whatever the server or the pacer does, the bound and a second signal end the wait.
      const exchange = await Promise.race([transport.send({ method: 'DELETE', path, budgeted: false }, role, 'cleanup'), cut.ended])
      return exchange.response?.status
    },
    transport.options.concurrency,
  )
  // The ledger words a thrown error as a failed delete; a record clean-up did not try to remove was not one.
  return cleaned.finally(cut.cancel).then((leftovers) => leftovers.map((l) => ({ ...l, reason: l.reason.replace(/^delete failed: (not removed: )/, '$1') })))
}
