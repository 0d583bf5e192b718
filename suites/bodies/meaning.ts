// Compares what was written with the record read back, by the records area's rule (src/judge/written.ts):
// by meaning, not bytes (§4.1 leaves normalisation open). Fields not in the record (§2 "writable but not in the
// record") and nulls where the record may not hold null (a derived fullName) are not compared.
import { isKeyedField, RESOURCES, parseFieldType, holdsWritten } from '../../src/checks/index.ts'
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

// §4.4 unsent fields on update: one judgement with the traffic rule traffic.records.update-keeps-unsent.
export { changedUnsent, cleared } from '../../src/checks/index.ts'
