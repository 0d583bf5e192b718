// Reads a §4.4 write schema (schemas/writes/*.json) into the few field shapes the generators need. The schema
// is the source; the record's field type (src/spec/resources.ts) only refines a write field typed as a plain
// string that the record returns as a date (§4.4 "validUntil string|null (returned as date)").
import { getSchema, writeKey } from '../schemas/registry.ts'
import { RESOURCES, parseFieldType, type ResourceName, type WriteOp } from '../spec/resources.ts'

export type FieldKind = 'string' | 'email' | 'uuid' | 'date-time' | 'date' | 'integer' | 'object' | 'string[]' | 'object[]' | 'enum'

export interface FieldShape {
  name: string
  kind: FieldKind
  nullable: boolean
  required: boolean
  /** The accepted values of an enum, null excluded. */
  values?: string[]
}

type Schema = Readonly<Record<string, unknown>>

function typesOf(schema: Schema): string[] {
  const t = schema.type
  return Array.isArray(t) ? (t as string[]) : typeof t === 'string' ? [t] : []
}

function isEmailUnion(schema: Schema): boolean {
  const branches = schema.anyOf
  return Array.isArray(branches) && branches.some((b: Schema) => b.format === 'email')
}

/** One property of a write schema as a field shape; throws on a construct the generators do not know. */
export function fieldShape(resource: ResourceName, name: string, schema: Schema, required: boolean): FieldShape {
  if (isEmailUnion(schema)) return { name, kind: 'email', nullable: true, required }
  const types = typesOf(schema)
  const nullable = types.includes('null')
  const base = types.filter((t) => t !== 'null')
  if (Array.isArray(schema.enum)) {
    const values = (schema.enum as unknown[]).filter((v): v is string => typeof v === 'string')
    return { name, kind: 'enum', nullable: nullable || (schema.enum as unknown[]).includes(null), required, values }
  }
  const shape = (kind: FieldKind): FieldShape => ({ name, kind, nullable, required })
  switch (base[0]) {
    case 'string': {
      if (schema.format === 'uuid') return shape('uuid')
      if (schema.format === 'date-time') return shape('date-time')
      if (schema.format === 'date') return shape('date')
      const recordType = RESOURCES[resource].record[name]
      return shape(recordType !== undefined && parseFieldType(recordType).base === 'date' ? 'date' : 'string')
    }
    case 'integer':
      return shape('integer')
    case 'object':
      return shape('object')
    case 'array': {
      const items = (schema.items ?? {}) as Schema
      return shape(typesOf(items)[0] === 'object' ? 'object[]' : 'string[]')
    }
    default:
      throw new Error(`writes/${resource}: field ${name} has a schema the generators do not know: ${JSON.stringify(schema)}`)
  }
}

/** The fields of a §4.4 body, in the schema's order; throws when the body does not exist. */
export function bodyFields(resource: ResourceName, op: WriteOp): FieldShape[] {
  const schema = getSchema(writeKey(resource, op))
  const required = new Set((schema.required as string[] | undefined) ?? [])
  const properties = (schema.properties ?? {}) as Record<string, Schema>
  return Object.entries(properties).map(([name, s]) => fieldShape(resource, name, s, required.has(name)))
}
