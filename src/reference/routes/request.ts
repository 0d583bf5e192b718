// Reading a request: the id in the path, the record it names in the key's workspace, the scope and role the
// operation needs, the JSON body (§7.3, §8 size), and the body's validation (the schema registry, then the
// references to other records of the workspace).

import { parseFieldType, scopeFor, type OpName, type ResourceSpec, type WriteOp } from '../../spec/resources.ts'
import type { SchemaIssue } from '../../schemas/registry.ts'
import { ApiError, invalidRequest, notFound, type ErrorDetail } from '../api-error.ts'
import { requireScope, type ApiKey } from '../auth.ts'
import type { FaultId, SwitchesOf } from '../faults.ts'
import { normalizeUuid, own } from '../model-kit.ts'
import { MODELS } from '../models.ts'
import { UUID_PATTERN } from '../pagination.ts'
import type { Json, Kind, StoredRecord } from '../store.ts'
import { bodyProblems } from '../validation.ts'
import { HTTP_DEFAULTS, type AppState, type Ctx } from './context.ts'
import { parseDate, parseDateTime } from '../clock.ts'

/** The faults this module plays (faults.ts): the only switches its code can read. */
export const REQUEST_FAULTS = [
  'validation.scalar-body-as-empty',
  'read-only.non-uuid-500',
  'auth.item-any-workspace',
  'auth.unknown-id-500',
  'auth.foreign-record-403',
  'auth.comments-own-scope',
  'validation.body-unguarded-500',
  'validation.required-unchecked',
  'validation.enums-unchecked',
  'validation.reference-uuid-unchecked',
  'validation.types-coerced',
  'bodies.types-unchecked',
  'validation.empty-email-refused',
  'auth.delete-checks-read-scope',
  'validation.object-fields-accept-arrays',
  'validation.first-error-only',
  'validation.dates-unchecked',
  'validation.date-time-zulu-only',
  'validation.array-body-first-element',
  'validation.create-email-not-nullable',
] as const satisfies readonly FaultId[]

/** The parent a child record names (§4.4): looked up first by the variants that do so. */
const PARENT_FIELD: Partial<Record<Kind, string>> = { comment: 'caseId', payment: 'invoiceId', message: 'conversationId' }

export interface RequestReader {
  /** The path's id, lower-cased; a non-uuid is the variant's 404 or 400. */
  parseId(spec: ResourceSpec, raw: string): string
  /** The record the path's id names in the key's workspace, else 404. */
  find(c: Ctx, spec: ResourceSpec): StoredRecord
  /** The workspace `find` found a record in, when not the key's (the `auth.item-any-workspace` fault). */
  foundIn(rec: StoredRecord): string | undefined
  /** The key, once it holds the operation's scope (and, with `role`, its owner's role allows it), else 403. */
  allow(c: Ctx, spec: ResourceSpec, op: OpName, role?: boolean): ApiKey
  /** §7.3: malformed JSON and bodies that are not objects are a 400 naming the body, never a 500. */
  readBody(c: Ctx): Promise<Json>
  /** Schema (the registry), then references to other records of the workspace; a 400 with every detail. */
  checkBody(spec: ResourceSpec, op: WriteOp, body: Json, workspace: string): void
  /** The kind of the parent `values` name by a uuid that no record of the workspace has; undefined otherwise. */
  missingParent(spec: ResourceSpec, workspace: string, values: Record<string, unknown>): Kind | undefined
}

export function requestReader(state: AppState): RequestReader {
  const { store, variant } = state
  const faults: SwitchesOf<typeof REQUEST_FAULTS> = state.faults

  const parseId = (spec: ResourceSpec, raw: string): string => {
    if (UUID_PATTERN.test(raw)) return raw.toLowerCase()
    // The fault: the id goes to the database unchecked, whose uuid cast throws.
    if (faults['read-only.non-uuid-500']) throw new Error(`invalid input syntax for type uuid: "${raw}"`)
    if (variant.nonUuidId === 'invalid-400') throw invalidRequest([{ segments: ['id'], in: 'path', message: 'id must be a uuid' }])
    throw notFound(spec.name)
  }

  /** The `auth.item-any-workspace` fault: the workspace a record was found in, when not the key's. */
  const foundIn = new WeakMap<StoredRecord, string>()

  const find = (c: Ctx, spec: ResourceSpec): StoredRecord => {
    const id = parseId(spec, c.req.param('id') ?? '')
    let rec = store.get(c.get('key').workspace, spec.name, id)
    // The fault: the id is looked up in every workspace, not only the key's; writes then act on the owner's copy.
    if (!rec && faults['auth.item-any-workspace']) {
      for (const ws of state.workspaces.keys()) if (!rec && (rec = store.get(ws, spec.name, id))) foundIn.set(rec, ws)
    }
    // The fault: the missing record is dereferenced.
    if (!rec && faults['auth.unknown-id-500']) throw new TypeError("Cannot read properties of undefined (reading 'record')")
    // The fault: another workspace's record is refused as forbidden, which tells the caller it exists.
    if (!rec && faults['auth.foreign-record-403'] && [...state.workspaces.keys()].some((ws) => store.get(ws, spec.name, id))) {
      throw new ApiError(403, 'forbidden', 'This record belongs to another workspace.')
    }
    if (!rec) throw notFound(spec.name)
    return rec
  }

  const allow = (c: Ctx, spec: ResourceSpec, op: OpName, role = true): ApiKey => {
    const key = c.get('key')
    // The fault: a delete guarded like a get, by the area's read scope (the route was copied from the get's).
    const scope = scopeFor(spec.name, faults['auth.delete-checks-read-scope'] && op === 'delete' ? 'get' : op)
    // The fault: comments guarded by comments:* scopes of their own, which §5.4 does not have.
    requireScope(key, faults['auth.comments-own-scope'] && spec.name === 'comment' ? scope.replace(/^cases:/, 'comments:') : scope, state.faults, role)
    return key
  }

  const readBody = async (c: Ctx): Promise<Json> => {
    // hono/body-limit re-wraps the request in a global Request, which needs the Node globals this server leaves
    // alone; the limit is checked here instead.
    const tooLarge = () => new ApiError(413, 'payload_too_large', `The body is larger than ${HTTP_DEFAULTS.maxBodyBytes} bytes.`)
    if (Number(c.req.header('content-length') ?? 0) > HTTP_DEFAULTS.maxBodyBytes) throw tooLarge()
    const text = await c.req.text()
    if (text.length > HTTP_DEFAULTS.maxBodyBytes && Buffer.byteLength(text) > HTTP_DEFAULTS.maxBodyBytes) throw tooLarge()
    // The fault: the body is parsed unguarded and used as an object whatever it is, so a bad body ends in a 500.
    if (faults['validation.body-unguarded-500']) {
      const value = JSON.parse(text) as unknown
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        throw new TypeError(`Cannot use 'in' operator to search for 'id' in ${String(value)}`)
      return value as Json
    }
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      throw invalidRequest([{ segments: [], message: 'Body is not valid JSON' }])
    }
    // The fault: a body that is JSON but no object (a number, a string, true, null) is read as {} (`body || {}`, or
    // a framework's "parse what you can"), so a create with no required field succeeds on it.
    if (faults['validation.scalar-body-as-empty'] && (value === null || typeof value !== 'object')) return {} as Json
    // The fault: an array is taken for a batch of one, so its first element is the body.
    if (faults['validation.array-body-first-element'] && Array.isArray(value)) value = value[0] as unknown
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw invalidRequest([{ segments: [], message: 'Body must be a JSON object' }])
    }
    // Deeper bodies would later overflow the stack of JSON.stringify (a 500): refuse them here.
    if (depthOf(value) > HTTP_DEFAULTS.maxBodyDepth) {
      throw invalidRequest([{ segments: [], message: `Body is nested deeper than ${HTTP_DEFAULTS.maxBodyDepth} levels` }])
    }
    return value as Json
  }

  /** Schema issues that a faulty validator overlooks (faults of the validation area). */
  const overlooked = (spec: ResourceSpec, op: WriteOp, issue: SchemaIssue): boolean => {
    if (issue.keyword === 'required') return faults['validation.required-unchecked']
    if (issue.keyword === 'enum') return faults['validation.enums-unchecked']
    const type = spec[op]!.fields[issue.path]
    return issue.keyword === 'format' && type !== undefined && parseFieldType(type).base === 'uuid' && faults['validation.reference-uuid-unchecked']
  }

  /** The faults of a validator that looks at each value's JavaScript type or reads dates leniently. */
  const overlookedIn = (spec: ResourceSpec, op: WriteOp, body: Json, issue: SchemaIssue): boolean => {
    const type = own(spec[op]!.fields, issue.path.split('.')[0] ?? '')
    const base = type === undefined ? undefined : parseFieldType(type).base
    // The fault: typeof [] === 'object', so an array passes for an object (a field, or a line item).
    if (faults['validation.object-fields-accept-arrays'] && issue.keyword === 'type' && (base === 'object' || base === 'object[]'))
      return Array.isArray(valueAt(body, issue.path))
    // The fault: a date or date-time is any string.
    return faults['validation.dates-unchecked'] && issue.keyword === 'format' && (base === 'date' || base === 'date-time')
  }

  const checkBody = (spec: ResourceSpec, op: WriteOp, body: Json, workspace: string): void => {
    // The fault: wrong JSON types are coerced as a form parser would, before validation.
    if (faults['validation.types-coerced']) coerceTypes(spec[op]!.fields, body)
    let details: ErrorDetail[] = bodyProblems(spec.name, op, body, (issue) => overlooked(spec, op, issue) || overlookedIn(spec, op, body, issue))
    // §2, §4.4: dates and date-times (validUntil, issueDate, paidOn are strings "returned as date") must be real
    // ones; checked here with the schema so that §7.2 details list every field to fix, not the first.
    for (const [field, bodyType] of Object.entries(spec[op]!.fields)) {
      const recordType = own(spec.record, field)
      const base = recordType === undefined ? parseFieldType(bodyType).base : parseFieldType(recordType).base
      const value = body[field]
      if ((base !== 'date' && base !== 'date-time') || typeof value !== 'string' || details.some((d) => d.segments[0] === field)) continue
      // The fault: date-times are parsed with a pattern that ends in Z, so +08:00 is refused.
      const zuluOnly = faults['validation.date-time-zulu-only'] && base === 'date-time' && !/z$/i.test(value)
      if (!zuluOnly && (base === 'date' ? parseDate(value) : parseDateTime(value)) !== undefined) continue
      // The fault: a lenient date parser gives null for what it cannot read, and the write goes on.
      if (faults['validation.dates-unchecked']) body[field] = null
      else
        details.push({
          segments: [field],
          message: base === 'date' ? `${field} must be a date (YYYY-MM-DD)` : `${field} must be an ISO 8601 date-time with a zone`,
        })
    }
    // The fault: only missing required fields are looked for.
    if (faults['bodies.types-unchecked']) details = details.filter((d) => d.segments.length === 1 && own(body, d.segments[0]) === undefined)
    // The fault: the address format is checked without allowing the empty string of §4.1.
    if (faults['validation.empty-email-refused']) {
      for (const [f, t] of Object.entries(spec[op]!.fields))
        if (t === 'email' && body[f] === '') details.push({ segments: [f], message: `${f} must be an email address` })
    }
    // The fault: on a create, an email field is an address or "", never null.
    if (faults['validation.create-email-not-nullable'] && op === 'create') {
      for (const [f, t] of Object.entries(spec[op]!.fields))
        if (t === 'email' && body[f] === null) details.push({ segments: [f], message: `${f} must be a string` })
    }
    const fields = spec[op]!.fields
    // The variant's rule: a text field the create requires holds something on every write.
    if (variant.blankRequiredTextRefused) {
      for (const field of spec.create?.required ?? []) {
        const v = body[field]
        if (own(fields, field) === undefined || typeof v !== 'string' || v.trim() !== '' || details.some((d) => d.segments[0] === field)) continue
        details.push({ segments: [field], message: `${field} may not be blank` })
      }
    }
    for (const [field, kind] of Object.entries(MODELS[spec.name].refs)) {
      const v = body[field]
      if (own(fields, field) === undefined || typeof v !== 'string' || details.some((d) => d.segments[0] === field)) continue
      // The fault: a reference that is not a uuid reaches the database, whose uuid cast throws.
      if (faults['validation.reference-uuid-unchecked'] && !UUID_PATTERN.test(v)) throw new Error(`invalid input syntax for type uuid: "${v}"`)
      if (!store.get(workspace, kind, normalizeUuid(v))) details.push({ segments: [field], message: `${field} names no ${kind} of this workspace` })
    }
    // The fault: the validator returns at the first invalid field.
    if (faults['validation.first-error-only']) details = details.slice(0, 1)
    if (details.length > 0) throw invalidRequest(details)
  }

  const missingParent = (spec: ResourceSpec, workspace: string, values: Record<string, unknown>): Kind | undefined => {
    const field = PARENT_FIELD[spec.name]
    const value = field === undefined ? undefined : values[field]
    if (typeof value !== 'string' || !UUID_PATTERN.test(value)) return undefined
    const kind = MODELS[spec.name].refs[field!]!
    return store.get(workspace, kind, normalizeUuid(value)) ? undefined : kind
  }

  return { parseId, find, foundIn: (rec) => foundIn.get(rec), allow, readBody, checkBody, missingParent }
}

/** The value at a dot path of a schema issue (`items.0`). */
function valueAt(body: Json, path: string): unknown {
  let v: unknown = body
  for (const segment of path.split('.')) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[segment] : undefined
  return v
}

/** Nesting depth of a parsed JSON value, without recursion. */
function depthOf(value: unknown): number {
  let max = 0
  const stack: [unknown, number][] = [[value, 1]]
  while (stack.length > 0) {
    const [v, d] = stack.pop()!
    if (v === null || typeof v !== 'object') continue
    if (d > max) max = d
    if (max > HTTP_DEFAULTS.maxBodyDepth) return max
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === 'object') stack.push([child, d + 1])
  }
  return max
}

/** The `validation.types-coerced` fault: numbers become strings, numeric strings integers, fractions are cut. */
function coerceTypes(fields: Record<string, Parameters<typeof parseFieldType>[0]>, body: Json): void {
  for (const [field, type] of Object.entries(fields)) {
    const value = body[field]
    const base = parseFieldType(type).base
    if ((base === 'string' || base === 'email') && typeof value === 'number') body[field] = String(value)
    if (base === 'integer' && typeof value === 'string' && /^-?\d+$/.test(value)) body[field] = Number(value)
    if (base === 'integer' && typeof value === 'number') body[field] = Math.trunc(value)
  }
}
