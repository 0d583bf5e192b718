import { describe, expect, it } from 'vitest'
import { headerInt, resetForm, retryAfterForm, retryAfterProblem, tooManyRequestsHeadersProblem, wellFormedRetryAfterMs } from './rate-header-forms.ts'

describe('rate headers', () => {
  it('reads RateLimit-Limit and -Remaining as a leading non-negative integer', () => {
    expect(headerInt('600')).toBe(600)
    expect(headerInt(' 0 ')).toBe(0)
    expect(headerInt('100, 100;w=60')).toBe(100)
    expect(headerInt('-1')).toBeUndefined()
    expect(headerInt('1.5')).toBeUndefined()
    expect(headerInt('many')).toBeUndefined()
    expect(headerInt(undefined)).toBeUndefined()
  })
  it('tells delta seconds from a Unix time in RateLimit-Reset, and refuses dates', () => {
    expect(resetForm('42')).toBe('delta-seconds')
    expect(resetForm('0')).toBe('delta-seconds')
    expect(resetForm('1767225600')).toBe('unix-time')
    expect(resetForm('2026-01-01T00:00:00Z')).toBeUndefined()
    expect(resetForm('-5')).toBeUndefined()
  })
  it('reads Retry-After as seconds or an HTTP date, nothing else', () => {
    expect(retryAfterForm('3')).toBe('delta-seconds')
    expect(retryAfterForm('Wed, 21 Oct 2026 07:28:00 GMT')).toBe('http-date')
    expect(retryAfterForm('2026-10-21T07:28:00Z')).toBeUndefined()
    expect(retryAfterForm('1.5')).toBeUndefined()
    expect(wellFormedRetryAfterMs('3', 0)).toBe(3000)
    expect(wellFormedRetryAfterMs(new Date(10_000).toUTCString(), 4000)).toBe(6000)
    expect(wellFormedRetryAfterMs(new Date(1_000).toUTCString(), 4000)).toBe(0)
  })
  it('gives no wait for a Retry-After in neither form, where the client reads one leniently', () => {
    expect(wellFormedRetryAfterMs('1.5', 0)).toBeUndefined()
    expect(wellFormedRetryAfterMs(undefined, 0)).toBeUndefined()
  })
  it('names a 429 without a readable Retry-After or without its three rate headers', () => {
    expect(retryAfterProblem('3')).toBeUndefined()
    expect(retryAfterProblem('soon')).toMatch(/"soon" on the 429/)
    const headers = (h: Record<string, string>) => (name: string) => h[name]
    expect(tooManyRequestsHeadersProblem(headers({ 'ratelimit-limit': '600', 'ratelimit-remaining': '0', 'ratelimit-reset': '5' }))).toBeUndefined()
    expect(tooManyRequestsHeadersProblem(headers({ 'ratelimit-limit': '600' }))).toMatch(/lacks ratelimit-remaining, ratelimit-reset/)
    expect(tooManyRequestsHeadersProblem(headers({ 'ratelimit-limit': '600', 'ratelimit-remaining': '3', 'ratelimit-reset': '5' }))).toMatch(/expected 0/)
    expect(tooManyRequestsHeadersProblem(headers({ 'ratelimit-limit': '0', 'ratelimit-remaining': '0', 'ratelimit-reset': '5' }))).toMatch(/positive integer/)
  })
})
