// Paces one key's requests by the RateLimit-* headers (§8) so that a normal run never meets a 429.
//
// Pacing is five files: this one (when a request may go out), concurrency-slots.ts (the per-key cap on
// requests in flight, kept when pacing is off), adaptive-concurrency.ts (the main key's cap, which follows the
// server's latency, its overload and the budget this pacer reads), rate-limit-policy.ts (what happens after a
// 429 anyway: retries and their wait) and the numbers in DEFAULTS of src/config/config.ts. transport.ts wires
// them (`sendOnce`, `send`, `adapt`); rate-headers.ts reads the headers. Tests: pacer.test.ts,
// pacer.shapes.test.ts (every limiter shape, simulated), concurrency-slots.test.ts,
// adaptive-concurrency.test.ts, rate-limit-policy.test.ts; against the reference server:
// test/conditions/token-bucket.test.ts, test/network/adaptive-concurrency.test.ts and
// `crm-conformance run --embedded --rate-limit 600`.
//
// More requests in flight never overrun the budget: RateLimit-Remaining is taken from the answer to the request
// sent last among those answered (an answer overtaken by a later one is older news, and a stale, higher count
// once let a paced run meet a 429 under a sliding window), and every request let through after it counts as spent
// until its own answer comes; the reserve (the ceiling of requests in flight + 1, `concurrency` below) covers a
// server that handles requests in another order than they were sent.
//
// The spec does not show what RateLimit-Reset means exactly (seconds from now or a Unix time) nor how the
// per-minute limit refills (fixed window, sliding window or bucket), so the pacer assumes neither:
// - until a first answer has told it the quota, it sends one request at a time (the key may be spent already);
// - with more than `reserve` requests left it sends freely (counting requests in flight);
// - with a few left it sends one at a time, each only once the previous one's answer has told it what is
//   left, spaced by the average interval the limit allows (60 s / limit), which a refilling bucket keeps up
//   with and a fixed window slowly drains;
// - with none left it first waits for the answers still on the way (fresher news), then for the reset, plus the
//   second the header's whole-second rounding may hide.
export interface RateLimitState {
  limit?: number
  remaining?: number
  /** Epoch milliseconds at which the quota resets, as far as the headers tell. */
  resetAt?: number
}

export interface PacerOptions {
  /** The most requests of the key in flight at once (CRM_CONCURRENCY, the adaptive cap's ceiling); sets the default reserve. */
  concurrency: number
  /** Requests kept in hand before pacing starts. Default: concurrency + 1. */
  reserve?: number
  /** Longest wait the pacer accepts for a reset, in seconds. */
  maxWaitS: number
  now?: () => number
  sleep?: (ms: number) => Promise<void>
  /** Told when the pacer starts (true) and ends (false) waiting for a spent quota to reset. */
  onWindowWait?: (waiting: boolean) => void
}

import { CrmConfError } from '../errors.ts'
import { headerInt, parseResetHeader } from './rate-headers.ts'

/** RateLimit-Reset and Retry-After count whole seconds: the true reset may be up to a second later than read. */
const RESET_ROUNDING_MS = 1_000

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Ends a request's turn at the pacer; `seq` names it in `observe` (the order requests were let through). */
export type PacerRelease = (() => void) & { seq: number }

export class Pacer {
  /** The quota as of the answer to request `observedSeq` (the one sent last among those answered). */
  private state: RateLimitState = {}
  private sentSeq = 0
  private observedSeq = 0
  /** Requests let through whose turn has not ended (answered, or given up). */
  private readonly onWire = new Set<number>()
  /** Requests waiting here to be let through. */
  private waiting = 0
  private lastPacedSend = 0
  /** Whether any answer has been observed yet (before that the quota is unknown, not unlimited). */
  private learned = false
  private waitUntil?: number
  private pacing: Promise<void> = Promise.resolve()
  private wake: (() => void)[] = []
  private readonly now: () => number
  private readonly sleep: (ms: number) => Promise<void>
  private readonly reserve: number

  constructor(private readonly options: PacerOptions) {
    this.now = options.now ?? Date.now
    this.sleep = options.sleep ?? defaultSleep
    this.reserve = options.reserve ?? options.concurrency + 1
  }

  /** When a request is held for the rate-limit window, the time (ms since the epoch) it waits for; else undefined. */
  get waitingUntil(): number | undefined {
    return this.waitUntil
  }

  /** The quota as this pacer counts it now: what the newest answer showed, less the requests sent since. */
  get snapshot(): Readonly<RateLimitState> {
    const { remaining } = this.state
    return remaining === undefined ? { ...this.state } : { ...this.state, remaining: remaining - this.unanswered() }
  }

  /** Waits for the quota; returns what to call once the request's answer has been observed. */
  async acquire(): Promise<PacerRelease> {
    this.waiting++
    let endPaced: () => void
    try {
      endPaced = await this.waitForQuota()
    } finally {
      this.waiting--
    }
    const seq = ++this.sentSeq
    this.onWire.add(seq)
    let released = false
    return Object.assign(
      () => {
        if (released) return
        released = true
        this.onWire.delete(seq)
        endPaced()
        this.changed()
      },
      { seq },
    )
  }

  /** Reads the headers of a response (any status); `seq` is its request's (`PacerRelease.seq`), else it counts as the newest. */
  observe(headers: Record<string, string>, seq?: number): void {
    this.learned = true
    const now = this.now()
    const limit = headerInt(headers['ratelimit-limit'])
    if (limit !== undefined && limit > 0) this.state.limit = limit
    if (seq === undefined || seq >= this.observedSeq) {
      this.observedSeq = seq ?? this.sentSeq
      const remaining = headerInt(headers['ratelimit-remaining'])
      const resetAt = parseResetHeader(headers['ratelimit-reset'], now)
      if (remaining !== undefined) this.state.remaining = remaining
      if (resetAt !== undefined) this.state.resetAt = resetAt
    }
    this.changed()
  }

  /** After a 429: nothing is left until the server says so, whatever answers of older requests say. */
  exhausted(retryAfterMs: number | undefined, seq?: number): void {
    this.observedSeq = Math.max(this.observedSeq, seq ?? this.sentSeq)
    this.state.remaining = 0
    if (retryAfterMs !== undefined) this.state.resetAt = this.now() + retryAfterMs
    this.changed()
  }

  /** Requests let through after the newest answer observed: the quota they take is not in `remaining` yet. */
  private unanswered(): number {
    let count = 0
    for (const seq of this.onWire) if (seq > this.observedSeq) count++
    return count
  }

  /** What the quota allows now, counting every request on the way and (but this one) every one waiting here. */
  private left(): number | undefined {
    const { remaining } = this.state
    return remaining === undefined ? undefined : remaining - this.unanswered() - (this.waiting - 1)
  }

  private changed(): void {
    const wake = this.wake
    this.wake = []
    for (const resolve of wake) resolve()
  }

  private nextChange(): Promise<void> {
    return new Promise((resolve) => this.wake.push(resolve))
  }

  /**
   * Waits until the request may go out. Returns what to call once its answer has been observed: a request sent
   * while the quota is low or unknown holds the next one back until then.
   */
  private async waitForQuota(): Promise<() => void> {
    if (this.learned && (this.state.remaining === undefined || this.state.limit === undefined)) return () => {}
    const plenty = this.left()
    if (this.learned && plenty !== undefined && plenty > this.reserve) return () => {}
    // Few, none or unknown left: one at a time, in order, each after the previous one's answer.
    const previous = this.pacing
    let done!: () => void
    this.pacing = new Promise<void>((resolve) => (done = resolve))
    await previous
    try {
      for (;;) {
        const { limit } = this.state
        const left = this.left()
        if (!this.learned || limit === undefined || left === undefined) return done
        // An answer meanwhile said there is plenty again (a fixed window reset).
        if (left > this.reserve) return done
        const now = this.now()
        if (left > 0) {
          // observe() keeps only a limit above 0.
          const due = this.lastPacedSend + 60_000 / limit
          if (due > now) await this.sleep(due - now)
          this.lastPacedSend = this.now()
          return done
        }
        // None left by the newest answer: answers still on the way may say more (or less) first.
        if (this.unanswered() > 0) {
          await this.nextChange()
          continue
        }
        const resetAt = this.state.resetAt
        if (resetAt !== undefined && resetAt + RESET_ROUNDING_MS > now) {
          const waitMs = resetAt + RESET_ROUNDING_MS - now
          if (waitMs > this.options.maxWaitS * 1000) {
            throw new CrmConfError(
              'CRMCONF_RATE_LIMITED',
              `the rate limit resets in ${Math.ceil(waitMs / 1000)} s, more than the ${this.options.maxWaitS} s the run waits`,
            )
          }
          this.waitUntil = now + waitMs
          this.options.onWindowWait?.(true)
          await this.sleep(waitMs).finally(() => {
            this.waitUntil = undefined
            this.options.onWindowWait?.(false)
          })
          // After the reset at least one request is allowed; this one's answer tells how many more.
          this.state.resetAt = undefined
        } else {
          const due = this.lastPacedSend + 60_000 / limit
          if (due > now) await this.sleep(due - now)
        }
        this.lastPacedSend = this.now()
        return done
      }
    } catch (error) {
      done()
      throw error
    }
  }
}
