// How a §4.3 filter value compares with a record field, by the filter's `match` rule. Pure functions: the checks
// judge what a server returned with these, and pick the values they query with.
import { randomUUID } from 'node:crypto'
import type { FilterSpec } from '../spec/resources.ts'

const E164 = /^\+[1-9]\d{1,14}$/

/** A phone number in E.164 form, from E.164 with the usual separators (`+60 12-345 6701`); undefined otherwise. */
export function toE164(value: string): string | undefined {
  const compact = value.replace(/[\s().-]/g, '')
  return E164.test(compact) ? compact : undefined
}

/**
 * The value in the form the filter's §4.3 "Meaning" asks for: lower case, upper case, E.164 (undefined when it is
 * no phone number in E.164 with separators), as it is for an exact filter.
 */
function askedForm(filter: FilterSpec, value: string): string | undefined {
  switch (filter.match) {
    case 'lowercase':
      return value.toLowerCase()
    case 'uppercase':
      return value.toUpperCase()
    case 'e164':
      return toE164(value)
    case 'exact':
      return value
  }
}

/** The form in which a value and a record field are compared (§4.3 "Meaning"). */
export function comparable(filter: FilterSpec, value: string): string {
  // A uuid names the same record in either case.
  if (filter.kind === 'uuid') return value.toLowerCase()
  return askedForm(filter, value) ?? value
}

/** True when the record's field matches the queried value. Records store case however they like. */
export function recordMatches(filter: FilterSpec, record: Record<string, unknown>, value: string): boolean {
  const field = record?.[filter.field]
  return typeof field === 'string' && comparable(filter, field) === comparable(filter, value)
}

/**
 * The value to send for a record's field, in the form the filter asks for (§4.3: "lower case", "upper case",
 * "in E.164 form"), or undefined when the field holds nothing a filter could name.
 */
export function queryValueFor(filter: FilterSpec, field: unknown): string | undefined {
  if (typeof field !== 'string' || field === '') return undefined
  if (filter.kind === 'enum' && !filter.values?.includes(field)) return undefined
  return askedForm(filter, field)
}

/**
 * How much a record's value tells about the filter: a value whose stored case differs from the queried form
 * is the one that shows a case-sensitive comparison (§4.3 "lower case", "upper case").
 */
export function revealsCase(filter: FilterSpec, field: string): boolean {
  return askedForm(filter, field) !== field
}

/** A value of the filter's form that no record is expected to hold; undefined for enum filters (§3.3). */
export function unmatchedValue(filter: FilterSpec): string | undefined {
  const token = randomUUID().replace(/-/g, '').slice(0, 10)
  if (filter.kind === 'enum') return undefined
  if (filter.kind === 'uuid') return randomUUID()
  if (filter.param === 'email') return `crmconf.nomatch.${token}@example.com`
  if (filter.match === 'uppercase') return `CRMCONF-NOMATCH-${token.toUpperCase()}`
  // Ofcom's drama range (+44 7700 900000–900999): valid E.164, never a subscriber.
  if (filter.match === 'e164') return `+447700900${String(parseInt(token.slice(0, 6), 16) % 1000).padStart(3, '0')}`
  return `crmconf-nomatch-${token}`
}

/**
 * String filters over keys the workspace defines (status, priority, stage, tier, kind): a server may refuse a
 * key it does not know with a 400 rather than answer an empty list; §4.3 and §7.8 leave that open.
 */
export function mayRefuseUnknownKey(filter: FilterSpec): boolean {
  return filter.kind === 'string' && !['email', 'mobile', 'sku'].includes(filter.param)
}
