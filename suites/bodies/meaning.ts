// Compares what was written with the record read back, by the records area's rule (src/judge/written.ts):
// by meaning, not bytes (§4.1 leaves normalisation open). Fields not in the record (§2 "writable but not in the
// record") and nulls where the record may not hold null (a derived fullName) are not compared.
import { bodyFields, isKeyedField, RESOURCES, parseFieldType, deepEqual, holdsWritten } from '../../src/checks/index.ts'
import type { ResourceName, WriteOp, Mismatch } from '../../src/checks/index.ts'

/** The fields whose read-back value does not mean what the `op` body sent. */
export function differences(resource: ResourceName, op: WriteOp, sent: Record<string, unknown>, record: Record<string, unknown>): Mismatch[] {
  const out: Mismatch[] = []
  const spec = RESOURCES[resource]
  for (const [field, value] of Object.entries(sent)) {
    const type = spec.record[field]
    if (type === undefined || value === undefined) continue
    // A null where the record field cannot be null is derived by the server (§2: a contact's fullName); a
    // null workspace key (status, language…) may be replaced by the workspace default.
    if (value === null && (!parseFieldType(type).nullable || isKeyedField(field))) continue
    if (!holdsWritten(resource, field, sent, record[field], spec[op]?.fields[field])) out.push({ field, sent: value, got: record[field] })
  }
  return out
}

/** An unsent field that held a value and now holds none: the update was applied as a replace. */
export function cleared(change: { before: unknown; after: unknown }): boolean {
  const empty = (v: unknown) =>
    v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && v !== null && Object.keys(v).length === 0)
  return !empty(change.before) && empty(change.after)
}

/**
 * Writable fields the update did not send whose value changed. §4.4 "on update all fields optional", unlike
 * replace ("send every field"): what is not sent is left as it was. A field the server derives (a contact's
 * fullName from its names: nullable in the body, never null in the record) may follow the fields it derives from.
 * Callers fail only the changes that clear a value (`cleared`): a server may recompute a field from the ones
 * sent (a task's remindAt from its dueAt, a team from its owner), which the spec neither shows nor forbids.
 */
export function changedUnsent(
  resource: ResourceName,
  op: WriteOp,
  sent: Record<string, unknown>,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): { field: string; before: unknown; after: unknown }[] {
  const recordTypes = RESOURCES[resource].record
  const out: { field: string; before: unknown; after: unknown }[] = []
  for (const field of bodyFields(resource, op)) {
    const type = recordTypes[field.name]
    if (type === undefined || field.name in sent) continue
    if (field.nullable && !parseFieldType(type).nullable) continue
    if (!deepEqual(before[field.name], after[field.name])) out.push({ field: field.name, before: before[field.name], after: after[field.name] })
  }
  return out
}
