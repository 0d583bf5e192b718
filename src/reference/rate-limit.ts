// §5.8, §7.7, §8: a per-key per-minute limit as a token bucket that holds `limit` tokens and refills `limit`
// tokens a minute, so a key may burst to its limit and then runs at its limit per minute.

export interface RateDecision {
  allowed: boolean
  limit: number
  /** Whole tokens left after this request. */
  remaining: number
  /** Seconds until the bucket is full again. */
  resetSeconds: number
  /** Seconds until one token is back (only when refused). */
  retryAfterSeconds?: number
}

interface Bucket {
  tokens: number
  at: number
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>()

  take(id: string, limit: number, now: number): RateDecision {
    const perMs = limit / 60_000
    let b = this.buckets.get(id)
    if (!b) {
      b = { tokens: limit, at: now }
      this.buckets.set(id, b)
    }
    b.tokens = Math.min(limit, b.tokens + Math.max(0, now - b.at) * perMs)
    b.at = now
    const allowed = b.tokens >= 1
    if (allowed) b.tokens -= 1
    const decision: RateDecision = {
      allowed,
      limit,
      remaining: Math.floor(b.tokens),
      resetSeconds: Math.ceil((limit - b.tokens) / perMs / 1000),
    }
    if (!allowed) decision.retryAfterSeconds = Math.max(1, Math.ceil((1 - b.tokens) / perMs / 1000))
    return decision
  }
}
