// What an update leaves alone: §4.4 "on update all fields optional", unlike replace ("send every field"), so a
// field the update did not send keeps its value. One judgement for the bodies area's round trip and the traffic
// rule that compares an update's answer with the record seen just before it.
import { RESOURCES, parseFieldType, type ResourceName, type WriteOp } from '../spec/resources.ts'
import { deepEqual } from './written.ts'

/** An unsent field that held a value and now holds none: the update was applied as a replace. */
export function cleared(change: { before: unknown; after: unknown }): boolean {
  const empty = (v: unknown) =>
    v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && v !== null && Object.keys(v).length === 0)
  return !empty(change.before) && empty(change.after)
}

/**
 * Writable fields the update did not send whose value changed. A field the server derives (a contact's fullName
 * from its names: nullable in the body, never null in the record) may follow the fields it derives from.
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
  const spec = RESOURCES[resource]
  const out: { field: string; before: unknown; after: unknown }[] = []
  for (const [name, bodyType] of Object.entries(spec[op]?.fields ?? {})) {
    const type = spec.record[name]
    if (type === undefined || name in sent) continue
    if (parseFieldType(bodyType).nullable && !parseFieldType(type).nullable) continue
    if (!deepEqual(before[name], after[name])) out.push({ field: name, before: before[name], after: after[name] })
  }
  return out
}
