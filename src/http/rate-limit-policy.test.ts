import { describe, expect, it } from 'vitest'
import { DEFAULTS } from '../config/config.ts'
import { retryAfterMs, waitBefore429Retry } from './rate-limit-policy.ts'

describe('the 429 policy', () => {
  it('waits what Retry-After asks, as seconds or an HTTP date counted from the response Date', () => {
    expect(waitBefore429Retry({ 'retry-after': '3' }, 0, 90, 0)).toBe(3000)
    expect(retryAfterMs({ 'retry-after': new Date(10_000).toUTCString(), date: new Date(4000).toUTCString() }, 60_000)).toBe(6000)
  })
  it('waits the named default when a 429 has no readable Retry-After', () => {
    expect(waitBefore429Retry({}, 0, 90, 0)).toBe(DEFAULTS.retryAfterMissingMs)
    expect(waitBefore429Retry({ 'retry-after': 'soon' }, 0, 90, 0)).toBe(DEFAULTS.retryAfterMissingMs)
  })
  it('sends again at most max429Retries times, and never waits longer than the run does', () => {
    expect(waitBefore429Retry({ 'retry-after': '1' }, DEFAULTS.max429Retries - 1, 90, 0)).toBe(1000)
    expect(waitBefore429Retry({ 'retry-after': '1' }, DEFAULTS.max429Retries, 90, 0)).toBeUndefined()
    expect(waitBefore429Retry({ 'retry-after': '91' }, 0, 90, 0)).toBeUndefined()
    expect(waitBefore429Retry({ 'retry-after': '90' }, 0, 90, 0)).toBe(90_000)
  })
})
