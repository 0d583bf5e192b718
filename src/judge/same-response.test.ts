import { describe, expect, it } from 'vitest'
import { differingFields, sameMeaning } from './same-response.ts'

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
