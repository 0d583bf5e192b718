// Turns the spec tables of src/spec/resources.ts into the JSON Schema 2020-12 files of schemas/.
// Pure: scripts/build-schemas.ts writes the result, schemas-up-to-date.test.ts compares it with the committed files.
import { RESOURCE_LIST, parseFieldType, writeBodies } from '../spec/resources.ts'
import type { BodySpec, FieldType, ResourceName, ResourceSpec, WriteOp } from '../spec/resources.ts'

export const SCHEMA_BASE_URI = 'https://crm-conformance.dev/schemas/'
export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema'

export type JsonSchema = Record<string, unknown>

export function schemaId(key: string): string {
  return `${SCHEMA_BASE_URI}${key}.json`
}

const FORMATS: Partial<Record<string, string>> = { uuid: 'uuid', 'date-time': 'date-time', date: 'date' }

/** One field type as a JSON Schema. Nullable is `{"type": ["x", "null"]}` (conventions: language-neutral schemas). */
export function fieldSchema(t: FieldType): JsonSchema {
  const { base, nullable, values } = parseFieldType(t)
  const typed = (type: string, extra: JsonSchema = {}): JsonSchema => ({ type: nullable ? [type, 'null'] : type, ...extra })
  switch (base) {
    case 'uuid':
    case 'date-time':
    case 'date':
      return typed('string', { format: FORMATS[base] })
    case 'string':
      return typed('string')
    case 'integer':
      return typed('integer')
    case 'object':
      // §2 "Unspecified shapes": the inner shapes of address, recurrence, options, fields, custom are not shown.
      return typed('object')
    case 'string[]':
      return typed('array', { items: { type: 'string' } })
    case 'object[]':
      // §2 "Unspecified shapes": items[] and translations[] entries are open objects.
      return typed('array', { items: { type: 'object' } })
    case 'email':
      // §4.1 "Email-type fields accept a string, null or an empty string"; a non-empty string must be an address.
      return { anyOf: [{ type: 'string', format: 'email' }, { const: '' }, { type: 'null' }] }
    case 'enum':
      return nullable ? { type: ['string', 'null'], enum: [...values!, null] } : { type: 'string', enum: values }
  }
}

function objectSchema(key: string, title: string, description: string, properties: Record<string, JsonSchema>, required: string[]): JsonSchema {
  // No additionalProperties: extra fields are reported as information, never a failure (conventions).
  return {
    $schema: JSON_SCHEMA_DIALECT,
    $id: schemaId(key),
    title,
    description,
    type: 'object',
    required,
    properties,
  }
}

export function recordKey(resource: ResourceName): string {
  return `records/${resource}`
}
export function listKey(resource: ResourceName): string {
  return `lists/${resource}`
}
export function writeKey(resource: ResourceName, op: WriteOp): string {
  return `writes/${resource}.${op}`
}

export function recordSchema(r: ResourceSpec): JsonSchema {
  const properties: Record<string, JsonSchema> = {}
  for (const [field, t] of Object.entries(r.record)) {
    const max = r.recordMaxLength?.[field]
    properties[field] = max === undefined ? fieldSchema(t) : { ...fieldSchema(t), maxLength: max }
  }
  return objectSchema(
    recordKey(r.name),
    `${r.name} record`,
    `§2 ${r.name}: a ${r.name} as returned by get, list, create, update and replace (§4.2). Every listed field is always present, null only where its type allows; other fields are allowed.`,
    properties,
    Object.keys(r.record),
  )
}

const OP_WORDING: Record<WriteOp, (r: ResourceSpec) => string> = {
  create: (r) => `POST ${r.path}`,
  update: (r) => `update ${r.path}/{id}`,
  replace: (r) => `replace ${r.path}/{id}`,
}

export function writeSchema(r: ResourceSpec, op: WriteOp, body: BodySpec): JsonSchema {
  const properties: Record<string, JsonSchema> = {}
  for (const [field, t] of Object.entries(body.fields)) properties[field] = fieldSchema(t)
  const rule =
    op === 'update' ? 'All fields optional.' : op === 'replace' ? 'Every field is required (send every field and all line items).' : 'Fields marked * in the spec are required.'
  return objectSchema(
    writeKey(r.name, op),
    `${r.name} ${op} body`,
    `§4.4 ${OP_WORDING[op](r)}: the request body. ${rule} Other fields are allowed.`,
    properties,
    body.required,
  )
}

export function listEnvelopeSchema(): JsonSchema {
  return objectSchema(
    'list-envelope',
    'list envelope',
    '§4.1 and §2: a list returns { data: record[], nextCursor: string } on every page. Only the value on the last page is not shown (§4.1): any string, "" included, but never absent or null.',
    {
      data: { type: 'array' },
      nextCursor: { type: 'string' },
    },
    ['data', 'nextCursor'],
  )
}

export function errorSchema(): JsonSchema {
  return objectSchema(
    'error',
    'error envelope',
    '§7.1: { error: { code: string, message: string, details?: [ { path: string, message: string } ] } }.',
    {
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: {
          code: { type: 'string' },
          message: { type: 'string' },
          details: {
            type: 'array',
            items: {
              type: 'object',
              required: ['path', 'message'],
              properties: { path: { type: 'string' }, message: { type: 'string' } },
            },
          },
        },
      },
    },
    ['error'],
  )
}

export function meSchema(): JsonSchema {
  return {
    $schema: JSON_SCHEMA_DIALECT,
    $id: schemaId('me'),
    title: 'GET /me response',
    description:
      '§4.2 and §2 "Unspecified shapes": /me returns the workspace, the key\'s name and scopes, and the user the key acts as; the field names are not shown, so only an object is required.',
    type: 'object',
  }
}

export function webhookEventSchema(): JsonSchema {
  return objectSchema(
    'webhook-event',
    'webhook event',
    '§6.3: { type, timestamp, data: { id, entityType, object, changes } }; type is <entity>.<action> (§6.2). Inner shapes of object and changes are not shown.',
    {
      type: { type: 'string', pattern: '^[^.\\s]+\\.[^\\s]+$', description: '§6.2: <entity>.<action>; kinds beyond case.created and invoice.paid are not shown, so any dotted name is accepted' },
      timestamp: { type: 'string' },
      data: {
        type: 'object',
        required: ['id', 'entityType', 'object', 'changes'],
        properties: {
          id: { type: 'string' },
          entityType: { type: 'string' },
          object: { type: 'object' },
          changes: { type: 'object' },
        },
      },
    },
    ['type', 'timestamp', 'data'],
  )
}

/**
 * The list schema of a resource, derived (never written to disk): the envelope, with `data` items being the record.
 * References are absolute `$id`s so the result can be added to any Ajv instance that holds the file schemas.
 */
export function listSchema(resource: ResourceName): JsonSchema {
  return {
    $schema: JSON_SCHEMA_DIALECT,
    $id: schemaId(listKey(resource)),
    title: `${resource} list`,
    description: `§4.1: a list of ${resource} records.`,
    type: 'object',
    allOf: [{ $ref: schemaId('list-envelope') }],
    properties: { data: { type: 'array', items: { $ref: schemaId(recordKey(resource)) } } },
  }
}

/** Every file schema, keyed by its key (its path under schemas/ without `.json`), in a stable order. */
export function generateSchemas(): Map<string, JsonSchema> {
  const out = new Map<string, JsonSchema>()
  out.set('list-envelope', listEnvelopeSchema())
  out.set('error', errorSchema())
  out.set('me', meSchema())
  out.set('webhook-event', webhookEventSchema())
  for (const r of RESOURCE_LIST) out.set(recordKey(r.name), recordSchema(r))
  for (const { resource, op, body } of writeBodies()) {
    const r = RESOURCE_LIST.find((x) => x.name === resource)!
    out.set(writeKey(resource, op), writeSchema(r, op, body))
  }
  return out
}

/** The files of schemas/ as they must be on disk: relative path → pretty-printed text. */
export function renderSchemaFiles(): Map<string, string> {
  const files = new Map<string, string>()
  for (const [key, schema] of generateSchemas()) files.set(`${key}.json`, `${JSON.stringify(schema, null, 2)}\n`)
  return files
}
