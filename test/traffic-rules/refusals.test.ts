import { describe, expect, it } from 'vitest'
import { detailsEachField, listNotFound, nothingToRefuse } from '../../src/traffic/rules/refusals.ts'
import { account, errorBody, exchange, judge, page, uuid } from './helpers.ts'

const refused400 = (path: string, at?: number) =>
  exchange({ path, status: 400, responseBody: errorBody('invalid_request'), ...(at !== undefined ? { at } : {}) })

describe('traffic.refusal.nothing-invalid', () => {
  it('fails a 400 to /me, to a record by uuid, to a list whose every parameter is accepted', () => {
    for (const path of [
      '/me',
      `/accounts/${uuid(1)}`,
      '/accounts?limit=10&sort=updatedAt&order=asc',
      '/messages?direction=system',
      `/accounts?ownerId=${uuid(2)}`,
    ]) {
      const row = judge(nothingToRefuse, [refused400(path)])
      expect(row.status, path).toBe('failed')
      expect(row.side).toBe('server')
    }
  })
  it('does not judge what §7.3 could name or the spec leaves open', () => {
    for (const path of [
      '/accounts/not-a-uuid',
      '/accounts?limit=0',
      '/accounts?tier=gold',
      '/messages?direction=sideways',
      '/me?x=1',
      '/accounts?limit=5&limit=6',
      '/accounts?cursor=abc',
    ])
      expect(judge(nothingToRefuse, [refused400(path)]).status, path).toBe('skipped')
  })
  it('fails a 400 to the cursor this key was just handed for the same query, not to another query or key', () => {
    const first = exchange({ path: '/accounts?limit=2', responseBody: page([account(1), account(2)], 'c-1'), at: 0 })
    expect(judge(nothingToRefuse, [first, refused400('/accounts?limit=2&cursor=c-1', 100)]).status).toBe('failed')
    expect(judge(nothingToRefuse, [first, refused400('/accounts?limit=3&cursor=c-1', 100)]).status).toBe('passed')
    const other = exchange({ path: '/accounts?limit=2&cursor=c-1', status: 400, responseBody: errorBody('invalid_request'), at: 100, keyRole: 'restricted' })
    expect(judge(nothingToRefuse, [first, other]).status).toBe('passed')
    // Long after: the cursor may have expired (§4.1 shows no lifetime).
    expect(judge(nothingToRefuse, [first, refused400('/accounts?limit=2&cursor=c-1', 120_000)]).status).toBe('passed')
  })
  it('passes a 401 for a key that is not valid and a 200 list', () => {
    expect(judge(nothingToRefuse, [exchange({ path: '/me', status: 401, responseBody: errorBody('unauthorized') })]).status).toBe('passed')
    expect(judge(nothingToRefuse, [exchange({ path: '/accounts?limit=5', responseBody: page([]) })]).status).toBe('passed')
  })
})

describe('traffic.refusal.list-not-404', () => {
  const listed = exchange({ path: '/accounts?limit=100', responseBody: page([account(1, { ownerId: uuid(9) })]), at: 0 })
  const notFound = (path: string) => exchange({ path, status: 404, responseBody: errorBody('not_found'), at: 100 })
  it('fails a 404 to a filtered list of a collection the key was just listed', () => {
    expect(judge(listNotFound, [listed, notFound('/accounts?email=nobody%40x.example&limit=1')]).status).toBe('failed')
    // A uuid filter naming a record the traffic showed: the parent exists.
    expect(judge(listNotFound, [listed, notFound(`/contacts?accountId=${uuid(1)}`)]).status).toBe('skipped')
    const contacts = exchange({ path: '/contacts?limit=1', responseBody: page([]), at: 50 })
    expect(judge(listNotFound, [listed, contacts, notFound(`/contacts?accountId=${uuid(1)}`)]).status).toBe('failed')
  })
  it('does not judge a uuid filter naming a record never shown (§4.3 leaves an unknown parent open), nor a cursor', () => {
    expect(judge(listNotFound, [listed, notFound(`/accounts?ownerId=${uuid(7)}`)]).status).toBe('skipped')
    expect(judge(listNotFound, [listed, notFound('/accounts?cursor=zz')]).status).toBe('skipped')
  })
  it('passes an empty page', () => {
    expect(judge(listNotFound, [listed, exchange({ path: '/accounts?tier=none', responseBody: page([]), at: 100 })]).status).toBe('passed')
  })
})

describe('traffic.error.details-each-field', () => {
  const post = (details: { path: string; message: string }[]) =>
    exchange({ method: 'POST', path: '/contacts', body: { email: 12, tags: 'vip' }, status: 400, responseBody: errorBody('invalid_request', details) })
  it('passes details naming each field at fault, fails details naming only the first', () => {
    const both = [
      { path: 'email', message: 'm' },
      { path: '/tags', message: 'm' },
    ]
    expect(judge(detailsEachField, [post(both)]).status).toBe('passed')
    const row = judge(detailsEachField, [post([{ path: 'email', message: 'm' }])])
    expect(row.status).toBe('failed')
    expect(row.message).toContain('tags')
  })
  it('does not judge one field at fault, or a refusal without details (traffic.error.invalid-request judges those)', () => {
    const one = exchange({
      method: 'POST',
      path: '/accounts',
      body: { name: 42 },
      status: 400,
      responseBody: errorBody('invalid_request', [{ path: 'x', message: 'm' }]),
    })
    expect(judge(detailsEachField, [one]).status).toBe('skipped')
    const bare = exchange({ method: 'POST', path: '/contacts', body: { email: 12, tags: 'vip' }, status: 400, responseBody: errorBody('invalid_request') })
    expect(judge(detailsEachField, [bare]).status).toBe('skipped')
  })
})
