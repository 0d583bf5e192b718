// How many of the main key's requests may be in flight at once, adapted to what the server shows (issue 30).
// A fixed four kept a server answering in 700 ms at under 6 requests a second, seven times slower than its
// key allows; a fixed sixteen would flood a small staging server that slows down under load. So the cap moves:
//
// - it starts at `start` (the old fixed four) and never leaves [1, `ceiling`] (CRM_CONCURRENCY);
// - it grows by one every `cap / growthPerRound` good answers (about `growthPerRound` a round trip), but only
//   while requests wait for a slot (more would not be used otherwise) and only up to Little's law's bound:
//   in flight ≈ allowed rate × latency. The allowed rate is what the RateLimit-* headers say the key may
//   spend (the caller reads it from the pacer); the latency is a fast EWMA of successful answers; `headroom`
//   covers jitter. The bound is never below `start`, so a fast server keeps today's four;
// - it shrinks multiplicatively by `overloadFactor` on a 429, a 503 or an answer that never came (the
//   server says, or shows, that it is overloaded), and by `latencyFactor` when the fast EWMA climbs above
//   `latencyRise` × the baseline (a slow EWMA of the same answers) and at least `latencyRiseMinMs` above it
//   (a server queueing our requests: more in flight only makes each one slower);
// - after a shrink it waits for the answers sent under the old cap (one round) before it shrinks again, so
//   one burst of 503s halves the cap once, not once per answer.
// Pure: the caller feeds it latencies and statuses and reads `cap`; the numbers are named in DEFAULTS
// (src/config/config.ts) and the tests (adaptive-concurrency.test.ts) feed it made-up series.

import { DEFAULTS } from '../config/config.ts'

export interface AdaptiveSettings {
  start: number
  ceiling: number
  /** Weight of the newest answer in the fast latency EWMA. */
  latencyAlpha: number
  /** Weight of the newest answer in the baseline (slow) latency EWMA. */
  baselineAlpha: number
  /** The fast EWMA above this many times the baseline counts as latency climbing… */
  latencyRise: number
  /** …when it is also this many ms above it (a 3 ms answer turning 8 ms on a busy machine is not a server queueing). */
  latencyRiseMinMs: number
  /** The cap is multiplied by this on a 429, a 503, a connection error. */
  overloadFactor: number
  /** The cap is multiplied by this when latency climbs. */
  latencyFactor: number
  /** Steps of one the cap grows by per round trip (cap good answers) while requests wait for a slot. */
  growthPerRound: number
  /** Little's law's in-flight bound is multiplied by this. */
  headroom: number
}

/** What one answer tells the controller besides its latency. */
export interface AnswerContext {
  /** Requests of the key are waiting for a slot: a larger cap would be used. */
  demand: boolean
  /** Requests per second the key may spend now (RateLimit-*); undefined when the server shows no limit. */
  allowedPerS?: number
}

/** The settings of DEFAULTS under `ceiling` (CRM_CONCURRENCY); a ceiling below the start lowers the start. */
export function adaptiveSettings(ceiling: number): AdaptiveSettings {
  return {
    start: Math.min(DEFAULTS.concurrencyStart, ceiling),
    ceiling,
    latencyAlpha: DEFAULTS.adaptiveLatencyAlpha,
    baselineAlpha: DEFAULTS.adaptiveBaselineAlpha,
    latencyRise: DEFAULTS.adaptiveLatencyRise,
    latencyRiseMinMs: DEFAULTS.adaptiveLatencyRiseMinMs,
    overloadFactor: DEFAULTS.adaptiveOverloadFactor,
    latencyFactor: DEFAULTS.adaptiveLatencyFactor,
    growthPerRound: DEFAULTS.adaptiveGrowthPerRound,
    headroom: DEFAULTS.adaptiveHeadroom,
  }
}

export class AdaptiveConcurrency {
  private current: number
  private fast?: number
  private baseline?: number
  private goodSinceGrowth = 0
  /** Answers still due that were sent under the cap before the last shrink (none: a shrink may happen). */
  private cooldown = 0
  private bound: number

  constructor(private readonly settings: AdaptiveSettings) {
    this.current = clamp(settings.start, 1, settings.ceiling)
    this.bound = settings.ceiling
  }

  /** Requests that may be in flight now. */
  get cap(): number {
    return Math.max(1, Math.min(this.current, this.bound))
  }

  /** The fast EWMA of successful answers' latency, in ms (undefined before the first). */
  get latencyMs(): number | undefined {
    return this.fast
  }

  /** A successful answer (any status but 429 and 503) after `latencyMs` on the wire. */
  answered(latencyMs: number, context: AnswerContext): void {
    const s = this.settings
    this.fast = this.fast === undefined ? latencyMs : this.fast + s.latencyAlpha * (latencyMs - this.fast)
    this.baseline = this.baseline === undefined ? latencyMs : this.baseline + s.baselineAlpha * (latencyMs - this.baseline)
    this.bound = this.littleBound(context.allowedPerS)
    if (this.cooldown > 0) {
      this.cooldown--
      return
    }
    if (this.fast > this.baseline * s.latencyRise && this.fast - this.baseline >= s.latencyRiseMinMs) {
      this.shrink(s.latencyFactor)
      return
    }
    // A cap above the bound is not raised further: the pacer or the latency is what limits.
    if (!context.demand || this.current >= this.bound || this.current >= s.ceiling) return
    this.goodSinceGrowth++
    if (this.goodSinceGrowth >= Math.ceil(this.current / s.growthPerRound)) {
      this.current++
      this.goodSinceGrowth = 0
    }
  }

  /** A 429, a 503 or no answer at all: the server is overloaded, or says so. */
  overloaded(): void {
    if (this.cooldown > 0) {
      this.cooldown--
      return
    }
    this.shrink(this.settings.overloadFactor)
  }

  private shrink(factor: number): void {
    const before = this.cap
    this.current = Math.max(1, Math.floor(before * factor))
    this.goodSinceGrowth = 0
    // The requests already sent under the old cap answer from the same overload; they are not new news.
    this.cooldown = before
  }

  /** Little's law: in flight ≈ allowed rate × latency, with headroom; never below `start`, never above the ceiling. */
  private littleBound(allowedPerS: number | undefined): number {
    const s = this.settings
    if (allowedPerS === undefined || this.fast === undefined || !Number.isFinite(allowedPerS)) return s.ceiling
    const needed = Math.ceil(allowedPerS * (this.fast / 1000) * s.headroom)
    return clamp(Math.max(s.start, needed), 1, s.ceiling)
  }
}

function clamp(n: number, min: number, max: number): number {
  return Math.max(min, Math.min(max, n))
}
