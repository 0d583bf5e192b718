// `invalidBody(resource, op)`: an otherwise valid §4.4 body with exactly one defect the spec makes explicit:
// a missing required field (`*`), a value of the wrong JSON type, a value outside a listed enum, a uuid field
// that is not a uuid, or a non-integer number in an integer field. Never a format the spec leaves open
// (email syntax, string lengths: §8 "maximum string lengths: not shown").
import fc from 'fast-check'
import type { ResourceName, WriteOp } from '../spec/resources.ts'
import { bodyFields, type FieldShape } from './schema-fields.ts'
import { validModel, type Body, type BodyOptions } from './valid-body.ts'

export type DefectKind = 'missing-required' | 'wrong-type' | 'out-of-enum' | 'not-uuid' | 'not-integer'

export interface Defect {
  kind: DefectKind
  /** The field that is wrong, as a dot path from the body's root. */
  path: string
}

export interface InvalidBody {
  body: Body
  defect: Defect
}

/** Values of another JSON type than the field's: never null (a non-nullable field given null is left aside). */
function wrongTypes(field: FieldShape): unknown[] {
  switch (field.kind) {
    case 'integer':
      return ['twelve', true]
    case 'object':
      // An array is an object to `typeof`, not to JSON (§2 "custom is an object").
      return ['not an object', 42, ['not', 'an', 'object']]
    case 'string[]':
    case 'object[]':
      return ['not-an-array', 7]
    default:
      return [12345, true]
  }
}

const OUTSIDE_ENUM = ['unknown', 'not-a-value', 'zz']
const NOT_UUIDS = ['not-a-uuid', '12345', 'acc_0001']
const NOT_INTEGERS = [12.5, 0.25, 99.99]

/** Every single defect the body's schema makes explicit, each with its bad values (none for a missing field). */
export function defectsOf(resource: ResourceName, op: WriteOp, options: BodyOptions = {}): { defect: Defect; bad: unknown[] }[] {
  const out: { defect: Defect; bad: unknown[] }[] = []
  for (const field of bodyFields(resource, op)) {
    const path = field.name
    if (field.required) out.push({ defect: { kind: 'missing-required', path }, bad: [] })
    if (options.omit?.includes(field.name) && !field.required) continue
    out.push({ defect: { kind: 'wrong-type', path }, bad: wrongTypes(field) })
    if (field.kind === 'enum') out.push({ defect: { kind: 'out-of-enum', path }, bad: OUTSIDE_ENUM.filter((v) => !field.values!.includes(v)) })
    if (field.kind === 'uuid') out.push({ defect: { kind: 'not-uuid', path }, bad: NOT_UUIDS })
    if (field.kind === 'integer') out.push({ defect: { kind: 'not-integer', path }, bad: NOT_INTEGERS })
  }
  return out
}

/** Bodies with exactly one defect; `defect.path` names the one field a 400 must point at (§7.2). */
export function invalidBody(resource: ResourceName, op: WriteOp, options: BodyOptions = {}): fc.Arbitrary<InvalidBody> {
  const defects = defectsOf(resource, op, options)
  if (defects.length === 0) throw new Error(`writes/${resource}.${op} has no field that can be made invalid`)
  const { model, required } = validModel(resource, op, options)
  const base = fc.record(model, { requiredKeys: required, noNullPrototype: true }) as fc.Arbitrary<Body>
  // Kind first, then the field: a body with fifteen fields still gets its one enum or integer defect often.
  const kinds = [...new Set(defects.map((d) => d.defect.kind))]
  const pick = fc.oneof(...kinds.map((kind) => fc.constantFrom(...defects.filter((d) => d.defect.kind === kind))))
  return fc.tuple(pick, base, fc.nat()).map(([{ defect, bad }, valid, n]) => {
    const body: Body = { ...valid }
    if (defect.kind === 'missing-required') delete body[defect.path]
    else body[defect.path] = bad[n % bad.length]
    return { body, defect }
  })
}
