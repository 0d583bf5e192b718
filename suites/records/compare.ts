// Comparing what was written with what is read back, by meaning rather than bytes: the leniency of rule 1 in
// one place. A server may return an empty email as null (§4.1), a date-time in another equivalent ISO 8601
// form, a date-time sent for a date cut to the date, uuids in another case, and string arrays in another order.
import { parseFieldType, type FieldType } from '../../src/spec/resources.ts'

export type AnyRecord = Record<string, any>

/** Plain data equality, ignoring key order. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  if (Array.isArray(a)) {
    const other = b as unknown[]
    return a.length === other.length && a.every((v, i) => deepEqual(v, other[i]))
  }
  const ka = Object.keys(a)
  const kb = Object.keys(b)
  return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual((a as AnyRecord)[k], (b as AnyRecord)[k]))
}

function sameInstant(a: unknown, b: unknown): boolean {
  if (typeof a !== 'string' || typeof b !== 'string') return false
  const ta = Date.parse(a)
  return !Number.isNaN(ta) && ta === Date.parse(b)
}

/** The calendar date a date or date-time string names, as written (`2030-06-30T…` → `2030-06-30`). */
function dateOf(value: unknown): string | undefined {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : undefined
}

/**
 * True when `actual` (a record field of type `recordType`) means what `sent` (written through a body field of
 * type `bodyType`) meant.
 */
export function sameMeaning(recordType: FieldType, sent: unknown, actual: unknown, bodyType: FieldType = recordType): boolean {
  // §4.1 "Email-type fields accept a string, null or an empty string": "" may be stored as null.
  if (parseFieldType(bodyType).base === 'email' && (sent === '' || sent === null)) return actual === '' || actual === null
  if (sent === null || actual === null) return sent === actual
  // Written through an enum (§4.4) but read as an open string (§2: task priority, lead source, activity kind,
  // payment method, locale/language): the record promises no spelling, so case is not held against a server.
  if (parseFieldType(bodyType).base === 'enum' && parseFieldType(recordType).base !== 'enum') {
    return typeof sent === 'string' && typeof actual === 'string' && sent.toLowerCase() === actual.toLowerCase()
  }
  switch (parseFieldType(recordType).base) {
    case 'date-time':
      return sameInstant(sent, actual)
    case 'date':
      return dateOf(sent) !== undefined && dateOf(sent) === actual
    case 'uuid':
      return typeof sent === 'string' && typeof actual === 'string' && sent.toLowerCase() === actual.toLowerCase()
    case 'string[]': {
      if (!Array.isArray(sent) || !Array.isArray(actual)) return false
      const a = new Set(sent)
      const b = new Set(actual)
      return a.size === b.size && [...a].every((v) => b.has(v))
    }
    default:
      return deepEqual(sent, actual)
  }
}

/** The visible text of an HTML fragment, white space ignored: sanitising may change the markup, not the text. */
export function textOfHtml(html: unknown): string {
  if (typeof html !== 'string') return ''
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, '')
}

export interface Mismatch {
  field: string
  sent: unknown
  got: unknown
}

export function describeMismatches(mismatches: Mismatch[], limit = 3): string {
  const shown = mismatches.slice(0, limit).map((m) => `${m.field} sent ${JSON.stringify(m.sent)}, read ${JSON.stringify(m.got)}`)
  return `${shown.join('; ')}${mismatches.length > limit ? `; and ${mismatches.length - limit} more` : ''}`
}
