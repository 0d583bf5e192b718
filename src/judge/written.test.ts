import { describe, expect, it } from 'vitest'
import { composedFields, deepEqual, describeMismatches, holdsWritten, meansWritten, textOfHtml, writtenMismatches } from './written.ts'

describe('deepEqual', () => {
  it('compares plain data, key order aside', () => {
    expect(deepEqual({ a: [1, { b: null }], c: 'x' }, { c: 'x', a: [1, { b: null }] })).toBe(true)
    expect(deepEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false)
    expect(deepEqual([1, 2], [2, 1])).toBe(false)
    expect(deepEqual({}, [])).toBe(false)
  })
})

describe('meansWritten', () => {
  it('takes an email written empty back as null, and an address in another case', () => {
    expect(meansWritten('string|null', '', null, 'email')).toBe(true)
    expect(meansWritten('string|null', 'Ana@Acme.example', 'ana@acme.example', 'email')).toBe(true)
    expect(meansWritten('string|null', 'ana@acme.example', 'bob@acme.example', 'email')).toBe(false)
  })
  it('compares date-times by instant, dates by the date written, uuids by any case, string arrays as sets', () => {
    expect(meansWritten('date-time', '2026-01-05T09:30:00Z', '2026-01-05T17:30:00.000+08:00')).toBe(true)
    expect(meansWritten('date-time', '2026-01-05T09:30:00Z', '2026-01-05T09:30:01Z')).toBe(false)
    expect(meansWritten('date', '2030-06-30T12:00:00Z', '2030-06-30')).toBe(true)
    expect(meansWritten('uuid', 'ABCDEF00-0000-4000-8000-000000000000', 'abcdef00-0000-4000-8000-000000000000')).toBe(true)
    expect(meansWritten('string[]', ['a', 'b'], ['b', 'a'])).toBe(true)
    expect(meansWritten('string[]', ['a', 'b'], ['a', 'b', 'c'])).toBe(false)
  })
  it('lets an object come back with keys of the server’s own, never without those written', () => {
    expect(meansWritten('object', { plan: 'gold' }, { plan: 'gold', region: 'my' })).toBe(true)
    expect(meansWritten('object', { plan: 'gold' }, { region: 'my' })).toBe(false)
    expect(meansWritten('object|null', {}, null)).toBe(true)
  })
})

describe('holdsWritten and writtenMismatches', () => {
  it('allows tags of the server’s own and a fullName composed from the names written', () => {
    expect(holdsWritten('account', 'tags', { tags: ['vip'] }, ['vip', 'routed'])).toBe(true)
    expect(composedFields('contact', { firstName: 'Ana' })).toEqual(['fullName'])
    expect(holdsWritten('contact', 'fullName', { firstName: 'Ana', fullName: 'x' }, 'Ana Lim')).toBe(true)
  })
  it('names the fields a record does not hold, leaving out fields the body does not list', () => {
    const sent = { name: 'Acme', legalName: 'Acme Sdn Bhd', email: 'Hi@Acme.example', unknown: 1 }
    const record = { name: 'Acme', legalName: 'Acme Bhd', email: 'hi@acme.example' }
    const found = writtenMismatches('account', 'create', sent, record)
    expect(found).toEqual([{ field: 'legalName', sent: 'Acme Sdn Bhd', got: 'Acme Bhd' }])
    expect(describeMismatches(found)).toBe('legalName sent "Acme Sdn Bhd", read "Acme Bhd"')
    expect(describeMismatches([...found, ...found, ...found, ...found], 2)).toMatch(/; and 2 more$/)
  })
})

describe('textOfHtml', () => {
  it('keeps the visible text, markup and white space aside', () => {
    expect(textOfHtml('<p>Fish &amp; <b>chips</b></p>\n')).toBe(textOfHtml('<div>Fish &amp; chips</div>'))
    expect(textOfHtml(undefined)).toBe('')
  })
})
