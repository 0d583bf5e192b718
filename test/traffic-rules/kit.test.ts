// The kit picks the answers a rule declares: what each field of Judges lets through and what it turns down.
import { describe, expect, it } from 'vitest'
import { answerOf, type Judges, type Op } from '../../src/traffic/rules/kit.ts'
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
