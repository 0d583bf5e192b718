// Paces one key's requests by the RateLimit-* headers (§8) so that a normal run never meets a 429.
//
// Pacing is five files: this one (when a request may go out), concurrency-slots.ts (the per-key cap on
// requests in flight, kept when pacing is off), adaptive-concurrency.ts (the main key's cap, which follows the
// server's latency, its overload and the budget this pacer reads), rate-limit-policy.ts (what happens after a
// 429 anyway: retries and their wait) and the numbers in DEFAULTS of src/config/config.ts. transport.ts wires
// them (`sendOnce`, `send`, `adapt`; it shows a pacer only the answers to its key's own credential, since a
// call without it is counted in another bucket); rate-headers.ts reads the headers. Tests: pacer.test.ts,
// pacer.shapes.test.ts (every limiter shape, simulated), pacer-credential.test.ts, concurrency-slots.test.ts,
// adaptive-concurrency.test.ts, rate-limit-policy.test.ts; against the reference server:
// test/conditions/token-bucket.test.ts, test/network/adaptive-concurrency.test.ts and
// `crm-conformance run --embedded --rate-limit 600`.
//
// More requests in flight never overrun the budget: each is counted as spent from the moment it is let through,
// an answer overtaken by the answer to a request sent after it is older news and changes nothing (its higher
// RateLimit-Remaining once let a paced run send into a spent window), and the reserve (the ceiling of requests in
// flight + 1, `concurrency` below) covers a server that handles requests in another order than they were sent.
//
// The spec does not show what RateLimit-Reset means exactly (seconds from now or a Unix time) nor how the
// per-minute limit refills (fixed window, sliding window or bucket), so the pacer assumes neither:
// - until a first answer has told it the quota, it sends one request at a time (the key may be spent already);
// - with more than `reserve` requests left it sends freely (counting requests in flight);
// - with a few left it sends one at a time, each only once the previous one's answer has told it what is
//   left, spaced by the average interval the limit allows (60 s / limit), which a refilling bucket keeps up
//   with and a fixed window slowly drains;
// - with none left it waits for the reset, plus the second the header's whole-second rounding may hide.
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
  private state: RateLimitState = {}
  private sentSeq = 0
  /** The request whose answer set the quota last: answers to requests let through before it are older news. */
  private observedSeq = 0
  /** Requests let through (or waiting here) whose answer has not been observed yet. */
  private inFlight = 0
  private lastPacedSend = 0
  /** Whether any answer has been observed yet (before that the quota is unknown, not unlimited). */
  private learned = false
  private waitUntil?: number
  private pacing: Promise<void> = Promise.resolve()
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

  get snapshot(): Readonly<RateLimitState> {
    return this.state
  }

  /** Waits for the quota; returns the function to call once the request's answer has been observed. */
  async acquire(): Promise<PacerRelease> {
    this.inFlight++
    let endPaced: () => void
    try {
      endPaced = await this.waitForQuota()
    } catch (error) {
      this.inFlight--
      throw error
    }
    let released = false
    return Object.assign(
      () => {
        if (released) return
        released = true
        endPaced()
        this.inFlight--
      },
      { seq: ++this.sentSeq },
    )
  }

  /** Reads the headers of a response (any status); `seq` is its request's (`PacerRelease.seq`), else it counts as the newest. */
  observe(headers: Record<string, string>, seq?: number): void {
    this.learned = true
    const now = this.now()
    const limit = headerInt(headers['ratelimit-limit'])
    if (limit !== undefined && limit > 0) this.state.limit = limit
    if (seq !== undefined && seq < this.observedSeq) return
    this.observedSeq = seq ?? this.sentSeq
    const remaining = headerInt(headers['ratelimit-remaining'])
    const resetAt = parseResetHeader(headers['ratelimit-reset'], now)
    if (remaining !== undefined) this.state.remaining = remaining
    if (resetAt !== undefined) this.state.resetAt = resetAt
  }

  /** After a 429: nothing is left until the server says so, whatever answers to older requests say. */
  exhausted(retryAfterMs: number | undefined, seq?: number): void {
    this.observedSeq = Math.max(this.observedSeq, seq ?? this.sentSeq)
    this.state.remaining = 0
    if (retryAfterMs !== undefined) this.state.resetAt = this.now() + retryAfterMs
  }

  /**
   * Waits until the request may go out. Returns what to call once its answer has been observed: a request sent
   * while the quota is low or unknown holds the next one back until then.
   */
  private async waitForQuota(): Promise<() => void> {
    const { limit, remaining } = this.state
    if (this.learned && (remaining === undefined || limit === undefined)) return () => {}
    if (remaining !== undefined && limit !== undefined) {
      // Requests in flight will each consume one; count them as spent already.
      const left = remaining - (this.inFlight - 1)
      if (left > this.reserve) {
        this.state.remaining = remaining - 1
        return () => {}
      }
    }
    // Few, none or unknown left: one at a time, in order, each after the previous one's answer.
    const previous = this.pacing
    let done!: () => void
    this.pacing = new Promise<void>((resolve) => (done = resolve))
    await previous
    try {
      const { limit: knownLimit, remaining: current } = this.state
      if (!this.learned || knownLimit === undefined || current === undefined) return done
      if (current - (this.inFlight - 1) > this.reserve) {
        // An answer meanwhile said there is plenty again (a fixed window reset).
        this.state.remaining = current - 1
        return done
      }
      const now = this.now()
      if (current <= 0 && this.state.resetAt !== undefined && this.state.resetAt + RESET_ROUNDING_MS > now) {
        const waitMs = this.state.resetAt + RESET_ROUNDING_MS - now
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
        this.state.remaining = 0
        this.state.resetAt = undefined
      } else {
        // observe() keeps only a limit above 0.
        const interval = 60_000 / knownLimit
        const due = this.lastPacedSend + interval
        if (due > now) await this.sleep(due - now)
        this.state.remaining = current - 1
      }
      this.lastPacedSend = this.now()
      return done
    } catch (error) {
      done()
      throw error
    }
  }
}
