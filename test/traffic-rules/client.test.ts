import { describe, expect, it } from 'vitest'
import { bodyValid, idempotencyKeyReuse, keySent, limitInRange, retryAfterHonoured } from '../../src/traffic/rules/client.ts'
import { account, errorBody, exchange, judge, page } from './helpers.ts'

describe('traffic.client.key', () => {
  it('passes a masked bearer key, fails a call without Authorization on the client side', () => {
    expect(judge(keySent, [exchange({ path: '/accounts', responseBody: page([]) })]).status).toBe('passed')
    const row = judge(
      keySent,
      [exchange({ path: '/accounts', headers: { authorization: undefined }, status: 401, responseBody: errorBody('unauthorized') })].map((e) => ({
        ...e,
        request: { ...e.request, headers: {} },
      })),
    )
    expect(row.status).toBe('failed')
    expect(row.side).toBe('client')
  })
})

describe('traffic.client.body', () => {
  it('passes a valid create, fails a missing required field, a wrong type and an unlisted enum value', () => {
    expect(
      judge(bodyValid, [exchange({ method: 'POST', path: '/accounts', body: { name: 'Acme', email: '' }, status: 201, responseBody: account(1) })]).status,
    ).toBe('passed')
    for (const [path, body] of [
      ['/accounts', { legalName: 'x' }],
      ['/accounts', { name: 12 }],
      ['/tasks', { title: 't', priority: 'whenever' }],
    ] as const) {
      const row = judge(bodyValid, [exchange({ method: 'POST', path, body, status: 400, responseBody: errorBody('invalid_request') })])
      expect(row.status, JSON.stringify(body)).toBe('failed')
      expect(row.side).toBe('client')
    }
  })
})

describe('traffic.client.limit', () => {
  it('passes limit=100, fails limit=0, 101 and a fraction', () => {
    expect(judge(limitInRange, [exchange({ path: '/accounts?limit=100', responseBody: page([]) })]).status).toBe('passed')
    for (const limit of ['0', '101', '2.5'])
      expect(judge(limitInRange, [exchange({ path: `/accounts?limit=${limit}`, status: 400, responseBody: errorBody('invalid_request') })]).status).toBe(
        'failed',
      )
  })
})

describe('traffic.client.retry-after', () => {
  const refused = exchange({
    path: '/accounts',
    status: 429,
    responseBody: errorBody('rate_limited'),
    responseHeaders: { 'retry-after': '2', 'ratelimit-remaining': '0' },
    at: 0,
  })
  it('passes a retry after the wait, fails one sent before it elapsed', () => {
    expect(judge(retryAfterHonoured, [refused, exchange({ path: '/accounts', responseBody: page([]), at: 2_100 })]).status).toBe('passed')
    const row = judge(retryAfterHonoured, [refused, exchange({ path: '/accounts', responseBody: page([]), at: 500 })])
    expect(row.status).toBe('failed')
    expect(row.side).toBe('client')
  })
  it('does not judge another key', () => {
    expect(judge(retryAfterHonoured, [refused, exchange({ path: '/accounts', responseBody: page([]), at: 500, keyRole: 'restricted' })]).status).toBe('skipped')
  })
})

describe('traffic.client.idempotency-key-reuse', () => {
  const post = (body: unknown, at: number) =>
    exchange({ method: 'POST', path: '/accounts', body, headers: { 'idempotency-key': 'k-9' }, status: 201, responseBody: account(1), at })
  it('passes the same body again, fails a different body under the same key', () => {
    expect(judge(idempotencyKeyReuse, [post({ name: 'A' }, 0), post({ name: 'A' }, 100)]).status).toBe('passed')
    const row = judge(idempotencyKeyReuse, [post({ name: 'A' }, 0), post({ name: 'B' }, 100)])
    expect(row.status).toBe('failed')
    expect(row.side).toBe('client')
    expect(row.level).toBe('SHOULD')
  })
})

describe('CORS preflights in browser HAR files', () => {
  it('are no API calls: no key asked, no rate headers asked', async () => {
    const { rateHeaders } = await import('../../src/traffic/rules/responses.ts')
    const preflight = exchange({ method: 'OPTIONS', path: '/accounts', status: 204, responseHeaders: { 'ratelimit-limit': undefined } })
    const bare = { ...preflight, request: { ...preflight.request, headers: {} } }
    expect(judge(keySent, [bare]).status).toBe('skipped')
    expect(judge(rateHeaders, [bare]).status).toBe('skipped')
  })
})
