// Effects that show a moment after the write that caused them: a list fed by a search index, an owner set by
// routing from a queue, an invoice total updated after its payment. The spec gives no deadline, so a read is
// repeated until it shows what is awaited, within one bounded window (CRM_CONSISTENCY_WINDOW_MS); a server
// that shows it at once pays nothing beyond the first read. This is the only wait of its kind: a check never
// concludes "absent", "unchanged", "no duplicate", "in order" or "complete" from one list read taken right
// after a write.
import type { CheckContext } from './types.ts'

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** The first pause, doubled after each look up to the longest: most lag is short, and a long one costs few requests. */
const FIRST_PAUSE_MS = 100
const LONGEST_PAUSE_MS = 1_000

/** The pauses between looks that fit in a window, the last one ending on the window's edge. */
export function pausesWithin(windowMs: number): number[] {
  const pauses: number[] = []
  let pause = FIRST_PAUSE_MS
  for (let spent = 0; spent < windowMs; spent += pauses.at(-1)!) {
    pauses.push(Math.min(pause, windowMs - spent))
    pause = Math.min(pause * 2, LONGEST_PAUSE_MS)
  }
  return pauses
}

export interface Settled<T> {
  /** The last answer read. */
  answer: T
  /** Whether it shows what was awaited (else the window ran out). */
  shown: boolean
  /** From the first look to the one that showed it; the whole window when none did. */
  waitedMs: number
  /** How many times it was read. */
  reads: number
}

export interface WaitOptions<T> {
  /** An answer already read (one shared with other checks, or taken before): judged first, without a request. */
  first?: T
  /**
   * The observation the wait is reported as (INFO: useful to the vendor), on the check and as the run's largest in
   * `session.capabilities`. Default `listLagMs`.
   */
  lag?: string
  /** Default: the configured window (`consistencyWindowMs`). */
  windowMs?: number
}

/**
 * Reads until `done` holds or the window ends, and says which. For an absence (a record that must not be
 * listed) wait first for a positive control (a record that must be listed, written at the same time or
 * later), so that a list that has not caught up cannot make the absence pass by itself.
 */
export async function readUntil<T>(ctx: CheckContext, read: () => Promise<T>, done: (answer: T) => boolean, options: WaitOptions<T> = {}): Promise<Settled<T>> {
  const windowMs = options.windowMs ?? ctx.config.consistencyWindowMs
  const started = performance.now()
  let reads = 0
  let answer = options.first
  if (answer === undefined) {
    answer = await read()
    reads++
  }
  let shown = done(answer)
  const waited = !shown
  for (const pause of shown ? [] : pausesWithin(windowMs)) {
    await sleep(pause)
    answer = await read()
    reads++
    if ((shown = done(answer))) break
  }
  const waitedMs = Math.round(performance.now() - started)
  if (waited) observeLag(ctx, options.lag ?? 'listLagMs', shown ? waitedMs : `not within ${windowMs} ms`)
  return { answer, shown, waitedMs: shown ? waitedMs : windowMs, reads }
}

function observeLag(ctx: CheckContext, name: string, seen: number | string): void {
  ctx.observe(name, seen)
  if (typeof seen !== 'number') return
  const key = `eventually.${name}.max`
  const largest = ctx.session.capabilities[key]
  if (typeof largest !== 'number' || seen > largest) ctx.session.capabilities[key] = seen
}
