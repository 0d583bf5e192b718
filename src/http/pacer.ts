// Paces one key's requests by the RateLimit-* headers (§8) so that a normal run never meets a 429.
//
// The spec does not show what RateLimit-Reset means exactly (seconds from now or a Unix time) nor how the
// per-minute limit refills (fixed window or bucket), so the pacer assumes neither:
// - with more than `reserve` requests left it sends freely (counting requests in flight);
// - with a few left it sends one at a time, spaced by the average interval the limit allows (60 s / limit),
//   which a refilling bucket keeps up with and a fixed window slowly drains;
// - with none left it waits for the reset.

export interface RateLimitState {
  limit?: number
  remaining?: number
  /** Epoch milliseconds at which the quota resets, as far as the headers tell. */
  resetAt?: number
}

export interface PacerOptions {
  concurrency: number
  /** Requests kept in hand before pacing starts. Default: concurrency + 1. */
  reserve?: number
  /** Longest wait the pacer accepts for a reset, in seconds. */
  maxWaitS: number
  now?: () => number
  sleep?: (ms: number) => Promise<void>
}

import { CrmConfError } from '../errors.ts'
import { headerInt, parseResetHeader } from './rate-headers.ts'

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

export class Pacer {
  private state: RateLimitState = {}
  private inFlight = 0
  private readonly waiting: (() => void)[] = []
  private lastPacedSend = 0
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

  /** Waits for a concurrency slot and for the quota; returns the function that releases the slot. */
  async acquire(): Promise<() => void> {
    while (this.inFlight >= this.options.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve))
    this.inFlight++
    try {
      await this.waitForQuota()
    } catch (error) {
      this.release()
      throw error
    }
    return () => this.release()
  }

  /** Reads the headers of a response (any status). */
  observe(headers: Record<string, string>): void {
    const now = this.now()
    const limit = headerInt(headers['ratelimit-limit'])
    const remaining = headerInt(headers['ratelimit-remaining'])
    const resetAt = parseResetHeader(headers['ratelimit-reset'], now)
    if (limit !== undefined && limit > 0) this.state.limit = limit
    if (remaining !== undefined) this.state.remaining = remaining
    if (resetAt !== undefined) this.state.resetAt = resetAt
  }

  /** After a 429: nothing is left until the server says so. */
  exhausted(retryAfterMs: number | undefined): void {
    this.state.remaining = 0
    if (retryAfterMs !== undefined) this.state.resetAt = this.now() + retryAfterMs
  }

  private release(): void {
    this.inFlight--
    this.waiting.shift()?.()
  }

  private async waitForQuota(): Promise<void> {
    const { limit, remaining } = this.state
    if (remaining === undefined || limit === undefined) return
    // Requests in flight will each consume one; count them as spent already.
    const left = remaining - (this.inFlight - 1)
    if (left > this.reserve) {
      if (this.state.remaining !== undefined) this.state.remaining--
      return
    }
    // Few or none left: one at a time, in order.
    const previous = this.pacing
    let done!: () => void
    this.pacing = new Promise<void>((resolve) => (done = resolve))
    await previous
    try {
      const now = this.now()
      const current = this.state.remaining ?? 0
      if (current <= 0 && this.state.resetAt !== undefined && this.state.resetAt > now) {
        const waitMs = this.state.resetAt - now
        if (waitMs > this.options.maxWaitS * 1000) {
          throw new CrmConfError('CRMCONF_RATE_LIMITED', `the rate limit resets in ${Math.ceil(waitMs / 1000)} s, more than the ${this.options.maxWaitS} s the run waits`)
        }
        this.waitUntil = now + waitMs
        await this.sleep(waitMs).finally(() => (this.waitUntil = undefined))
        // After the reset the quota is unknown until the next response says otherwise.
        this.state.remaining = undefined
      } else {
        const interval = 60_000 / (this.state.limit ?? 600)
        const due = this.lastPacedSend + interval
        if (due > now) await this.sleep(due - now)
        if (this.state.remaining !== undefined) this.state.remaining--
      }
      this.lastPacedSend = this.now()
    } finally {
      done()
    }
  }
}
