import { describe, expect, it } from 'vitest'
import {
  errorEnvelope,
  invalidRequest,
  jsonBodies,
  listSchema,
  meSchema,
  noServerErrors,
  rateHeaderForms,
  rateHeaders,
  recordSchema,
  tooManyRequests,
  unauthenticated,
  writeOnlyHidden,
} from '../../src/traffic/rules/responses.ts'
import { account, errorBody, exchange, judge, page, quotation, uuid } from './helpers.ts'

describe('traffic.record.schema', () => {
  it('passes a record as §2 lists it, fails one missing a field', () => {
    expect(judge(recordSchema, [exchange({ path: `/accounts/${uuid(1)}`, responseBody: account(1) })]).status).toBe('passed')
    const { name: _name, ...broken } = account(1)
    const row = judge(recordSchema, [exchange({ path: `/accounts/${uuid(1)}`, responseBody: broken })])
    expect(row.status).toBe('failed')
    expect(row.side).toBe('server')
    expect(row.message).toContain('name')
  })
  it('does not judge a write answered without a body (success codes are not shown)', () => {
    expect(judge(recordSchema, [exchange({ method: 'PATCH', path: `/accounts/${uuid(1)}`, body: { name: 'x' }, status: 204 })]).status).toBe('skipped')
  })
})

describe('traffic.list.schema', () => {
  it('passes { data, nextCursor }, fails a page without nextCursor', () => {
    expect(judge(listSchema, [exchange({ path: '/accounts', responseBody: page([account(1)]) })]).status).toBe('passed')
    expect(judge(listSchema, [exchange({ path: '/accounts', responseBody: { data: [account(1)] } })]).status).toBe('failed')
  })
})

describe('traffic.me.schema', () => {
  it('passes an object showing scopes, fails one without, fails an array', () => {
    expect(judge(meSchema, [exchange({ path: '/me', responseBody: { workspace: 'w', scopes: ['accounts:read'] } })]).status).toBe('passed')
    expect(judge(meSchema, [exchange({ path: '/me', responseBody: { workspace: 'w' } })]).status).toBe('failed')
    expect(judge(meSchema, [exchange({ path: '/me', responseBody: [] })]).status).toBe('failed')
  })
})

describe('traffic.error.envelope', () => {
  it('passes 401, 403, 404 and 429 with the envelope, fails a text 404', () => {
    const ok = [401, 403, 404, 429].map((status) => exchange({ path: `/accounts/${uuid(9)}`, status, responseBody: errorBody('x') }))
    expect(judge(errorEnvelope, ok).status).toBe('passed')
    expect(judge(errorEnvelope, [exchange({ path: `/accounts/${uuid(9)}`, status: 404, responseBody: { message: 'Not Found' } })]).status).toBe('failed')
  })
})

describe('traffic.error.invalid-request', () => {
  const invalid = { method: 'POST', path: '/accounts', body: { legalName: 'no name' } }
  it('passes a 400 invalid_request naming the missing field, in any notation', () => {
    expect(
      judge(invalidRequest, [exchange({ ...invalid, status: 400, responseBody: errorBody('invalid_request', [{ path: '/name', message: 'required' }]) })])
        .status,
    ).toBe('passed')
  })
  it('fails a 400 without details, another code, or the body accepted', () => {
    expect(judge(invalidRequest, [exchange({ ...invalid, status: 400, responseBody: errorBody('invalid_request') })]).status).toBe('failed')
    expect(judge(invalidRequest, [exchange({ ...invalid, status: 400, responseBody: errorBody('bad', [{ path: 'name', message: 'required' }]) })]).status).toBe(
      'failed',
    )
    const accepted = judge(invalidRequest, [exchange({ ...invalid, status: 201, responseBody: account(1) })])
    expect(accepted.status).toBe('failed')
    expect(accepted.side).toBe('server')
  })
  it('does not judge a valid body, nor an email whose syntax the spec leaves open', () => {
    expect(
      judge(invalidRequest, [
        exchange({ method: 'POST', path: '/accounts', body: { name: 'a', email: 'not an address' }, status: 201, responseBody: account(1) }),
      ]).status,
    ).toBe('skipped')
  })
})

describe('traffic.ratelimit.headers', () => {
  it('passes a response with the three headers, fails one without RateLimit-Reset, leaves a 503 alone', () => {
    expect(judge(rateHeaders, [exchange({ path: '/accounts', responseBody: page([]) })]).status).toBe('passed')
    const row = judge(rateHeaders, [exchange({ path: '/accounts', responseBody: page([]), responseHeaders: { 'ratelimit-reset': undefined } })])
    expect(row.status).toBe('failed')
    expect(row.message).toContain('ratelimit-reset')
    expect(judge(rateHeaders, [exchange({ path: '/accounts', status: 503, responseHeaders: { 'ratelimit-reset': undefined } })]).violations).toBe(0)
  })
})

describe('traffic.ratelimit.429-headers', () => {
  const refused = { path: '/accounts', status: 429, responseBody: errorBody('rate_limited') }
  it('passes Retry-After with Remaining 0, fails a 429 without Retry-After or with Remaining above 0', () => {
    expect(judge(tooManyRequests, [exchange({ ...refused, responseHeaders: { 'retry-after': '12', 'ratelimit-remaining': '0' } })]).status).toBe('passed')
    expect(judge(tooManyRequests, [exchange({ ...refused, responseHeaders: { 'ratelimit-remaining': '0' } })]).status).toBe('failed')
    expect(judge(tooManyRequests, [exchange({ ...refused, responseHeaders: { 'retry-after': '12', 'ratelimit-remaining': '3' } })]).status).toBe('failed')
  })
})

describe('traffic.response.json', () => {
  it('passes a JSON body labelled JSON, fails text/html and a body that is not JSON', () => {
    expect(
      judge(jsonBodies, [exchange({ path: '/accounts', responseBody: page([]), responseHeaders: { 'content-type': 'application/problem+json' } })]).status,
    ).toBe('passed')
    expect(judge(jsonBodies, [exchange({ path: '/accounts', responseBody: page([]), responseHeaders: { 'content-type': 'text/html' } })]).status).toBe('failed')
    expect(judge(jsonBodies, [exchange({ path: '/accounts', status: 404, responseBody: '<h1>Not Found</h1>' })]).status).toBe('failed')
  })
})

describe('traffic.record.write-only-hidden', () => {
  it('passes a quotation without its write-only fields, fails one showing notes, in a list too', () => {
    expect(judge(writeOnlyHidden, [exchange({ path: `/quotations/${uuid(1)}`, responseBody: quotation(1, 'draft') })]).status).toBe('passed')
    const row = judge(writeOnlyHidden, [exchange({ path: '/quotations', responseBody: page([quotation(1, 'draft', { notes: 'x' })]) })])
    expect(row.status).toBe('failed')
    expect(row.message).toContain('notes')
  })
})

describe('traffic.error.invalid-request on a body that is no JSON object', () => {
  it('accepts any code on the 400 (a parse error, §7.8), as validation.body.not-an-object does', () => {
    const row = judge(invalidRequest, [
      exchange({ method: 'POST', path: '/accounts', body: '{"name": "x", "tags": [', status: 400, responseBody: errorBody('malformed_json') }),
    ])
    expect(row.status).toBe('passed')
    expect(judge(invalidRequest, [exchange({ method: 'POST', path: '/accounts', body: ['x'], status: 500, responseBody: errorBody('boom') })]).status).toBe(
      'skipped',
    )
  })
})

describe('traffic.response.no-server-errors', () => {
  it('passes a 4xx, fails a 500 (SHOULD)', () => {
    expect(judge(noServerErrors, [exchange({ path: '/accounts?limit=0', status: 400, responseBody: errorBody('invalid_request') })]).status).toBe('passed')
    const row = judge(noServerErrors, [exchange({ path: '/accounts', status: 500, responseBody: errorBody('boom') })])
    expect([row.status, row.level, row.side]).toEqual(['failed', 'SHOULD', 'server'])
  })
})

describe('traffic.auth.unauthenticated', () => {
  const keyless = (status: number) => {
    const e = exchange({ path: '/accounts', status, responseBody: status === 200 ? page([]) : errorBody('x') })
    delete e.request.headers.authorization
    return e
  }
  it('passes 401 to a call without a key or with the revoked key; fails 403 or 200', () => {
    expect(judge(unauthenticated, [keyless(401), exchange({ path: '/me', status: 401, responseBody: errorBody('x'), keyRole: 'revoked' })]).status).toBe(
      'passed',
    )
    expect(judge(unauthenticated, [keyless(403)]).status).toBe('failed')
    expect(judge(unauthenticated, [exchange({ path: '/accounts', responseBody: page([]), keyRole: 'revoked' })]).status).toBe('failed')
  })
  it('leaves alone keyed calls, masked headers that may hold a key, and 429s', () => {
    expect(
      judge(unauthenticated, [
        exchange({ path: '/accounts', responseBody: page([]) }),
        exchange({ path: '/me', headers: { authorization: '<redacted>' }, status: 400, responseBody: errorBody('x') }),
        keyless(429),
      ]).status,
    ).toBe('skipped')
  })
})

describe('traffic.ratelimit.header-forms', () => {
  it('passes seconds and Unix times, fails an ISO reset and a Retry-After past the minute', () => {
    expect(
      judge(rateHeaderForms, [
        exchange({ path: '/me', responseBody: {} }),
        exchange({ path: '/me', responseBody: {}, responseHeaders: { 'ratelimit-reset': '1795000000' } }),
        exchange({ path: '/me', status: 429, responseBody: errorBody('x'), responseHeaders: { 'retry-after': '60', 'ratelimit-remaining': '0' } }),
      ]).status,
    ).toBe('passed')
    expect(judge(rateHeaderForms, [exchange({ path: '/me', responseBody: {}, responseHeaders: { 'ratelimit-reset': '2026-11-24T03:01:00Z' } })]).status).toBe(
      'failed',
    )
    expect(
      judge(rateHeaderForms, [
        exchange({ path: '/me', status: 429, responseBody: errorBody('x'), responseHeaders: { 'retry-after': '42000', 'ratelimit-remaining': '0' } }),
      ]).status,
    ).toBe('failed')
  })
})
