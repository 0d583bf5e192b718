// The adaptive cap on the main key's requests in flight, fed made-up latencies and statuses.
import { describe, expect, it } from 'vitest'
import { AdaptiveConcurrency, adaptiveSettings, type AdaptiveSettings } from './adaptive-concurrency.ts'

const settings: AdaptiveSettings = { ...adaptiveSettings(16), start: 4, ceiling: 16 }
const busy = { demand: true }

/** `n` answers of `latencyMs` each. */
function feed(c: AdaptiveConcurrency, n: number, latencyMs: number, context: { demand: boolean; allowedPerS?: number } = busy): void {
  for (let i = 0; i < n; i++) c.answered(latencyMs, context)
}

/** A cap grown to the ceiling by fast answers to waiting requests: where the tests of shrinking start. */
function grownToTheCeiling(): AdaptiveConcurrency {
  const c = new AdaptiveConcurrency(settings)
  feed(c, 500, 700)
  expect(c.cap).toBe(16)
  return c
}

describe('AdaptiveConcurrency', () => {
  it('starts at the old fixed four', () => {
    expect(new AdaptiveConcurrency(settings).cap).toBe(4)
  })

  it('grows while answers stay as fast and requests wait, up to the ceiling and no further', () => {
    const c = new AdaptiveConcurrency(settings)
    feed(c, 10, 700)
    expect(c.cap).toBeGreaterThan(4)
    feed(c, 500, 700)
    expect(c.cap).toBe(16)
  })

  it('does not grow when nothing waits for a slot (a larger cap would not be used)', () => {
    const c = new AdaptiveConcurrency(settings)
    feed(c, 200, 700, { demand: false })
    expect(c.cap).toBe(4)
  })

  it("stops at Little's law's bound: allowed rate × latency × headroom", () => {
    const c = new AdaptiveConcurrency(settings)
    // 10/s at 700 ms: 7 in flight keep the key busy; with headroom 1.5, 11.
    feed(c, 500, 700, { demand: true, allowedPerS: 10 })
    expect(c.cap).toBe(Math.ceil(10 * 0.7 * settings.headroom))
    // A fast server at 10/s needs far fewer than four: the bound never goes below the start.
    const fast = new AdaptiveConcurrency(settings)
    feed(fast, 500, 5, { demand: true, allowedPerS: 10 })
    expect(fast.cap).toBe(4)
  })

  it('halves on 429, 503 or a connection error, once per round, never below one', () => {
    const c = grownToTheCeiling()
    c.overloaded()
    expect(c.cap).toBe(8)
    // The other answers sent under the old cap of 16 carry the same news: no further halving for them.
    for (let i = 0; i < 15; i++) c.overloaded()
    expect(c.cap).toBe(8)
    for (let i = 0; i < 100; i++) c.overloaded()
    expect(c.cap).toBe(1)
  })

  it('shrinks when latency climbs well above its baseline, and grows again once it is the new normal or back', () => {
    const c = grownToTheCeiling()
    feed(c, 8, 2_500)
    expect(c.cap).toBeLessThan(16)
    const shrunk = c.cap
    feed(c, 400, 700)
    expect(c.cap).toBeGreaterThan(shrunk)
  })

  it("ignores a fast server's jitter of a few ms", () => {
    const c = new AdaptiveConcurrency(settings)
    for (let i = 0; i < 500; i++) c.answered(i % 10 === 0 ? 40 : 3, busy)
    expect(c.cap).toBe(16)
  })

  it('a ceiling of one keeps one', () => {
    const c = new AdaptiveConcurrency(adaptiveSettings(1))
    feed(c, 100, 700)
    expect(c.cap).toBe(1)
  })
})
