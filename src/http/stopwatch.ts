// A check's own clock: it runs while the check works (its requests, its deliberate waits) and stands still
// while any of its requests is queued for the key's rate limit (the pacer's window, a Retry-After, the key's
// concurrency slot). A check's deadline is measured on it, so the same check gets the same time to do its
// job whatever the server's limiter shape and however many other checks share the key.

export class Stopwatch {
  private spent = 0
  /** When the clock last started running; undefined while it stands still. */
  private runningSince: number | undefined
  private holds = 0
  private readonly listeners = new Set<() => void>()

  constructor(private readonly now: () => number = () => performance.now()) {
    this.runningSince = this.now()
  }

  /** Milliseconds counted so far. */
  elapsed(): number {
    return this.spent + (this.runningSince === undefined ? 0 : this.now() - this.runningSince)
  }

  get running(): boolean {
    return this.runningSince !== undefined
  }

  /** Stops the clock until the returned function is called (holds nest: it runs again once all are released). */
  hold(): () => void {
    if (this.holds++ === 0 && this.runningSince !== undefined) {
      this.spent += this.now() - this.runningSince
      this.runningSince = undefined
      this.notify()
    }
    let released = false
    return () => {
      if (released) return
      released = true
      if (--this.holds === 0) {
        this.runningSince = this.now()
        this.notify()
      }
    }
  }

  /** Called whenever the clock stops or starts again; returns the function that unsubscribes. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  private notify(): void {
    for (const listener of this.listeners) listener()
  }
}

/**
 * Calls `expire` once `limitMs` have been counted on the stopwatch. The timer is re-armed for what is left
 * each time it fires early (the clock stood still meanwhile) and disarmed while the clock stands still.
 * Returns the function that cancels it.
 */
export function deadlineOn(stopwatch: Stopwatch, limitMs: number, expire: () => void): () => void {
  let timer: NodeJS.Timeout | undefined
  let done = false
  const arm = () => {
    clearTimeout(timer)
    timer = undefined
    if (done || !stopwatch.running) return
    const left = limitMs - stopwatch.elapsed()
    if (left <= 0) {
      done = true
      unsubscribe()
      expire()
      return
    }
    timer = setTimeout(arm, left)
  }
  const unsubscribe = stopwatch.onChange(arm)
  arm()
  return () => {
    done = true
    clearTimeout(timer)
    unsubscribe()
  }
}

/** Stops `stopwatch` once a request has waited `counted` ms for its answer; returns the function to call when it ends. */
export function latencyBeyond(stopwatch: Stopwatch | undefined, counted: number): () => void {
  if (!stopwatch) return () => {}
  let release: (() => void) | undefined
  const timer = setTimeout(() => (release = stopwatch.hold()), counted)
  return () => {
    clearTimeout(timer)
    release?.()
  }
}

/** Runs `wait` with the check's clock stopped: time queued for the rate limit is not the check's own. */
export async function queued<T>(stopwatch: Stopwatch | undefined, wait: () => Promise<T>): Promise<T> {
  const release = stopwatch?.hold()
  try {
    return await wait()
  } finally {
    release?.()
  }
}
