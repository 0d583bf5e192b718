// `validBody(resource, op)`: a fast-check arbitrary of §4.4 bodies that the write schema accepts, with
// realistic values. Optional fields come and go (and shrink away); required fields are always there.
import fc from 'fast-check'
import type { ResourceName, WriteOp } from '../spec/resources.ts'
import { date, dateTime, email, integer, isKeyedField, keyedFallback, arrayItem, text } from './leaves.ts'
import { bodyFields, type FieldShape } from './schema-fields.ts'

export type Body = Record<string, unknown>

export interface BodyOptions {
  /**
   * Real ids for uuid fields (`{ parentId: '…' }`). Without one, an optional uuid field is left out and a
   * nullable one in a body that requires it is null: a made-up reference would rightly be refused.
   */
  refs?: Record<string, string>
  /** Text put before a generated string (the run label that `sweep` recognises, e.g. on a lead's fullName). */
  prefix?: Record<string, string>
  /** Fields never sent (e.g. a state field whose transitions are not shown, §3). */
  omit?: string[]
  /** A new suffix for each generated email address, so that no two records of a run share one. */
  emailMark?: () => string
}

/** The arbitrary of one field's valid values, or undefined when the field is not generated at all. */
export function validValue(field: FieldShape, options: BodyOptions = {}): fc.Arbitrary<unknown> | undefined {
  const orNull = (arb: fc.Arbitrary<unknown>) => (field.nullable ? fc.oneof(arb, fc.constant(null)) : arb)
  const ref = options.refs?.[field.name]
  switch (field.kind) {
    case 'uuid':
      if (ref !== undefined) return fc.constant(ref)
      if (field.required) {
        if (field.nullable) return fc.constant(null)
        throw new Error(`${field.name} is a required uuid: pass a real id in options.refs.${field.name}`)
      }
      return undefined
    case 'enum':
      return fc.constantFrom<unknown>(...field.values!, ...(field.nullable ? [null] : []))
    case 'email':
      // §4.1: "Email-type fields accept a string, null or an empty string".
      return fc.oneof(email(options.emailMark), fc.constant(''), fc.constant(null))
    case 'string': {
      if (isKeyedField(field.name)) {
        if (field.nullable) return fc.constant(null)
        return field.required ? keyedFallback(field.name) : undefined
      }
      const prefix = options.prefix?.[field.name]
      const arb = prefix === undefined ? text(field.name) : text(field.name).map((s) => `${prefix}${s}`)
      return orNull(arb)
    }
    case 'date-time':
      return orNull(dateTime(field.name))
    case 'date':
      return orNull(date)
    case 'integer':
      return orNull(integer(field.name))
    case 'object':
      // §2 "Unspecified shapes": inner shapes are not shown, so only the empty object (or null) is surely valid.
      return field.nullable ? fc.constant(null) : fc.constant({})
    case 'object[]':
      return fc.constant([])
    case 'string[]':
      return orNull(fc.uniqueArray(arrayItem(field.name), { maxLength: 3 }))
  }
}

/** The fields a body generator draws, with their arbitraries. */
export function validModel(
  resource: ResourceName,
  op: WriteOp,
  options: BodyOptions = {},
): { model: Record<string, fc.Arbitrary<unknown>>; required: string[] } {
  const model: Record<string, fc.Arbitrary<unknown>> = {}
  const required: string[] = []
  for (const field of bodyFields(resource, op)) {
    if (options.omit?.includes(field.name) && !field.required) continue
    const arb = validValue(field, options)
    if (arb === undefined) continue
    model[field.name] = arb
    if (field.required) required.push(field.name)
  }
  return { model, required }
}

/** Bodies the §4.4 write schema accepts. A body without required fields is never empty. */
export function validBody(resource: ResourceName, op: WriteOp, options: BodyOptions = {}): fc.Arbitrary<Body> {
  const { model, required } = validModel(resource, op, options)
  const arb = fc.record(model, { requiredKeys: required, noNullPrototype: true }) as fc.Arbitrary<Body>
  return required.length > 0 ? arb : arb.filter((b) => Object.keys(b).length > 0)
}
