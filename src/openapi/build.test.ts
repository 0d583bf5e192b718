import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Validator } from '@seriousme/openapi-schema-validator'
import { Ajv2020 } from 'ajv/dist/2020.js'
import formatsModule from 'ajv-formats'
import { describe, expect, it } from 'vitest'
import { RECORD_EXAMPLES, WRITE_EXAMPLES } from '../schemas/examples.ts'
import { schemaKeys } from '../schemas/registry.ts'
import { RESOURCE_LIST, type OpName } from '../spec/resources.ts'
import { endpointTable } from '../../test/spec-tables.ts'
import { buildOpenApi, componentName, writeOpenApi } from './build.ts'

type Json = Record<string, any>
const doc = buildOpenApi() as Json

// §4.2 as the spec writes it, each operation under the method this document gives it (the spec shows the methods
// of list, get and create only; §4.1): path → method → scope.
const METHOD_OF: Record<OpName, string> = { list: 'get', get: 'get', create: 'post', update: 'patch', replace: 'put', delete: 'delete' }
const TABLE: [string, Record<string, string>][] = endpointTable().map(({ path, operations }) => [
  path,
  Object.fromEntries(operations.map(({ op, scope }) => [METHOD_OF[op], scope])),
])
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']

function resolvePointer(root: Json, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined
  return ref
    .slice(2)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, part) => (node !== null && typeof node === 'object' ? (node as Json)[part] : undefined), root)
}

function collectRefs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const v of node) collectRefs(v, out)
  else if (node !== null && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.push(v)
      else collectRefs(v, out)
    }
  }
  return out
}

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator()
    const result = await validator.validate(structuredClone(doc))
    expect(result.errors).toBeUndefined()
    expect(result.valid).toBe(true)
    expect(validator.version).toBe('3.1')
  })

  it('has every §4.2 path with its operations and scopes, and nothing else', () => {
    expect(Object.keys(doc.paths).sort()).toEqual(TABLE.map(([p]) => p).sort())
    for (const [path, methods] of TABLE) {
      const item = doc.paths[path]
      expect(
        Object.keys(item)
          .filter((k) => HTTP_METHODS.includes(k))
          .sort(),
        path,
      ).toEqual(Object.keys(methods).sort())
      for (const [method, scope] of Object.entries(methods)) {
        expect(item[method].security, `${method} ${path}`).toEqual([{ apiKey: scope === '' ? [] : [scope] }])
      }
    }
  })

  it('uses a bearer security scheme', () => {
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' })
  })

  it('every $ref resolves inside the document', () => {
    const refs = collectRefs(doc)
    expect(refs.length).toBeGreaterThan(100)
    for (const ref of new Set(refs)) expect(resolvePointer(doc, ref), ref).toBeDefined()
  })

  it('embeds every registry schema as a component', () => {
    expect(Object.keys(doc.components.schemas).sort()).toEqual(schemaKeys().map(componentName).sort())
    expect(JSON.stringify(doc.components.schemas)).not.toContain('"$id"')
    expect(JSON.stringify(doc.components.schemas)).not.toContain('crm-conformance.dev')
  })

  it('lists take the common parameters of §4.1 and the §4.3 filters', () => {
    for (const r of RESOURCE_LIST) {
      const op = doc.paths[r.path].get
      const names = op.parameters.map((p: Json) => (p.$ref ? (resolvePointer(doc, p.$ref) as Json) : p).name)
      expect(names, r.name).toEqual(['limit', 'cursor', 'sort', 'order', 'createdSince', 'updatedSince', ...r.filters.map((f) => f.param)])
      expect(op.responses['2XX'].content['application/json'].schema).toEqual({ $ref: `#/components/schemas/lists.${r.name}` })
    }
    expect(doc.components.parameters.limit.schema).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 25 })
    const statusFilter = doc.paths['/opportunities'].get.parameters.find((p: Json) => p.name === 'status')
    expect(statusFilter.schema).toEqual({ type: 'string', enum: ['open', 'won', 'lost'] })
  })

  it('creates take an Idempotency-Key header and their write body', () => {
    for (const r of RESOURCE_LIST.filter((x) => x.ops.create)) {
      const op = doc.paths[r.path].post
      expect(op.parameters).toEqual([{ $ref: '#/components/parameters/IdempotencyKey' }])
      expect(op.requestBody.content['application/json'].schema).toEqual({ $ref: `#/components/schemas/writes.${r.name}.create` })
    }
    expect(doc.components.parameters.IdempotencyKey).toMatchObject({ name: 'Idempotency-Key', in: 'header', required: false })
  })

  it('errors use the §7.1 envelope; 429 carries the rate headers and Retry-After', () => {
    for (const name of ['Unauthorized', 'Forbidden', 'NotFound', 'TooManyRequests']) {
      expect(doc.components.responses[name].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/error' })
    }
    // §7.3: the 400 is the envelope with code invalid_request and details.
    const badRequest = doc.components.responses.BadRequest.content['application/json'].schema
    expect(badRequest.allOf[0]).toEqual({ $ref: '#/components/schemas/error' })
    expect(badRequest.allOf[1].properties.error).toMatchObject({ required: ['code'], properties: { details: { minItems: 1 } } })
    // §8: the rate headers on every response, Retry-After on every 429.
    for (const name of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After'])
      expect(doc.components.headers[name].required, name).toBe(true)
    expect(Object.keys(doc.components.responses.TooManyRequests.headers).sort()).toEqual([
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'Retry-After',
    ])
    const get = doc.paths['/accounts/{id}'].get
    for (const status of ['401', '403', '404', '429']) expect(get.responses[status], status).toBeDefined()
    // §5.6 the IP allowlist refuses /me too; §4.3 leaves a filter or a create naming a missing parent open (404 allowed).
    expect(doc.paths['/me'].get.responses['403']).toBeDefined()
    for (const op of [doc.paths['/accounts'].get, doc.paths['/comments'].post]) expect(op.responses['404']).toBeDefined()
  })

  it('says as much of the 400 and the rate headers as the spec does, and no more', () => {
    const ajv = new Ajv2020({ strict: false })
    formatsModule.default(ajv)
    ajv.addSchema({ $id: 'https://openapi.test/doc400.json', components: doc.components })
    const badRequest = ajv.compile({ $ref: 'https://openapi.test/doc400.json#/components/responses/BadRequest/content/application~1json/schema' })
    expect(badRequest({ error: { code: 'invalid_request', message: 'm', details: [{ path: 'name', message: 'm' }] } })).toBe(true)
    expect(badRequest({ error: { code: 'invalid_request', message: 'm', details: [] } })).toBe(false)
    // A state refusal's 400 (§7.8: not shown): another code, or invalid_request without details (alt-b).
    expect(badRequest({ error: { code: 'invalid_state', message: 'm' } })).toBe(true)
    expect(badRequest({ error: { code: 'invalid_request', message: 'm' } })).toBe(true)
    const header = (name: string) => new RegExp(doc.components.headers[name].schema.pattern)
    expect(['600', '600, 600;w=60'].every((v) => header('RateLimit-Limit').test(v))).toBe(true)
    expect(header('RateLimit-Limit').test('lots')).toBe(false)
    expect(['60', '1767225600'].every((v) => header('RateLimit-Reset').test(v))).toBe(true)
    expect(header('RateLimit-Reset').test('2026-01-01T00:00:00Z')).toBe(false)
    expect(['2', 'Wed, 21 Oct 2026 07:28:00 GMT'].every((v) => header('Retry-After').test(v))).toBe(true)
    expect(header('Retry-After').test('soon')).toBe(false)
    expect(doc.components.responses.TooManyRequests.headers['RateLimit-Remaining']).toEqual({ $ref: '#/components/headers/RateLimit-Remaining-Spent' })
    expect(header('RateLimit-Remaining-Spent').test('0')).toBe(true)
    expect(header('RateLimit-Remaining-Spent').test('3')).toBe(false)
  })

  it('says where the method is conventional', () => {
    expect(doc.paths['/accounts/{id}'].patch.description).toMatch(/does not show the method/)
    expect(doc.paths['/quotations/{id}'].put.description).toMatch(/does not show the method/)
    expect(doc.paths['/accounts/{id}'].delete.description).toMatch(/recycle bin/)
    expect(doc.info.description).toMatch(/PATCH, PUT and DELETE/)
  })

  it('its embedded schemas mean what the registry schemas mean', () => {
    // A separate, non-strict instance only to evaluate the document's components (tests only).
    const ajv = new Ajv2020({ strict: false })
    formatsModule.default(ajv)
    ajv.addSchema({ $id: 'https://openapi.test/doc.json', components: doc.components })
    const check = (name: string, value: unknown): boolean => ajv.getSchema(`https://openapi.test/doc.json#/components/schemas/${name}`)!(value) as boolean
    expect(check('lists.account', { data: [RECORD_EXAMPLES.account], nextCursor: '' })).toBe(true)
    expect(check('lists.account', { data: [RECORD_EXAMPLES.account], nextCursor: null })).toBe(false)
    expect(check('lists.account', { data: [{ ...RECORD_EXAMPLES.account, id: 'x' }], nextCursor: '' })).toBe(false)
    expect(check('writes.account.create', WRITE_EXAMPLES['account.create'])).toBe(true)
    expect(check('writes.account.create', { name: 'x', email: 'nope' })).toBe(false)
  })

  it('writeOpenApi writes the same document', () => {
    const dir = mkdtempSync(join(tmpdir(), 'crmconf-openapi-'))
    try {
      const file = join(dir, 'nested', 'openapi.json')
      writeOpenApi(file)
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(doc)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
