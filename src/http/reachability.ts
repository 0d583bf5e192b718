// Whether the target still answers: the transport's breaker for a server that stopped answering.
/**
 * A circuit breaker on the target. A server that stops answering would otherwise cost every remaining
 * request its full timeout (hundreds of checks × 15 s, and the clean-up after them); once
 * `threshold` requests in a row got no answer, requests fail at once with CRMCONF_TARGET_UNREACHABLE, except
 * one every `retryMs` that goes out to see whether the target is back. Any response (whatever its status)
 * closes the breaker. Only the absence of an answer counts: a 500 is an answer, and a verdict.
 */
export class Reachability {
  private failures = 0
  private lastError = ''
  private retryAt = 0
  private probing = false

  constructor(
    private readonly threshold: number,
    private readonly retryMs: number,
  ) {}

  /** `refused`: why the request may not go out. Otherwise call `settle` with `probe` once it has ended. */
  admit(now: number): { refused: string } | { refused?: undefined; probe: boolean } {
    if (this.failures < this.threshold) return { probe: false }
    if (!this.probing && now >= this.retryAt) {
      this.probing = true
      return { probe: true }
    }
    return {
      refused: `not sent: the last ${this.failures} requests got no answer (last: ${this.lastError}); the target is treated as unreachable, one request every ${Math.round(this.retryMs / 1000)} s tries again`,
    }
  }

  settle(probe: boolean, answered: boolean, error: string | undefined, now: number): void {
    if (probe) this.probing = false
    if (answered) {
      this.failures = 0
      return
    }
    this.failures++
    this.lastError = error ?? 'no response'
    if (this.failures >= this.threshold) this.retryAt = now + this.retryMs
  }
}
