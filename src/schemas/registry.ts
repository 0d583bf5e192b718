// The one Ajv instance of the project. Reads every file of schemas/ and derives the list schemas on first use;
// adds them all at the first validation and compiles each at its own first (a broken schema is a
// CRMCONF_SCHEMA_INVALID error at that point, never a failed check; `compileSchemas()` compiles them all at
// start-up). Nothing happens at import, so `--help`, `list`
// and `openapi` start without compiling schemas they never use.
import { Ajv2020 } from 'ajv/dist/2020.js'
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js'
import formatsModule from 'ajv-formats'
import { CrmConfError } from '../errors.ts'
import { RESOURCE_NAMES } from '../spec/resources.ts'
import type { ResourceName, WriteOp } from '../spec/resources.ts'
import { SCHEMAS_DIR, readSchemaFiles } from './files.ts'
import { listKey as listKeyOf, listSchema, recordKey as recordKeyOf, schemaId, writeKey as writeKeyOf } from './generate.ts'
import type { JsonSchema } from './generate.ts'

/** A schema's path under schemas/ without `.json`; `lists/*` are derived at load time. */
export type SchemaKey =
  | `records/${ResourceName}`
  | `lists/${ResourceName}`
  | `writes/${ResourceName}.${WriteOp}`
  | 'error'
  | 'list-envelope'
  | 'me'
  | 'webhook-event'

export interface SchemaIssue {
  /** Dot path of the offending field: `email`, `items.0.name`, `` for the root; a missing property's own path. */
  path: string
  message: string
  /** The JSON Schema keyword that failed (`required`, `type`, `format`, `enum`, `anyOf`, …). */
  keyword: string
}

export function recordKey(resource: ResourceName): SchemaKey {
  return recordKeyOf(resource) as SchemaKey
}
export function listKey(resource: ResourceName): SchemaKey {
  return listKeyOf(resource) as SchemaKey
}
/** The key of a §4.4 body; `hasSchema` tells whether that body exists (e.g. there is no `writes/order.update`). */
export function writeKey(resource: ResourceName, op: WriteOp): SchemaKey {
  return writeKeyOf(resource, op) as SchemaKey
}

const addFormats = formatsModule.default

interface Entry {
  schema: JsonSchema
  /** Top-level property names the schema (and the schemas it extends through allOf) declares. */
  known: ReadonlySet<string>
}

interface CompiledEntry extends Entry {
  validate: ValidateFunction
}

export interface LoadedRegistry {
  ajv: Ajv2020
  entries: Map<string, CompiledEntry>
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

function fail(message: string, cause?: unknown): never {
  throw new CrmConfError('CRMCONF_SCHEMA_INVALID', message, cause === undefined ? undefined : { cause })
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const v of Object.values(value)) deepFreeze(v)
  }
  return value
}

/** Reads every schema of `dir` and derives the list schemas, without compiling anything. */
function readRegistry(dir: string): Map<string, Entry> {
  const raw = new Map<string, JsonSchema>()
  let files: Map<string, string>
  try {
    files = readSchemaFiles(dir)
  } catch (error) {
    fail(`Cannot read the schema folder ${dir}: ${(error as Error).message}`, error)
  }
  for (const [file, text] of files) {
    const key = file.slice(0, -'.json'.length)
    let schema: unknown
    try {
      schema = JSON.parse(text)
    } catch (error) {
      fail(`schemas/${file} is not JSON: ${(error as Error).message}`, error)
    }
    if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) fail(`schemas/${file} is not a JSON object`)
    const id = (schema as JsonSchema).$id
    if (id !== schemaId(key)) fail(`schemas/${file} has $id ${JSON.stringify(id)}, expected ${schemaId(key)}`)
    raw.set(key, schema as JsonSchema)
  }
  for (const name of RESOURCE_NAMES) {
    if (!raw.has(recordKeyOf(name))) fail(`schemas/${recordKeyOf(name)}.json is missing (run node bin/run-ts.mjs scripts/build-schemas.ts)`)
    raw.set(listKeyOf(name), listSchema(name))
  }
  for (const key of ['list-envelope', 'error', 'me', 'webhook-event']) if (!raw.has(key)) fail(`schemas/${key}.json is missing`)

  const byId = new Map([...raw].map(([key, schema]) => [schema.$id as string, key]))
  const knownOf = (schema: JsonSchema): Set<string> => {
    const names = new Set(Object.keys((schema.properties as object | undefined) ?? {}))
    for (const part of (schema.allOf as JsonSchema[] | undefined) ?? []) {
      const ref = typeof part.$ref === 'string' ? byId.get(part.$ref) : undefined
      for (const n of knownOf(ref === undefined ? part : raw.get(ref)!)) names.add(n)
    }
    return names
  }
  return new Map([...raw].map(([key, schema]) => [key, { schema: deepFreeze(schema), known: knownOf(schema) }]))
}

/** One strict Ajv 2020-12 instance with ajv-formats holding every schema read by `readRegistry`, none compiled yet. */
function addRegistry(read: Map<string, Entry>): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true })
  addFormats(ajv)
  // §2 "uuid = string in UUID format": the RFC 4122 string form only; ajv-formats also accepts a `urn:uuid:` prefix.
  ajv.addFormat('uuid', UUID)
  for (const [key, { schema }] of read) {
    try {
      ajv.addSchema(schema)
    } catch (error) {
      fail(`Schema ${key} is invalid: ${(error as Error).message}`, error)
    }
  }
  return ajv
}

/** Compiles one schema of `ajv` (and what it refers to). */
function compileEntry(ajv: Ajv2020, key: string, entry: Entry): CompiledEntry {
  let validate: ValidateFunction | undefined
  try {
    validate = ajv.getSchema(entry.schema.$id as string)
  } catch (error) {
    fail(`Schema ${key} does not compile: ${(error as Error).message}`, error)
  }
  if (validate === undefined) fail(`Schema ${key} did not compile`)
  return { ...entry, validate }
}

/** Compiles every schema read by `readRegistry` into one Ajv instance. */
function compileRegistry(read: Map<string, Entry>): LoadedRegistry {
  const ajv = addRegistry(read)
  return { ajv, entries: new Map([...read].map(([key, entry]) => [key, compileEntry(ajv, key, entry)])) }
}

/**
 * Reads and compiles every schema of `dir` at once. The project's own registry goes through it lazily (below);
 * it is exported so tests can prove a broken folder fails as a whole, before any validation.
 */
export function loadRegistry(dir: string): LoadedRegistry {
  return compileRegistry(readRegistry(dir))
}

let read: Map<string, Entry> | undefined
let ajv: Ajv2020 | undefined
/** Schemas compiled so far: each on its first validation (a --jobs worker compiles only those its partitions meet). */
const compiled = new Map<string, CompiledEntry>()

function schemas(): Map<string, Entry> {
  read ??= readRegistry(SCHEMAS_DIR)
  return read
}

/** Compiles every schema now (a no-op once done): a run calls it at start-up so a broken schema stops it there. */
export function compileSchemas(): void {
  for (const key of schemas().keys()) compiledEntry(key as SchemaKey)
}

function entry(key: SchemaKey): Entry {
  const found = schemas().get(key)
  // An unknown key is a bug of ours (a harness error), not a server fault.
  if (found === undefined) throw new Error(`No schema with key ${JSON.stringify(key)}; known keys: ${[...schemas().keys()].join(', ')}`)
  return found
}

function compiledEntry(key: SchemaKey): CompiledEntry {
  const done = compiled.get(key)
  if (done !== undefined) return done
  const found = entry(key)
  // Every schema is added (and checked against the meta-schema) before the first is compiled.
  ajv ??= addRegistry(schemas())
  const made = compileEntry(ajv, key, found)
  compiled.set(key, made)
  return made
}

export function hasSchema(key: string): key is SchemaKey {
  return schemas().has(key)
}

/** Every key, sorted. */
export function schemaKeys(): SchemaKey[] {
  return ([...schemas().keys()] as SchemaKey[]).sort()
}

/** The raw JSON Schema of a key (deep-frozen; the derived one for `lists/*`). */
export function getSchema(key: SchemaKey): Readonly<JsonSchema> {
  return entry(key).schema
}

function pointerToDotPath(pointer: string): string {
  if (pointer === '') return ''
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.')
}

function join(path: string, property: string): string {
  return path === '' ? property : `${path}.${property}`
}

function describe(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>
  switch (error.keyword) {
    case 'required':
      return 'is required'
    case 'enum':
      return `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}`
    default:
      return error.message ?? error.keyword
  }
}

function toIssues(errors: ErrorObject[]): SchemaIssue[] {
  // anyOf/oneOf (the §4.1 email fields): one issue naming every accepted alternative, not one per branch.
  const unions = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf')
  const branchesOf = (union: ErrorObject): ErrorObject[] =>
    errors.filter((e) => e !== union && e.schemaPath.startsWith(`${union.schemaPath}/`) && e.instancePath.startsWith(union.instancePath))
  const absorbed = new Set(unions.flatMap(branchesOf))
  const issues: SchemaIssue[] = []
  for (const error of errors) {
    if (absorbed.has(error)) continue
    let path = pointerToDotPath(error.instancePath)
    let message = describe(error)
    if (error.keyword === 'required') path = join(path, String((error.params as { missingProperty: string }).missingProperty))
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf') {
      const alternatives = [...new Set(branchesOf(error).map(describe))]
      if (alternatives.length > 0) message = alternatives.join(', or ')
    }
    issues.push({ path, message, keyword: error.keyword })
  }
  return issues
}

/** Validates a value; an empty array means valid. Its schema is compiled at its first call, so later calls are cheap. */
export function validate(key: SchemaKey, value: unknown): SchemaIssue[] {
  const { validate: fn } = compiledEntry(key)
  if (fn(value)) return []
  return toIssues(fn.errors ?? [])
}

/** Top-level properties of an object that its schema does not declare (information, never a failure). */
export function extraProperties(key: SchemaKey, value: unknown): string[] {
  const { known } = entry(key)
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return []
  return Object.keys(value).filter((k) => !known.has(k))
}
