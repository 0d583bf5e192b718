import { describe, expect, it } from 'vitest'
import {
  createdDraft,
  draftOnly,
  goneAfterDelete,
  idempotentReplay,
  orderFromAccepted,
  readAfterWrite,
  remainingNeverRises,
} from '../../src/traffic/rules/sequences.ts'
import { account, errorBody, exchange, judge, quotation, uuid } from './helpers.ts'

const create = (at: number, responseBody: unknown, key = 'k-1', body: unknown = { name: 'Acme' }, status = 201) =>
  exchange({ method: 'POST', path: '/accounts', body, headers: { 'idempotency-key': key }, status, responseBody, at })

describe('traffic.idempotency.replay', () => {
  it('passes a replay answered with the first response (a date-time re-serialised)', () => {
    const first = account(1, { name: 'Acme' })
    const again = { ...first, createdAt: (first.createdAt as string).replace('.000Z', 'Z') }
    expect(judge(idempotentReplay, [create(0, first), create(100, again)]).status).toBe('passed')
  })
  it('fails a replay that made a second record, or answered another status', () => {
    const second = judge(idempotentReplay, [create(0, account(1, { name: 'Acme' })), create(100, account(2, { name: 'Acme' }))])
    expect(second.status).toBe('failed')
    expect(second.side).toBe('server')
    expect(second.message).toContain('a second record')
    expect(judge(idempotentReplay, [create(0, account(1)), create(100, account(1), 'k-1', { name: 'Acme' }, 200)]).status).toBe('failed')
  })
  it('does not judge a retry sent before the first was answered, nor a different body', () => {
    expect(judge(idempotentReplay, [create(0, account(1)), create(2, account(2))]).status).toBe('skipped')
    expect(judge(idempotentReplay, [create(0, account(1)), create(100, account(2), 'k-1', { name: 'Other' })]).status).toBe('skipped')
  })
})

describe('traffic.records.read-after-write', () => {
  const path = `/accounts/${uuid(1)}`
  it('passes a read holding what was written, by meaning (email case, tags added)', () => {
    const row = judge(readAfterWrite, [
      exchange({
        method: 'PATCH',
        path,
        body: { email: 'Ana@Example.com', tags: ['a'] },
        responseBody: account(1, { email: 'ana@example.com', tags: ['a'] }),
        at: 0,
      }),
      exchange({ path, responseBody: account(1, { email: 'ana@example.com', tags: ['a', 'vip'] }), at: 100 }),
    ])
    expect(row.status).toBe('passed')
  })
  it('fails a read that lost a written field', () => {
    const row = judge(readAfterWrite, [
      exchange({
        method: 'POST',
        path: '/accounts',
        body: { name: 'Acme', tier: 'gold' },
        status: 201,
        responseBody: account(1, { name: 'Acme', tier: 'gold' }),
        at: 0,
      }),
      exchange({ path, responseBody: account(1, { name: 'Acme', tier: null }), at: 100 }),
    ])
    expect(row.status).toBe('failed')
    expect(row.message).toContain('tier')
  })
  it('fails a write answered with the record as it was before, leaves an Idempotency-Key replay alone', () => {
    expect(judge(readAfterWrite, [exchange({ method: 'PATCH', path, body: { name: 'New' }, responseBody: account(1, { name: 'Old' }) })]).status).toBe('failed')
    const keyed = (at: number, name: string) =>
      exchange({
        method: 'POST',
        path: '/accounts',
        headers: { 'idempotency-key': 'k-1' },
        body: { name },
        status: 201,
        responseBody: account(1, { name: 'First' }),
        at,
      })
    expect(judge(readAfterWrite, [keyed(0, 'Other'), exchange({ path, responseBody: account(1, { name: 'First' }), at: 100 })]).status).toBe('skipped')
  })
  it('leaves the fields routing fills on create alone when sent null', () => {
    const lead = { method: 'POST', path: '/leads', body: { fullName: 'L', ownerId: null }, status: 201, at: 0 }
    const record = { id: uuid(5), fullName: 'L', ownerId: uuid(6) }
    expect(
      judge(readAfterWrite, [exchange({ ...lead, responseBody: record }), exchange({ path: `/leads/${uuid(5)}`, responseBody: record, at: 100 })]).status,
    ).toBe('passed')
  })
})

describe('traffic.state.draft-only', () => {
  const path = `/quotations/${uuid(1)}`
  it('passes a replace of a draft and a refused delete of a sent quotation', () => {
    expect(
      judge(draftOnly, [
        exchange({ path, responseBody: quotation(1, 'draft'), at: 0 }),
        exchange({ method: 'PUT', path, body: { title: 'x' }, responseBody: quotation(1, 'draft'), at: 100 }),
        exchange({ path, responseBody: quotation(1, 'sent'), at: 200 }),
        exchange({ method: 'DELETE', path, status: 409, responseBody: { error: { code: 'conflict', message: 'm' } }, at: 300 }),
      ]).status,
    ).toBe('passed')
  })
  it('fails a delete accepted on a quotation last seen sent', () => {
    const row = judge(draftOnly, [
      exchange({ path: '/quotations', responseBody: { data: [quotation(1, 'sent')], nextCursor: '' }, at: 0 }),
      exchange({ method: 'DELETE', path, status: 204, at: 100 }),
    ])
    expect(row.status).toBe('failed')
    expect(row.evidence).toHaveLength(2)
  })
})

describe('traffic.state.order-from-accepted', () => {
  it('fails an order created from a quotation just seen as a draft, passes a refused one', () => {
    const seen = exchange({ path: `/quotations/${uuid(1)}`, responseBody: quotation(1, 'draft'), at: 0 })
    const order = (status: number) =>
      exchange({
        method: 'POST',
        path: '/orders',
        body: { quoteId: uuid(1) },
        status,
        responseBody: status < 300 ? { id: uuid(2) } : { error: { code: 'invalid_request', message: 'm' } },
        at: 100,
      })
    expect(judge(orderFromAccepted, [seen, order(201)]).status).toBe('failed')
    expect(judge(orderFromAccepted, [seen, order(400)]).status).toBe('passed')
  })
  it('does not judge a quotation seen only in a list, which may lag', () => {
    const listed = exchange({ path: '/quotations', responseBody: { data: [quotation(1, 'draft')], nextCursor: '' }, at: 0 })
    expect(
      judge(orderFromAccepted, [
        listed,
        exchange({ method: 'POST', path: '/orders', body: { quoteId: uuid(1) }, status: 201, responseBody: { id: uuid(2) }, at: 100 }),
      ]).status,
    ).toBe('skipped')
  })
})

describe('traffic.ratelimit.remaining-never-rises', () => {
  // Fixed window announcing its reset as a Unix time: the same instant on both responses.
  const reset = String(Math.floor(Date.parse('2026-11-24T03:01:00Z') / 1000))
  const call = (at: number, remaining: number, headers: Record<string, string> = {}) =>
    exchange({
      path: '/accounts',
      responseBody: { data: [], nextCursor: '' },
      at,
      responseHeaders: { 'ratelimit-limit': '100', 'ratelimit-remaining': String(remaining), 'ratelimit-reset': reset, ...headers },
    })
  it('passes a Remaining that goes down, and a rise a refill explains', () => {
    expect(judge(remainingNeverRises, [call(0, 90), call(10_000, 80)]).status).toBe('passed')
    expect(judge(remainingNeverRises, [call(0, 10), call(10_000, 20)]).status).toBe('passed')
  })
  it('fails a Remaining that jumps back up within the same window', () => {
    const row = judge(remainingNeverRises, [call(0, 10), call(10_000, 60)])
    expect(row.status).toBe('failed')
    expect(row.side).toBe('server')
  })
  it('compares with the first response of the window when the last ones are too close to tell', () => {
    const busy = Array.from({ length: 12 }, (_, i) => call(i * 50, 40 - i))
    expect(judge(remainingNeverRises, [...busy, call(700, 90)]).status).toBe('skipped')
    expect(judge(remainingNeverRises, [...busy, call(10_000, 90)]).status).toBe('failed')
  })
  it('does not compare a sliding reset, overlapping requests, or two keys it cannot tell apart', () => {
    const sliding = (at: number, remaining: number) => call(at, remaining, { 'ratelimit-reset': '60' })
    expect(judge(remainingNeverRises, [sliding(0, 10), sliding(10_000, 60)]).status).toBe('skipped')
    expect(judge(remainingNeverRises, [exchange({ path: '/me', at: 0, duration: 20_000 }), call(10_000, 60)]).status).toBe('skipped')
    const anonymous = { authorization: 'Bearer <redacted>' }
    expect(
      judge(
        remainingNeverRises,
        [call(0, 10, {}), call(10_000, 60)].map((e) => ({ ...e, request: { ...e.request, headers: anonymous } })),
      ).status,
    ).toBe('skipped')
  })
})

describe('traffic.state.created-draft', () => {
  it('passes a quotation created as a draft, fails one created sent, leaves a create without a body alone', () => {
    expect(judge(createdDraft, [exchange({ method: 'POST', path: '/quotations', body: {}, status: 201, responseBody: quotation(1, 'draft') })]).status).toBe(
      'passed',
    )
    expect(judge(createdDraft, [exchange({ method: 'POST', path: '/quotations', body: {}, status: 201, responseBody: quotation(1, 'sent') })]).status).toBe(
      'failed',
    )
    expect(judge(createdDraft, [exchange({ method: 'POST', path: '/quotations', body: {}, status: 204 })]).status).toBe('skipped')
  })
})

describe('traffic.records.gone-after-delete', () => {
  const id = uuid(7)
  it('passes 404 after a delete, fails 200, leaves a get sent during the delete and a keyless 401 alone', () => {
    expect(
      judge(goneAfterDelete, [
        exchange({ method: 'DELETE', path: `/accounts/${id}`, status: 204, at: 0 }),
        exchange({ path: `/accounts/${id}`, status: 404, responseBody: errorBody('not_found'), at: 10 }),
      ]).status,
    ).toBe('passed')
    expect(
      judge(goneAfterDelete, [
        exchange({ method: 'DELETE', path: `/accounts/${id}`, status: 204, at: 0 }),
        exchange({ path: `/accounts/${id}`, responseBody: account(7), at: 10 }),
      ]).status,
    ).toBe('failed')
    expect(
      judge(goneAfterDelete, [
        exchange({ method: 'DELETE', path: `/accounts/${id}`, status: 204, at: 0, duration: 20 }),
        exchange({ path: `/accounts/${id}`, responseBody: account(7), at: 10 }),
        exchange({ path: `/accounts/${id}`, status: 401, responseBody: errorBody('x'), at: 30 }),
      ]).status,
    ).toBe('skipped')
  })
})
