import { describe, expect, it } from 'vitest'
import {
  foreignRecordHidden,
  limitEnforced,
  meShowsParts,
  scopeEnforced,
  scopesShown,
  updateKeepsUnsent,
  walkSkipsNothing,
} from '../../src/traffic/rules/remembered.ts'
import { account, errorBody, exchange, iso, judge, page, uuid } from './helpers.ts'

describe('scopesShown', () => {
  it('reads a list, a string or a map, and gives up on words that say more than a scope', () => {
    expect([...scopesShown({ key: { scopes: ['accounts:read', 'contacts:write'] } })!]).toEqual(['accounts:read', 'contacts:write'])
    expect([...scopesShown({ scopes: 'accounts:read leads:read' })!]).toEqual(['accounts:read', 'leads:read'])
    expect(scopesShown({ scopes: ['accounts:read', '*'] })).toBeUndefined()
    expect(scopesShown({ scope: 'full_access' })).toBeUndefined()
    expect(scopesShown({ workspace: 'w' })).toBeUndefined()
  })
})

describe('traffic.auth.scope-enforced', () => {
  const me = exchange({ path: '/me', responseBody: { scopes: ['accounts:read', 'contacts:write'] }, keyRole: 'restricted', at: 0 })
  const call = (method: string, path: string, status: number, at = 100) =>
    exchange({ method, path, status, keyRole: 'restricted', at, ...(method === 'POST' ? { body: { name: 'P', sku: 'P-1', priceSen: 1 } } : {}) })
  it('fails a write outside the scopes /me showed answered 2xx, passes the 403', () => {
    const row = judge(scopeEnforced, [me, call('POST', '/products', 201)])
    expect(row.status).toBe('failed')
    expect(row.side).toBe('server')
    expect(judge(scopeEnforced, [me, call('POST', '/products', 403)]).status).toBe('passed')
  })
  it('does not judge a scope the key holds (a write scope for a read too), a 400 or 404 first, another key, or a stale /me', () => {
    expect(judge(scopeEnforced, [me, call('GET', '/accounts', 200)]).status).toBe('skipped')
    expect(judge(scopeEnforced, [me, call('GET', '/contacts', 200)]).status).toBe('skipped')
    expect(judge(scopeEnforced, [me, call('POST', '/products', 400)]).status).toBe('skipped')
    expect(judge(scopeEnforced, [me, exchange({ method: 'POST', path: '/products', body: {}, status: 201 })]).status).toBe('skipped')
    expect(judge(scopeEnforced, [me, call('POST', '/products', 201, 11 * 60_000)]).status).toBe('skipped')
  })
})

describe('traffic.auth.foreign-record-hidden', () => {
  const shown = exchange({ path: `/accounts/${uuid(1)}`, responseBody: account(1), keyRole: 'main', at: 0 })
  const foreign = (status: number, at = 100, path = `/accounts/${uuid(1)}`) =>
    exchange({ path, status, keyRole: 'foreign', at, responseBody: status === 200 ? account(1) : errorBody('x') })
  it('passes 404, fails 2xx, fails 403 once the foreign key reads the collection', () => {
    expect(judge(foreignRecordHidden, [shown, foreign(404)]).status).toBe('passed')
    expect(judge(foreignRecordHidden, [shown, foreign(200)]).status).toBe('failed')
    expect(judge(foreignRecordHidden, [shown, foreign(403)]).status).toBe('skipped')
    const reads = exchange({ path: '/accounts?limit=3', responseBody: page([]), keyRole: 'foreign', at: 50 })
    expect(judge(foreignRecordHidden, [shown, reads, foreign(403)]).status).toBe('failed')
  })
  it('does not judge keys the configuration does not name', () => {
    const unnamed = exchange({ path: `/accounts/${uuid(1)}`, responseBody: account(1), keyRole: 'key#1', at: 100 })
    expect(judge(foreignRecordHidden, [shown, unnamed]).status).toBe('skipped')
  })
})

describe('traffic.records.update-keeps-unsent', () => {
  const before = exchange({ path: `/accounts/${uuid(1)}`, responseBody: account(1, { email: 'a@b.example', tags: ['x'] }), at: 0 })
  const patch = (record: Record<string, unknown>, at = 100) =>
    exchange({ method: 'PATCH', path: `/accounts/${uuid(1)}`, body: { industry: 'Retail' }, responseBody: record, at })
  it('fails an update whose answer cleared a field it did not send, passes one that kept them', () => {
    expect(judge(updateKeepsUnsent, [before, patch(account(1, { industry: 'Retail', email: 'a@b.example', tags: ['x'] }))]).status).toBe('passed')
    const row = judge(updateKeepsUnsent, [before, patch(account(1, { industry: 'Retail', email: null, tags: [] }))])
    expect(row.status).toBe('failed')
    expect(row.message).toContain('email')
  })
  it('does not judge without a fresh before-state, or a field the server may recompute (a value changed, not cleared)', () => {
    expect(judge(updateKeepsUnsent, [before, patch(account(1, { email: null }), 120_000)]).status).toBe('skipped')
    expect(judge(updateKeepsUnsent, [before, patch(account(1, { email: 'other@b.example', tags: ['x'] }))]).status).toBe('passed')
    const replaced = exchange({ method: 'DELETE', path: `/accounts/${uuid(1)}`, status: 204, at: 50 })
    expect(judge(updateKeepsUnsent, [before, replaced, patch(account(1, { email: null }))]).status).toBe('skipped')
  })
})

describe('traffic.list.walk-skips-nothing', () => {
  const records = [1, 2, 3, 4, 5].map((n) => account(n))
  const listing = exchange({ path: '/accounts?limit=100', responseBody: page(records), at: 0 })
  const first = exchange({ path: '/accounts?limit=2', responseBody: page(records.slice(0, 2), 'c1'), at: 100 })
  it('fails a next page that skips the boundary record, passes the contiguous one', () => {
    const next = (from: number) => exchange({ path: '/accounts?limit=2&cursor=c1', responseBody: page(records.slice(from, from + 2), 'c2'), at: 200 })
    expect(judge(walkSkipsNothing, [listing, first, next(2)]).status).toBe('passed')
    const row = judge(walkSkipsNothing, [listing, first, next(3)])
    expect(row.status).toBe('failed')
    expect(row.message).toContain(uuid(3))
  })
  it('does not judge ties, a walk with filters, or a walk after a write', () => {
    const tied = records.map((r) => ({ ...r, createdAt: iso(0) }))
    const tiedListing = exchange({ path: '/accounts?limit=100', responseBody: page(tied), at: 0 })
    const tiedFirst = exchange({ path: '/accounts?limit=2', responseBody: page(tied.slice(0, 2), 'c1'), at: 100 })
    const tiedNext = exchange({ path: '/accounts?limit=2&cursor=c1', responseBody: page(tied.slice(3, 5)), at: 200 })
    expect(judge(walkSkipsNothing, [tiedListing, tiedFirst, tiedNext]).status).toBe('passed')
    const write = exchange({ method: 'POST', path: '/accounts', body: { name: 'N' }, status: 201, responseBody: account(9), at: 150 })
    expect(
      judge(walkSkipsNothing, [listing, first, write, exchange({ path: '/accounts?limit=2&cursor=c1', responseBody: page(records.slice(3, 5)), at: 200 })])
        .status,
    ).toBe('skipped')
  })
})

describe('traffic.ratelimit.limit-enforced', () => {
  const headers = (remaining: number) => ({ 'ratelimit-limit': '3', 'ratelimit-remaining': String(remaining), 'ratelimit-reset': '60' })
  const call = (remaining: number, at: number, status = 200) =>
    exchange({
      path: '/me',
      status,
      responseBody: status === 429 ? errorBody('rate_limited') : {},
      responseHeaders: headers(remaining),
      at,
      keyRole: 'rateLimited',
    })
  it('fails a 2xx after Remaining 0 that no limiter could admit, passes the 429', () => {
    expect(judge(limitEnforced, [call(2, 0), call(1, 10), call(0, 20), call(0, 30, 429)]).status).toBe('passed')
    const row = judge(limitEnforced, [call(2, 0), call(1, 10), call(0, 20), call(0, 30)])
    expect(row.status).toBe('failed')
    expect(row.side).toBe('server')
  })
  it('does not judge when the traffic does not show the minute full (a sliding log may admit it) or a token could refill', () => {
    expect(judge(limitEnforced, [call(0, 20), call(0, 30)]).status).toBe('skipped')
    expect(judge(limitEnforced, [call(2, 0), call(1, 10), call(0, 20), call(0, 25_000)]).status).toBe('skipped')
  })
})

describe('traffic.me.shows-parts', () => {
  const users = exchange({ path: '/users?limit=100', responseBody: page([{ id: uuid(7) }]), at: 100 })
  const me = (body: Record<string, unknown>) => exchange({ path: '/me', responseBody: body, at: 0 })
  it("passes a /me with the key's name and the user in any shape, fails one without the name", () => {
    expect(judge(meShowsParts, [me({ key: { name: 'Sync', scopes: [] }, user: { id: uuid(7) } }), users]).status).toBe('passed')
    // The user only as an id under a field of its own name, found among the users the same key listed.
    expect(judge(meShowsParts, [me({ name: 'Sync', actingAs: uuid(7) }), users]).status).toBe('passed')
    expect(judge(meShowsParts, [me({ key: { id: uuid(3), scopes: [] }, user: { id: uuid(7) } })]).status).toBe('failed')
  })
  it('fails a /me with no user once the same key listed the users whole, and does not judge it otherwise', () => {
    const noUser = me({ name: 'Sync', key: { scopes: [] }, ref: uuid(9) })
    expect(judge(meShowsParts, [noUser, users]).status).toBe('failed')
    expect(judge(meShowsParts, [noUser]).status).toBe('passed')
    const partial = exchange({ path: '/users?limit=1', responseBody: page([{ id: uuid(7) }], 'more'), at: 100 })
    expect(judge(meShowsParts, [noUser, partial]).status).toBe('passed')
  })
})
