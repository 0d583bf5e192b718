import { describe, expect, test } from 'vitest'
import { RateLimiter } from './rate-limit.ts'

const MINUTE = 60_000

describe('fixed window', () => {
  test('the whole budget is spendable at once and comes back on the wall-clock minute', () => {
    const limiter = new RateLimiter('fixed-window')
    const start = 10 * MINUTE + 15_000
    for (let i = 0; i < 5; i++) expect(limiter.take('k', 5, start + i).allowed).toBe(true)
    const refused = limiter.take('k', 5, start + 5)
    expect(refused).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 45, retryAfterSeconds: 45 })
    expect(limiter.take('k', 5, 11 * MINUTE - 1).allowed).toBe(false)
    expect(limiter.take('k', 5, 11 * MINUTE)).toMatchObject({ allowed: true, remaining: 4, resetSeconds: 60 })
  })

  test('RateLimit-Reset counts down to the minute', () => {
    const limiter = new RateLimiter('fixed-window')
    expect(limiter.take('k', 600, 3 * MINUTE + 59_500).resetSeconds).toBe(1)
    expect(limiter.take('k', 600, 3 * MINUTE + 30_000).resetSeconds).toBe(30)
  })
})

describe('sliding window', () => {
  test('at most the limit within any 60 s, a slot back when the oldest request leaves', () => {
    const limiter = new RateLimiter('sliding-window')
    expect(limiter.take('k', 3, 0).allowed).toBe(true)
    expect(limiter.take('k', 3, 20_000).allowed).toBe(true)
    expect(limiter.take('k', 3, 40_000)).toMatchObject({ allowed: true, remaining: 0, resetSeconds: 60 })
    expect(limiter.take('k', 3, 50_000)).toMatchObject({ allowed: false, retryAfterSeconds: 10 })
    expect(limiter.take('k', 3, 60_000)).toMatchObject({ allowed: true, remaining: 0 })
    expect(limiter.take('k', 3, 61_000)).toMatchObject({ allowed: false, retryAfterSeconds: 19 })
  })
})

describe('token bucket', () => {
  test('bursts to the limit, then one request per limit-th of a minute', () => {
    const limiter = new RateLimiter()
    for (let i = 0; i < 60; i++) expect(limiter.take('k', 60, 0).allowed).toBe(true)
    expect(limiter.take('k', 60, 0)).toMatchObject({ allowed: false, retryAfterSeconds: 1 })
    expect(limiter.take('k', 60, 1000).allowed).toBe(true)
  })

  test('keys are independent', () => {
    const limiter = new RateLimiter('fixed-window')
    expect(limiter.take('a', 1, 0).allowed).toBe(true)
    expect(limiter.take('b', 1, 0).allowed).toBe(true)
    expect(limiter.take('a', 1, 0).allowed).toBe(false)
  })
})
