// An OpenAPI 3.1 description of the API as this suite reads the spec, assembled from schemas/ (through the
// registry) and src/spec/resources.ts. Where the spec says "not shown", the document says so rather than guess.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { SCHEMA_BASE_URI } from '../schemas/generate.ts'
import { getSchema, listKey, recordKey, schemaKeys, writeKey } from '../schemas/registry.ts'
import type { SchemaKey } from '../schemas/registry.ts'
import { LIST_PARAMETERS, ME_PATH, RESOURCE_LIST, scopeFor } from '../spec/resources.ts'
import type { FilterSpec, OpName, ResourceSpec, WriteOp } from '../spec/resources.ts'
import { specDigest } from '../spec/spec-text.ts'

type Json = Record<string, unknown>

const SECURITY_SCHEME = 'apiKey'

/** `records/account` → `records.account` (component names allow only `[A-Za-z0-9._-]`). */
export function componentName(key: SchemaKey | string): string {
  return key.replace(/\//g, '.')
}

const schemaRef = (key: SchemaKey | string): Json => ({ $ref: `#/components/schemas/${componentName(key)}` })

/**
 * A registry schema as an embedded component: without `$id`/`$schema` (so it does not change the base URI of
 * references inside the document), and with references to our `$id`s rewritten to component references.
 */
function embed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(embed)
  if (value === null || typeof value !== 'object') return value
  const out: Json = {}
  for (const [k, v] of Object.entries(value)) {
    if (k === '$id' || k === '$schema') continue
    if (k === '$ref' && typeof v === 'string' && v.startsWith(SCHEMA_BASE_URI)) {
      out.$ref = schemaRef(v.slice(SCHEMA_BASE_URI.length).replace(/\.json$/, '')).$ref
      continue
    }
    out[k] = embed(v)
  }
  return out
}

const RATE_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'] as const
const headerRefs = (names: readonly string[]): Json => Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]))

/** §8 shows the header names only: `600`, or `600, 600;w=60` as older drafts of the RateLimit fields write it. */
const LEADING_INT = '^\\s*\\d+\\s*([,;].*)?$'
/** §7.7 "RateLimit-Remaining (0)" on a 429, in either form. */
const LEADING_ZERO = '^\\s*0+\\s*([,;].*)?$'
/** RFC 9110 IMF-fixdate, the HTTP date Retry-After may carry instead of seconds. */
const HTTP_DATE = '(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \\d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \\d{4} \\d{2}:\\d{2}:\\d{2} GMT'

function headers(): Json {
  return {
    // §8 "on every response": required, so a schema-drift tool flags an answer without them as a contract tool should.
    'RateLimit-Limit': {
      description: "§8: the key's per-minute request limit, on every response (a leading integer; the form beyond it is not shown).",
      required: true,
      schema: { type: 'string', pattern: LEADING_INT },
    },
    'RateLimit-Remaining': {
      description: '§8: requests left in the current window, on every response (0 on a 429, §7.7).',
      required: true,
      schema: { type: 'string', pattern: LEADING_INT },
    },
    'RateLimit-Reset': {
      description: '§8: on every response; seconds until the window resets, or the Unix time it resets at (both are seen; a date is not).',
      required: true,
      schema: { type: 'string', pattern: '^\\s*\\d+\\s*$' },
    },
    'Retry-After': {
      description: '§8: seconds to wait before calling again, on every 429 (RFC 9110 also allows an HTTP date).',
      required: true,
      schema: { type: 'string', pattern: `^\\s*(\\d+|${HTTP_DATE})\\s*$` },
    },
    'RateLimit-Remaining-Spent': {
      description: '§7.7: a 429 carries RateLimit-Remaining 0.',
      required: true,
      schema: { type: 'string', pattern: LEADING_ZERO },
    },
  }
}

function errorResponse(description: string, extraHeaders: string[] = [], schema: Json = schemaRef('error'), headerOverrides: Json = {}): Json {
  return {
    description,
    headers: { ...headerRefs([...RATE_HEADERS, ...extraHeaders]), ...headerOverrides },
    content: { 'application/json': { schema } },
  }
}

/**
 * §7.2–§7.3: a 400 is the envelope, and its `details`, when present, name at least one field. Neither the code nor
 * `details` can be required of every 400: a write the record's state does not allow may be refused with 400 and a
 * code of its own, or with `invalid_request` and no details (§3, §7.8: not shown; the reference server's alt-b
 * variant does the latter), and no document can tell that 400 from one for invalid fields.
 */
const INVALID_REQUEST: Json = {
  allOf: [
    schemaRef('error'),
    {
      type: 'object',
      required: ['error'],
      properties: { error: { type: 'object', required: ['code'], properties: { details: { type: 'array', minItems: 1 } } } },
    },
  ],
}

function responses(): Json {
  return {
    BadRequest: errorResponse(
      '§7.3: invalid or missing fields give code `invalid_request` with `details` naming each field; a 400 for another reason (a state refusal, §7.8) may carry another code or no details.',
      [],
      INVALID_REQUEST,
    ),
    Unauthorized: errorResponse('§5.5, §7.4: the key is missing or no longer valid.'),
    Forbidden: errorResponse("§5.6, §7.5: the key's scopes, its owner's role or its IP allowlist do not allow the call."),
    NotFound: errorResponse('§5.7, §7.6: the record does not exist or is not visible to the key.'),
    TooManyRequests: errorResponse("§7.7, §8: the key's per-minute limit is reached; wait Retry-After seconds.", ['Retry-After'], schemaRef('error'), {
      'RateLimit-Remaining': { $ref: '#/components/headers/RateLimit-Remaining-Spent' },
    }),
  }
}

function filterSchema(f: FilterSpec): Json {
  if (f.kind === 'uuid') return { type: 'string', format: 'uuid' }
  if (f.kind === 'enum') return { type: 'string', enum: f.values }
  return { type: 'string' }
}

function filterParameter(f: FilterSpec): Json {
  const rule = { exact: '', lowercase: ' (lower case)', uppercase: ' (upper case)', e164: ' (E.164)' }[f.match]
  const meaning = f.meaning === '' ? `only ${f.values?.join(', ')}` : f.meaning
  return {
    name: f.param,
    in: 'query',
    required: false,
    description: `§4.3: ${meaning}${rule}; matches the record field \`${f.field}\`.`,
    schema: filterSchema(f),
  }
}

function parameters(): Json {
  const { limit, sort, order } = LIST_PARAMETERS
  return {
    limit: {
      name: 'limit',
      in: 'query',
      description: '§4.1, §8: page size.',
      schema: { type: 'integer', minimum: limit.min, maximum: limit.max, default: limit.default },
    },
    cursor: { name: 'cursor', in: 'query', description: '§4.1: the `nextCursor` of the previous page.', schema: { type: 'string' } },
    sort: { name: 'sort', in: 'query', description: '§4.1: sort field.', schema: { type: 'string', enum: [...sort.values], default: sort.default } },
    order: { name: 'order', in: 'query', description: '§4.1: sort direction.', schema: { type: 'string', enum: [...order.values], default: order.default } },
    createdSince: {
      name: 'createdSince',
      in: 'query',
      description: '§4.1: only records created after this time.',
      schema: { type: 'string', format: 'date-time' },
    },
    updatedSince: {
      name: 'updatedSince',
      in: 'query',
      description: '§4.1, §9.2: only records changed after this time (incremental sync, with sort=updatedAt).',
      schema: { type: 'string', format: 'date-time' },
    },
    id: { name: 'id', in: 'path', required: true, description: '§4.1: the record id.', schema: { type: 'string', format: 'uuid' } },
    IdempotencyKey: {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        '§4.1: any unique value; a retry with the same key and the same body within 24 hours returns the first response and creates no duplicate. The same key with a different body: not shown.',
      schema: { type: 'string' },
    },
  }
}

const paramRef = (name: string): Json => ({ $ref: `#/components/parameters/${name}` })
const responseRef = (name: string): Json => ({ $ref: `#/components/responses/${name}` })

function capitalised(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1)
}

const CONVENTIONAL_METHOD_NOTE = 'The spec does not show the method of update, replace and delete operations (§4.1); this document uses the conventional one.'

function success(description: string, key?: SchemaKey): Json {
  const out: Json = { description, headers: headerRefs(RATE_HEADERS) }
  if (key) out.content = { 'application/json': { schema: schemaRef(key) } }
  return out
}

function operation(r: ResourceSpec, op: OpName): Json {
  const scope = scopeFor(r.name, op)
  const title = r.titles[op] ?? op
  const notes: string[] = [`§4.2: ${title}. Scope \`${scope}\` (§5.4).`]
  if (op === 'update' || op === 'replace' || op === 'delete') notes.push(CONVENTIONAL_METHOD_NOTE)
  if (op === 'delete' && r.deleteMeans === 'recycle-bin') notes.push('§1.6: the record is moved to a recycle bin.')
  notes.push('The success status code is not shown (§4.1).')
  const errors: Json = {
    '400': responseRef('BadRequest'),
    '401': responseRef('Unauthorized'),
    '403': responseRef('Forbidden'),
    // A list filtered by, or a create naming, a parent that does not exist may be answered 404 (§4.3 leaves it open; §5.7).
    '404': responseRef('NotFound'),
    '429': responseRef('TooManyRequests'),
  }
  const base: Json = {
    operationId: `${op}${capitalised(r.name)}`,
    summary: `${capitalised(title)} (${r.name})`,
    description: notes.join(' '),
    tags: [r.name],
    security: [{ [SECURITY_SCHEME]: [scope] }],
  }
  switch (op) {
    case 'list':
      return {
        ...base,
        parameters: [...Object.keys(LIST_PARAMETERS).map(paramRef), ...r.filters.map(filterParameter)],
        responses: { '2XX': success(`§4.1: a page of ${r.name} records.`, listKey(r.name)), ...errors },
      }
    case 'get':
      return { ...base, responses: { '2XX': success(`§4.2: the ${r.name} record (§2).`, recordKey(r.name)), ...errors } }
    case 'create':
    case 'update':
    case 'replace': {
      const w = op as WriteOp
      return {
        ...base,
        ...(op === 'create' ? { parameters: [paramRef('IdempotencyKey')] } : {}),
        requestBody: { required: true, content: { 'application/json': { schema: schemaRef(writeKey(r.name, w)) } } },
        responses: { '2XX': success(`§4.2: the ${r.name} record (§2).`, recordKey(r.name)), ...errors },
      }
    }
    case 'delete':
      return { ...base, responses: { '2XX': success('The response body of delete operations is not shown (§4.1).'), ...errors } }
  }
}

const METHODS: Record<OpName, string> = { list: 'get', get: 'get', create: 'post', update: 'patch', replace: 'put', delete: 'delete' }

/** The OpenAPI 3.1 document: every path and operation of §4.2 with the scopes of §5.4. */
export function buildOpenApi(): Json {
  const paths: Json = {
    [ME_PATH]: {
      get: {
        operationId: 'getMe',
        summary: 'Check a key',
        description:
          "§4.2: returns the workspace, the key's name and scopes, and the user the key acts as; field names are not shown (§2). The scope it needs is not shown (§5.9).",
        tags: ['me'],
        security: [{ [SECURITY_SCHEME]: [] }],
        responses: {
          '2XX': success('The key, its workspace and its user.', 'me'),
          '401': responseRef('Unauthorized'),
          // §5.6: the key's IP allowlist refuses any call, this one included.
          '403': responseRef('Forbidden'),
          '429': responseRef('TooManyRequests'),
        },
      },
    },
  }
  for (const r of RESOURCE_LIST) {
    const collection: Json = {}
    const item: Json = {}
    for (const op of ['list', 'create'] as const) if (r.ops[op]) collection[METHODS[op]] = operation(r, op)
    for (const op of ['get', 'update', 'replace', 'delete'] as const) if (r.ops[op]) item[METHODS[op]] = operation(r, op)
    paths[r.path] = collection
    if (Object.keys(item).length > 0) paths[`${r.path}/{id}`] = { parameters: [paramRef('id')], ...item }
  }

  const schemas: Json = {}
  for (const key of schemaKeys()) schemas[componentName(key)] = embed(getSchema(key))

  return {
    openapi: '3.1.0',
    info: {
      title: 'Customer Relationship Management REST API',
      version: 'v1',
      description: [
        'Generated by crm-conformance from spec/crm-api-spec.md; it adds nothing the spec does not say, except:',
        '(1) the spec does not show the methods of update, replace and delete (§4.1): they are the conventional PATCH, PUT and DELETE here;',
        '(2) success status codes are not shown (§4.1): responses use the 2XX range;',
        '(3) error statuses other than 400, 401, 403, 404 and 429 are not shown (§7.8).',
      ].join(' '),
      'x-spec-digest': specDigest(),
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [
      { url: '{base_url}/v1', variables: { base_url: { default: 'https://crm.example.com', description: '§1, §9.1' } } },
      { url: '{workspace_url}/api/v1', variables: { workspace_url: { default: 'https://acme.crm.example.com', description: '§1, §9.1' } } },
    ],
    security: [{ [SECURITY_SCHEME]: [] }],
    tags: [{ name: 'me' }, ...RESOURCE_LIST.map((r) => ({ name: r.name, description: `§2 ${r.name}` }))],
    paths,
    components: {
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: 'http',
          scheme: 'bearer',
          description:
            '§5.1–§5.4: `Authorization: Bearer <KEY_PREFIX>_<workspace>_<secret>`. The strings in each security requirement are the scopes (`<area>:read`, `<area>:write`) the operation needs.',
        },
      },
      schemas,
      parameters: parameters(),
      headers: headers(),
      responses: responses(),
    },
  }
}

/** Writes the document as pretty-printed JSON. */
export function writeOpenApi(file: string): void {
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, `${JSON.stringify(buildOpenApi(), null, 2)}\n`)
}
