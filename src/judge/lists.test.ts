import { describe, expect, it } from 'vitest'
import { firstRepeated, sameInstantAt, shortOfLimit, sinceSides, sinceViolation, timestampPrecision } from './lists.ts'

describe('sameInstantAt', () => {
  it('writes the same instant at another offset, the shown digits padded', () => {
    const shown = '2026-11-26T00:20:37.123Z'
    const east = sameInstantAt(shown, 8 * 60, 6)!
    const west = sameInstantAt(shown, -(5 * 60 + 30), 3)!
    expect(east).toBe('2026-11-26T08:20:37.123000+08:00')
    expect(west).toBe('2026-11-25T18:50:37.123-05:30')
    expect(Date.parse(east)).toBe(Date.parse(shown))
    expect(Date.parse(west)).toBe(Date.parse(shown))
  })

  it('keeps microseconds and reads an offset form', () => {
    expect(sameInstantAt('2026-11-26T08:20:37.123456+08:00', 0, 9)).toBe('2026-11-26T00:20:37.123456000Z')
    expect(sameInstantAt('2026-11-26T00:20:37Z', 90, 3)).toBe('2026-11-26T01:50:37.000+01:30')
  })

  it('gives up rather than round or guess', () => {
    expect(sameInstantAt('2026-11-26T00:20:37.123456Z', 60, 3)).toBeUndefined()
    expect(sameInstantAt('2026-11-26 00:20', 60, 3)).toBeUndefined()
    expect(sameInstantAt('2026-11-26T00:20:37', 60, 3)).toBeUndefined()
  })
})

describe('shortOfLimit', () => {
  it('wants the page size asked while records follow, and never more', () => {
    expect(shortOfLimit(100, 100, true)).toBeUndefined()
    expect(shortOfLimit(100, 40, false)).toBeUndefined()
    expect(shortOfLimit(100, 50, true)).toMatch(/50 records/)
    expect(shortOfLimit(100, 101, false)).toMatch(/101 records/)
  })
})

describe('firstRepeated', () => {
  it('finds a record listed twice, unless it changed in between', () => {
    const a = { id: 'A', updatedAt: '1' }
    expect(firstRepeated([[a], [{ id: 'B' }], [a]])).toEqual({ id: 'A', first: 0, again: 2 })
    expect(firstRepeated([[a], [{ id: 'a', updatedAt: '2' }]], 'updatedAt')).toBeUndefined()
    expect(firstRepeated([[a], [{ id: 'B' }]])).toBeUndefined()
  })
})

describe('the since bound (§4.1)', () => {
  const at = (id: string, createdAt: string) => ({ id, createdAt, updatedAt: createdAt })
  const page = [at('a', '2026-01-01T00:00:01.000Z'), at('b', '2026-01-01T00:00:00.000Z'), at('c', '2025-12-31T23:59:59.000Z')]

  it('parts the records by the field the parameter names, in their order', () => {
    const sides = sinceSides('createdSince', '2026-01-01T00:00:00Z', [...page, { id: 'x', createdAt: 'soon' }])!
    expect([sides.before, sides.atBound, sides.after].map((side) => side.map((r) => r.id))).toEqual([['c'], ['b'], ['a']])
    expect(sinceSides('updatedSince', 'yesterday', page)).toBeUndefined()
  })

  it('finds a record before the bound first, and one at it only where one precision is shown', () => {
    expect(sinceViolation('createdSince', '2026-01-01T00:00:00Z', page)).toEqual({ kind: 'before', record: page[2] })
    expect(sinceViolation('createdSince', '2026-01-01T00:00:00Z', page.slice(0, 2))).toEqual({ kind: 'at', record: page[1] })
    const mixed = [page[1]!, at('d', '2026-01-01T00:00:02.123456Z')]
    expect(timestampPrecision(mixed)).toEqual({ digits: [3, 6], uniform: false })
    expect(sinceViolation('createdSince', '2026-01-01T00:00:00Z', mixed)).toBeUndefined()
  })
})
