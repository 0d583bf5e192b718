import { describe, expect, it } from 'vitest'
import { badParameterRefused, filterComplete, filtered, ordered, pageSize, since, sinceExcludesBound, walk } from '../../src/traffic/rules/lists.ts'
import { account, errorBody, exchange, iso, judge, page, uuid } from './helpers.ts'

const accounts = (from: number, n: number) => Array.from({ length: n }, (_, i) => account(from + i))

describe('traffic.list.page-size', () => {
  it('passes 25 records without limit when the next page has more, and a short last page', () => {
    const row = judge(pageSize, [
      exchange({ path: '/accounts', responseBody: page(accounts(1, 25), 'c1') }),
      exchange({ path: '/accounts?cursor=c1', responseBody: page(accounts(26, 3)) }),
    ])
    expect(row.status).toBe('passed')
  })
  it('fails 20 records without limit when the next page shows more, and a page above limit', () => {
    const short = judge(pageSize, [
      exchange({ path: '/accounts', responseBody: page(accounts(1, 20), 'c1') }),
      exchange({ path: '/accounts?cursor=c1', responseBody: page(accounts(26, 3)) }),
    ])
    expect(short.status).toBe('failed')
    expect(short.message).toContain('although more records follow')
    expect(judge(pageSize, [exchange({ path: '/accounts?limit=2', responseBody: page(accounts(1, 3)) })]).status).toBe('failed')
    expect(judge(pageSize, [exchange({ path: '/accounts', responseBody: page(accounts(1, 26)) })]).status).toBe('failed')
  })
  it('does not hold a short page against the server when a write came between the pages', () => {
    const row = judge(pageSize, [
      exchange({ path: '/accounts?order=asc', responseBody: page(accounts(1, 20), 'c1') }),
      exchange({ method: 'POST', path: '/accounts', body: { name: 'x' }, status: 201, responseBody: account(90) }),
      exchange({ path: '/accounts?order=asc&cursor=c1', responseBody: page([account(90)]) }),
    ])
    expect(row.violations).toBe(0)
  })
})

describe('traffic.list.filter', () => {
  it('passes records matching the filter by its case rule, fails one that does not', () => {
    const lower = account(1, { email: 'Ana@Example.com' })
    expect(judge(filtered, [exchange({ path: '/accounts?email=ana%40example.com', responseBody: page([lower]) })]).status).toBe('passed')
    const row = judge(filtered, [exchange({ path: `/accounts?ownerId=${uuid(7)}`, responseBody: page([account(1, { ownerId: uuid(8) })]) })])
    expect(row.status).toBe('failed')
    expect(row.message).toContain('ownerId')
  })
  it('does not judge a list without a §4.3 filter', () => {
    expect(judge(filtered, [exchange({ path: '/accounts?limit=5', responseBody: page([account(1)]) })]).status).toBe('skipped')
  })
})

describe('traffic.list.order', () => {
  it('passes createdAt desc by default and ties, fails ascending records under the default', () => {
    expect(
      judge(ordered, [exchange({ path: '/accounts', responseBody: page([account(1), account(2), account(3, { createdAt: account(2).createdAt })]) })]).status,
    ).toBe('passed')
    expect(judge(ordered, [exchange({ path: '/accounts', responseBody: page([account(3), account(1)]) })]).status).toBe('failed')
    expect(judge(ordered, [exchange({ path: '/accounts?order=asc', responseBody: page([account(3), account(1)]) })]).status).toBe('passed')
  })
})

describe('traffic.list.since and since-excludes-bound', () => {
  it('fails a record created before createdSince (MUST), and one exactly at the bound only under the SHOULD rule', () => {
    const bound = iso(-2000)
    const before = [exchange({ path: `/accounts?createdSince=${encodeURIComponent(bound)}`, responseBody: page([account(1), account(3)]) })]
    expect(judge(since, before).status).toBe('failed')
    const at = [exchange({ path: `/accounts?createdSince=${encodeURIComponent(bound)}`, responseBody: page([account(1), account(2)]) })]
    expect(judge(since, at).status).toBe('passed')
    expect(judge(sinceExcludesBound, at).status).toBe('failed')
    expect(
      judge(sinceExcludesBound, [exchange({ path: `/accounts?createdSince=${encodeURIComponent(bound)}`, responseBody: page([account(1)]) })]).status,
    ).toBe('passed')
  })
})

describe('traffic.list.walk', () => {
  it('passes a walk in order without repeats', () => {
    const row = judge(walk, [
      exchange({ path: '/accounts?limit=2', responseBody: page(accounts(1, 2), 'c1') }),
      exchange({ path: '/accounts?limit=2&cursor=c1', responseBody: page(accounts(3, 2), 'c2') }),
      exchange({ path: '/accounts?limit=2&cursor=c2', responseBody: page(accounts(5, 1)) }),
    ])
    expect(row.status).toBe('passed')
    expect(row.judged).toBe(2)
  })
  it('fails a record repeated on the next page, and a page boundary out of order', () => {
    const repeat = judge(walk, [
      exchange({ path: '/accounts?limit=2', responseBody: page(accounts(1, 2), 'c1') }),
      exchange({ path: '/accounts?limit=2&cursor=c1', responseBody: page(accounts(2, 2)) }),
    ])
    expect(repeat.status).toBe('failed')
    expect(repeat.evidence).toHaveLength(2)
    const misordered = judge(walk, [
      exchange({ path: '/accounts?limit=2', responseBody: page(accounts(3, 2), 'c1') }),
      exchange({ path: '/accounts?limit=2&cursor=c1', responseBody: page(accounts(1, 2)) }),
    ])
    expect(misordered.status).toBe('failed')
  })
  it('does not judge pages of another query, nor a pair with a write between them', () => {
    expect(
      judge(walk, [
        exchange({ path: '/accounts?limit=2', responseBody: page(accounts(1, 2), 'c1') }),
        exchange({ path: '/accounts?limit=3&cursor=c1', responseBody: page(accounts(1, 2)) }),
      ]).status,
    ).toBe('skipped')
    expect(
      judge(walk, [
        exchange({ path: '/accounts?limit=2', responseBody: page(accounts(1, 2), 'c1') }),
        exchange({ method: 'DELETE', path: `/accounts/${uuid(1)}`, status: 204 }),
        exchange({ path: '/accounts?limit=2&cursor=c1', responseBody: page(accounts(2, 2)) }),
      ]).status,
    ).toBe('skipped')
  })
})

describe('traffic.list.bad-parameter-refused', () => {
  it('passes 400 invalid_request for limit=500 and a 400 of any code for an unlisted enum value', () => {
    expect(
      judge(badParameterRefused, [
        exchange({ path: '/accounts?limit=500', status: 400, responseBody: errorBody('invalid_request') }),
        exchange({ path: '/comments?kind=nope', status: 400, responseBody: errorBody('bad_filter') }),
      ]).status,
    ).toBe('passed')
  })
  it('fails a page served for limit=0 or an unlisted enum value, and another code for limit=abc', () => {
    expect(judge(badParameterRefused, [exchange({ path: '/accounts?limit=0', responseBody: page([]) })]).status).toBe('failed')
    expect(judge(badParameterRefused, [exchange({ path: '/comments?kind=nope', responseBody: page([]) })]).status).toBe('failed')
    expect(judge(badParameterRefused, [exchange({ path: '/accounts?limit=abc', status: 400, responseBody: errorBody('bad_limit') })]).status).toBe('failed')
  })
  it('leaves alone listed values in any case, odd limit forms, and refusals about the key', () => {
    expect(
      judge(badParameterRefused, [
        exchange({ path: '/comments?kind=INTERNAL&limit=1e1', responseBody: page([]) }),
        exchange({ path: '/accounts?limit=500', status: 429, responseBody: errorBody('x') }),
      ]).status,
    ).toBe('skipped')
  })
})

describe('traffic.list.filter-complete', () => {
  const all = [account(1, { email: 'ana@example.com' }), account(2, { email: 'bob@example.com' })]
  const listing = exchange({ path: '/accounts?limit=100', responseBody: page(all), at: 0 })
  it('passes a filtered list holding what the complete listing showed matching, in any case of the value', () => {
    expect(
      judge(filterComplete, [listing, exchange({ path: '/accounts?email=ANA%40EXAMPLE.COM&limit=10', responseBody: page([all[0]]), at: 100 })]).status,
    ).toBe('passed')
  })
  it('fails a filtered list that leaves out a matching record', () => {
    const row = judge(filterComplete, [listing, exchange({ path: '/accounts?email=ANA%40EXAMPLE.COM&limit=10', responseBody: page([]), at: 100 })])
    expect(row.status).toBe('failed')
    expect(row.message).toContain(uuid(1))
  })
  it('does not judge after a write to the collection, with another key, or without room on the page', () => {
    const write = exchange({
      method: 'PATCH',
      path: `/accounts/${uuid(1)}`,
      body: { email: 'x@example.com' },
      responseBody: account(1, { email: 'x@example.com' }),
      at: 50,
    })
    expect(judge(filterComplete, [listing, write, exchange({ path: '/accounts?email=ana%40example.com', responseBody: page([]), at: 100 })]).status).toBe(
      'skipped',
    )
    expect(
      judge(filterComplete, [listing, exchange({ path: '/accounts?email=ana%40example.com', responseBody: page([]), at: 100, keyRole: 'restricted' })]).status,
    ).toBe('skipped')
  })
})
