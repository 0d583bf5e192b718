// The kit picks the answers a rule declares: what each field of Judges lets through and what it turns down.
import { describe, expect, it } from 'vitest'
import { answerOf, lightExchange, linkWhole, recordsOf, wholeBody, wholeOf, type Judges, type Op } from '../../src/traffic/rules/kit.ts'
import { resolveOperation } from '../../src/traffic/operation.ts'
import { account, exchange, page, quotation, uuid, type Spec } from './helpers.ts'

const RECORDS: Judges<Op> = { ops: ['get', 'create'], status: '2xx', wholeBody: true }

function picked(judges: Judges<Op>, spec: Spec, truncated = false): boolean {
  const e = exchange(spec)
  if (truncated) e.response!.truncated = true
  return answerOf(judges, e, resolveOperation(e, '/v1')!) !== undefined
}

describe('answerOf', () => {
  it.each([
    ['a get answered 200', RECORDS, { path: `/accounts/${uuid(1)}`, responseBody: account(1) }, true],
    ['a create answered 201', RECORDS, { method: 'POST', path: '/accounts', body: { name: 'A' }, status: 201, responseBody: account(1) }, true],
    ['another operation', RECORDS, { path: '/accounts', responseBody: page([]) }, false],
    ['another status', RECORDS, { path: `/accounts/${uuid(1)}`, status: 404 }, false],
    ['a HEAD, whose body is never whole', RECORDS, { method: 'HEAD', path: `/accounts/${uuid(1)}` }, false],
    ['no response', RECORDS, { path: `/accounts/${uuid(1)}`, noResponse: true }, false],
    ['/me, which has no §2 resource', { ops: ['me'], status: 200 }, { path: '/me', responseBody: {} }, true],
    ['a resource declared', { ops: ['get'], resources: ['quotation'] }, { path: `/quotations/${uuid(1)}`, responseBody: quotation(1, 'draft') }, true],
    ['a resource not declared', { ops: ['get'], resources: ['quotation'] }, { path: `/accounts/${uuid(1)}`, responseBody: account(1) }, false],
    ['any status when none is declared', { ops: ['get'] }, { path: `/accounts/${uuid(1)}`, status: 500 }, true],
    ['what `where` turns down', { ops: ['get'], where: () => false }, { path: `/accounts/${uuid(1)}`, responseBody: account(1) }, false],
  ] as [string, Judges<Op>, Spec, boolean][])('%s → picked: %s', (_what, judges, spec, expected) => {
    expect(picked(judges, spec)).toBe(expected)
  })

  it('turns down a body cut at the size cap only where the rule reads the body', () => {
    const spec = { path: `/accounts/${uuid(1)}`, responseBody: account(1) }
    expect(picked(RECORDS, spec, true)).toBe(false)
    expect(picked({ ops: ['get'], status: '2xx' }, spec, true)).toBe(true)
  })
})

describe('lightExchange: what the rules marked light read, and nothing heavier', () => {
  const lightOf = (spec: Spec) => {
    const e = exchange(spec)
    const operation = resolveOperation(e, '/v1')!
    return { e, operation, light: lightExchange(e, operation) }
  }

  it.each([
    ['a list page', { path: '/accounts?limit=2', responseBody: page([account(1), account(2), 'not a record'], 'c2') }],
    ['a get', { path: `/accounts/${uuid(1)}`, responseBody: account(1) }],
    ['a create', { method: 'POST', path: '/accounts', body: { name: 'A' }, status: 201, responseBody: account(3) }],
    ['a page without data', { path: '/accounts', responseBody: { items: [account(1)] } }],
    ['an answer that is not an object', { path: `/accounts/${uuid(1)}`, responseBody: 'text' }],
    ['an error', { path: '/accounts', status: 400, responseBody: { error: { code: 'invalid_request' } } }],
  ] as [string, Spec][])('%s: the records ids, status, headers and request line as the whole shows them', (_what, spec) => {
    const { e, operation, light } = lightOf(spec)
    expect(recordsOf(operation, light).map((r) => r.id)).toEqual(recordsOf(operation, e).map((r) => r.id))
    expect(light.response!.status).toBe(e.response!.status)
    expect(light.response!.headers).toEqual(e.response!.headers)
    expect([light.request.method, light.request.url, light.request.headers, light.startedAt, light.endedAt]).toEqual([
      e.request.method,
      e.request.url,
      e.request.headers,
      e.startedAt,
      e.endedAt,
    ])
    expect(light.request.body).toBeUndefined()
    // Structured-clonable: it crosses threads as it is.
    expect(structuredClone(light)).toEqual(light)
  })

  it("keeps a /me answer's body whole, and no other body than records' ids", () => {
    const me = lightOf({ path: '/me', responseBody: { key: { name: 'ci', scopes: ['accounts:read'] }, user: { id: uuid(9) } } })
    expect(wholeBody(me.light)).toEqual(wholeBody(me.e))
    const error = lightOf({ path: `/accounts/${uuid(1)}`, status: 404, responseBody: { error: { code: 'not_found' } } })
    expect(error.light.response!.body).toBeUndefined()
    const record = lightOf({ path: `/accounts/${uuid(1)}`, responseBody: account(1) })
    expect(record.light.response!.body).toEqual({ id: account(1).id })
  })

  it('leads to its whole exchange once linked (evidence shows the whole)', () => {
    const { e, light } = lightOf({ path: `/accounts/${uuid(1)}`, responseBody: account(1) })
    expect(wholeOf(light)).toBe(light)
    linkWhole(light, () => e)
    expect(wholeOf(light)).toBe(e)
    expect(Object.keys(light)).not.toContain('whole')
  })
})
