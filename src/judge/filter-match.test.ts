// The §4.3 match rules the filters area judges servers by: a wrong rule here fails a conformant server.
import { expect, test } from 'vitest'
import { RESOURCES, type FilterSpec, type ResourceName } from '../spec/resources.ts'
import { comparable, mayRefuseUnknownKey, queryValueFor, recordMatches, revealsCase, toE164, unmatchedValue } from './filter-match.ts'

const filter = (resource: ResourceName, param: string): FilterSpec => RESOURCES[resource].filters.find((f) => f.param === param)!

test('lower-case email filters compare lower-cased: records store the address however they like', () => {
  const email = filter('account', 'email')
  expect(recordMatches(email, { email: 'Hello@KopiKita.example' }, 'hello@kopikita.example')).toBe(true)
  expect(recordMatches(email, { email: 'hello@kopikita.example' }, 'other@kopikita.example')).toBe(false)
  expect(queryValueFor(email, 'Hello@KopiKita.example')).toBe('hello@kopikita.example')
  expect(revealsCase(email, 'Hello@KopiKita.example')).toBe(true)
  expect(revealsCase(email, 'hello@kopikita.example')).toBe(false)
})

test('the users email filter is exact: no case rule (§4.3 "exact address")', () => {
  const email = filter('user', 'email')
  expect(recordMatches(email, { email: 'a@acme.example' }, 'a@acme.example')).toBe(true)
  expect(recordMatches(email, { email: 'A@acme.example' }, 'a@acme.example')).toBe(false)
})

test('sku compares upper-cased; mobile compares in E.164 form', () => {
  const sku = filter('product', 'sku')
  expect(queryValueFor(sku, 'sku-roast-250')).toBe('SKU-ROAST-250')
  expect(recordMatches(sku, { sku: 'sku-roast-250' }, 'SKU-ROAST-250')).toBe(true)
  const mobile = filter('contact', 'mobile')
  expect(toE164('+60 12-345 6701')).toBe('+60123456701')
  expect(toE164('012-345 6701')).toBeUndefined()
  expect(recordMatches(mobile, { mobile: '+60 12-345 6701' }, '+60123456701')).toBe(true)
  expect(queryValueFor(mobile, '0123456701')).toBeUndefined()
})

test('uuids name the same record in either case; other fields are exact', () => {
  const owner = filter('account', 'ownerId')
  expect(comparable(owner, 'ABCDEF00-0000-4000-8000-000000000000')).toBe('abcdef00-0000-4000-8000-000000000000')
  expect(recordMatches(filter('case', 'status'), { status: 'Open' }, 'open')).toBe(false)
  expect(recordMatches(owner, { ownerId: null }, 'abcdef00-0000-4000-8000-000000000000')).toBe(false)
})

test('enumerated filters are queried only with listed values', () => {
  const status = filter('opportunity', 'status')
  expect(queryValueFor(status, 'won')).toBe('won')
  expect(queryValueFor(status, 'stalled')).toBeUndefined()
  expect(unmatchedValue(status)).toBeUndefined()
})

test("values no record holds are of the filter's own form", () => {
  expect(unmatchedValue(filter('account', 'ownerId'))).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  expect(unmatchedValue(filter('contact', 'email'))).toMatch(/^crmconf\.nomatch\.[0-9a-f]+@example\.com$/)
  expect(unmatchedValue(filter('product', 'sku'))).toMatch(/^CRMCONF-NOMATCH-[0-9A-F]+$/)
  const mobile = unmatchedValue(filter('contact', 'mobile'))!
  expect(toE164(mobile)).toBe(mobile)
  expect(mayRefuseUnknownKey(filter('case', 'status'))).toBe(true)
  expect(mayRefuseUnknownKey(filter('account', 'email'))).toBe(false)
})
