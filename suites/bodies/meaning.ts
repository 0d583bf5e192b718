// Compares what was written with the record read back, by meaning, not bytes (§4.1 leaves normalisation
// open): an empty email may come back null, a date-time in another ISO 8601 form of the same instant, a date
// cut from a date-time, tags in another order. Fields not in the record (§2 "writable but not in the record")
// and nulls where the record may not hold null (a derived fullName) are not compared.
import { bodyFields, isKeyedField } from '../../src/generators/index.ts'
import { RESOURCES, parseFieldType, type ResourceName, type WriteOp } from '../../src/spec/resources.ts'

export interface Difference {
  field: string
  sent: unknown
  returned: unknown
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  const ka = Object.keys(a)
  const kb = Object.keys(b)
  return ka.length === kb.length && ka.every((k) => sameJson((a as any)[k], (b as any)[k]))
}

/** True when the returned value means what was sent. */
export function sameMeaning(resource: ResourceName, field: string, sent: unknown, returned: unknown): boolean {
  const type = RESOURCES[resource].record[field]!
  const { base } = parseFieldType(type)
  if (sent === null) return returned === null
  if (typeof sent === 'string' && /email/i.test(field)) {
    // §4.1 "Email-type fields accept … an empty string": stored as empty or as no address.
    if (sent === '') return returned === '' || returned === null
    return typeof returned === 'string' && returned.toLowerCase() === sent.toLowerCase()
  }
  switch (base) {
    case 'date-time':
      return typeof returned === 'string' && typeof sent === 'string' && Date.parse(returned) === Date.parse(sent)
    case 'date':
      return typeof returned === 'string' && typeof sent === 'string' && returned.slice(0, 10) === sent.slice(0, 10)
    case 'string[]': {
      if (!Array.isArray(returned) || !Array.isArray(sent)) return false
      const a = new Set(sent)
      const b = new Set(returned)
      return a.size === b.size && [...a].every((x) => b.has(x))
    }
    case 'object':
      // Inner shapes are not shown (§2): every key sent must come back; a server may add its own (custom defaults).
      if (returned === null) return Object.keys(sent as object).length === 0
      return typeof returned === 'object' && Object.entries(sent as object).every(([k, v]) => sameJson(v, (returned as any)[k]))
    default:
      return sameJson(sent, returned)
  }
}

/** The fields whose read-back value does not mean what was sent. */
export function differences(resource: ResourceName, sent: Record<string, unknown>, record: Record<string, unknown>): Difference[] {
  const out: Difference[] = []
  const recordTypes = RESOURCES[resource].record
  for (const [field, value] of Object.entries(sent)) {
    const type = recordTypes[field]
    if (type === undefined || value === undefined) continue
    // A null where the record field cannot be null is derived by the server (§2: a contact's fullName); a
    // null workspace key (status, language…) may be replaced by the workspace default.
    if (value === null && (!parseFieldType(type).nullable || isKeyedField(field))) continue
    if (!sameMeaning(resource, field, value, record[field])) out.push({ field, sent: value, returned: record[field] })
  }
  return out
}

/**
 * Writable fields the update did not send whose value changed. §4.4 "on update all fields optional", unlike
 * replace ("send every field"): what is not sent is left as it was. A field the server derives (a contact's
 * fullName from its names: nullable in the body, never null in the record) may follow the fields it derives from.
 * Callers fail only the changes that clear a value (`cleared`): a server may recompute a field from the ones
 * sent (a task's remindAt from its dueAt, a team from its owner), which the spec neither shows nor forbids.
 */
/** An unsent field that held a value and now holds none: the update was applied as a replace. */
export function cleared(change: { before: unknown; after: unknown }): boolean {
  const empty = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && v !== null && Object.keys(v).length === 0)
  return !empty(change.before) && empty(change.after)
}

export function changedUnsent(resource: ResourceName, op: WriteOp, sent: Record<string, unknown>, before: Record<string, unknown>, after: Record<string, unknown>): { field: string; before: unknown; after: unknown }[] {
  const recordTypes = RESOURCES[resource].record
  const out: { field: string; before: unknown; after: unknown }[] = []
  for (const field of bodyFields(resource, op)) {
    const type = recordTypes[field.name]
    if (type === undefined || field.name in sent) continue
    if (field.nullable && !parseFieldType(type).nullable) continue
    if (!sameJson(before[field.name], after[field.name])) out.push({ field: field.name, before: before[field.name], after: after[field.name] })
  }
  return out
}
