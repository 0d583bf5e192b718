// Comparing what was written with what is read back, by meaning rather than bytes: the leniency of rule 1 in
// one place, shared by the records and bodies areas. A server may return an empty email as null (§4.1), an
// address or an enumerated value in another case, a date-time in another equivalent ISO 8601 form, a date-time
// sent for a date cut to the date, uuids in another case, string arrays in another order, tags and object keys
// of its own beside those written, and a contact's fullName composed from the names written with it.
import { RESOURCES, parseFieldType, type FieldType, type ResourceName } from '../spec/resources.ts'
import { sameLeaf } from './same-response.ts'

export type AnyRecord = Record<string, any>

/** Plain data equality, ignoring key order. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (sameLeaf(a, b)) return true
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

const sameText = (a: unknown, b: unknown): boolean => typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase()

/** A JSON object (not an array, not null). */
export const isObject = (v: unknown): v is AnyRecord => typeof v === 'object' && v !== null && !Array.isArray(v)

/** Every key written comes back with its value; §2 leaves the inner shape open, so a server may add its own (custom field defaults). */
function holdsKeys(sent: unknown, actual: unknown): boolean {
  if (!isObject(sent)) return deepEqual(sent, actual)
  if (actual === null) return Object.keys(sent).length === 0
  return isObject(actual) && Object.entries(sent).every(([k, v]) => Object.prototype.hasOwnProperty.call(actual, k) && deepEqual(v, actual[k]))
}

function sameSet(sent: unknown, actual: unknown, extraAllowed: boolean): boolean {
  if (!Array.isArray(sent) || !Array.isArray(actual)) return false
  const a = new Set(sent)
  const b = new Set(actual)
  return (extraAllowed || a.size === b.size) && [...a].every((v) => b.has(v))
}

/**
 * True when `actual` (a record field of type `recordType`) means what `sent` (written through a body field of
 * type `bodyType`) meant.
 */
export function meansWritten(recordType: FieldType, sent: unknown, actual: unknown, bodyType: FieldType = recordType): boolean {
  // §4.1 "Email-type fields accept a string, null or an empty string": "" may be stored as null, and an address
  // in lower case (§4.3 filters it "lower case").
  if (parseFieldType(bodyType).base === 'email') return sent === '' || sent === null ? actual === '' || actual === null : sameText(sent, actual)
  if (sent === null || actual === null) return sent === actual || (actual === null && isObject(sent) && Object.keys(sent).length === 0)
  // Written through an enum (§4.4) but read as an open string (§2: task priority, lead source, activity kind,
  // payment method, locale/language): the record promises no spelling, so case is not held against a server.
  if (parseFieldType(bodyType).base === 'enum' && parseFieldType(recordType).base !== 'enum') return sameText(sent, actual)
  switch (parseFieldType(recordType).base) {
    case 'date-time':
      return sameInstant(sent, actual)
    case 'date':
      return dateOf(sent) !== undefined && dateOf(sent) === actual
    case 'uuid':
      return sameText(sent, actual)
    case 'string[]':
      return sameSet(sent, actual, false)
    case 'object':
      return holdsKeys(sent, actual)
    default:
      return deepEqual(sent, actual)
  }
}

/**
 * Record fields the server may compose from others written in the same body, so only their presence is judged:
 * §2 contact fullName, a string that a server may build from a non-null firstName or lastName sent with it.
 */
export function composedFields(resource: ResourceName, sent: AnyRecord): string[] {
  const named = (f: string) => sent[f] !== null && sent[f] !== undefined
  return resource === 'contact' && (named('firstName') || named('lastName')) ? ['fullName'] : []
}

/**
 * True when the record's `field` shows what was written to it (the shared rule of the records and bodies areas).
 * Tags may come back with more tags than were written: §1.6 automation and routing may add their own.
 */
export function holdsWritten(resource: ResourceName, field: string, sent: AnyRecord, actual: unknown, bodyType?: FieldType): boolean {
  const recordType = RESOURCES[resource].record[field]!
  if (composedFields(resource, sent).includes(field)) return typeof actual === 'string' && actual.trim() !== ''
  if (field === 'tags') return sameSet(sent[field], actual, true)
  return meansWritten(recordType, sent[field], actual, bodyType ?? recordType)
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

/**
 * §1.6 "New cases are routed like any other case", "New leads are routed to a sales rep": on create, routing may
 * fill these when the body left them null.
 */
const ROUTED_ON_CREATE: Partial<Record<ResourceName, readonly string[]>> = {
  case: ['assigneeId', 'teamId'],
  lead: ['ownerId', 'teamId'],
}

/**
 * The fields of a write body that a record read afterwards does not hold, compared with holdsWritten (the records
 * area's rule). Beyond what the records checks ever write: a null sent on create to a field the record never
 * holds null (a case's priority, an opportunity's stageKey) is the server's default to fill, the fields
 * routing fills on create (above) are not judged when sent null, and a preview field is never compared
 * (side-effects.activity.body-preview judges its length).
 */
export function writtenMismatches(resource: ResourceName, op: 'create' | 'update' | 'replace', sent: AnyRecord, record: AnyRecord): Mismatch[] {
  const spec = RESOURCES[resource]
  const bodyFields = spec[op]?.fields ?? {}
  const out: Mismatch[] = []
  for (const [field, value] of Object.entries(sent)) {
    const recordType = spec.record[field]
    // A field the operation's §4.4 body does not list (an opportunity's stageKey on update) may be ignored.
    if (recordType === undefined || bodyFields[field] === undefined) continue
    if (op === 'create' && value === null && (!parseFieldType(recordType).nullable || ROUTED_ON_CREATE[resource]?.includes(field))) continue
    // §2, §8: a field the record shows as a preview (an activity's body, up to 500 characters) holds less than was written.
    if (spec.recordMaxLength?.[field] !== undefined) continue
    if (!holdsWritten(resource, field, sent, record[field], bodyFields[field])) out.push({ field, sent: value, got: record[field] })
  }
  return out
}
