// The rate-limit and idempotency areas read headers and compare replays leniently; these are the rules.
import { describe, expect, it } from 'vitest'
import { headerInt, resetForm, retryAfterForm, retryAfterMs } from '../src/judge/rate-headers.ts'
import { differingFields, sameMeaning } from '../src/judge/same-response.ts'

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
    expect(retryAfterMs('3', 0)).toBe(3000)
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4000)).toBe(6000)
    expect(retryAfterMs(new Date(1_000).toUTCString(), 4000)).toBe(0)
  })
})

describe('replays compared by meaning', () => {
  it('takes equal instants in other ISO 8601 forms as the same', () => {
    expect(sameMeaning('2026-01-05T09:30:00Z', '2026-01-05T17:30:00.000+08:00')).toBe(true)
    expect(sameMeaning('2026-01-05T09:30:00Z', '2026-01-05T09:30:01Z')).toBe(false)
    expect(sameMeaning({ a: [1, { b: null }] }, { a: [1, { b: null }] })).toBe(true)
    expect(sameMeaning({ a: 1 }, { a: 1, b: 2 })).toBe(false)
  })
  it('names the first response fields a replay changed, ignoring fields only the replay has', () => {
    expect(differingFields({ id: 'x', name: 'A', tags: [] }, { id: 'x', name: 'B', tags: [], extra: true })).toEqual(['name'])
  })
})
