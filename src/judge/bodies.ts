// A §4.4 write body judged against its write schema, with the leniency of the validation area
// (suites/validation/defects.ts): a required field left out, a wrong JSON type, a value outside a listed enum,
// a uuid or date-time that is not one. Formats the spec leaves open (email syntax) are never called wrong.
import { hasSchema, validate, writeKey, type SchemaIssue } from '../schemas/registry.ts'
import { RESOURCES, parseFieldType, type ResourceName, type WriteOp } from '../spec/resources.ts'

/** The defects of a write body, empty when it is valid; undefined when the resource has no such write. */
export function bodyDefects(resource: ResourceName, op: WriteOp, body: unknown): SchemaIssue[] | undefined {
  const key = writeKey(resource, op)
  if (!hasSchema(key)) return undefined
  const issues = validate(key, body)
  if (issues.length === 0) return issues
  const fields = RESOURCES[resource][op]?.fields ?? {}
  const values = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {}
  return issues.filter((i) => {
    const type = fields[i.path]
    // §4.1 "Email-type fields accept a string, null or an empty string": any string's syntax is left open.
    return !(type !== undefined && parseFieldType(type).base === 'email' && typeof values[i.path] === 'string')
  })
}
