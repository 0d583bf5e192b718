import { expect, it } from 'vitest'
import { resolveOperation } from './operation.ts'
import type { TrafficExchange } from './types.ts'

const ID = '3f2b1c9e-0000-4000-8000-000000000001'
const at = (method: string, url: string, base = '/v1') =>
  resolveOperation({ seq: 1, source: 't', request: { method, url, headers: {} }, startedAt: '', endedAt: '' } satisfies TrafficExchange, base)

it('maps method and path onto the §4.2 operations below the base path', () => {
  expect(at('GET', 'https://crm.example.com/v1/accounts?limit=5&limit=7&ownerId=x')).toEqual({
    path: '/accounts',
    resource: 'account',
    op: 'list',
    query: { limit: '7', ownerId: 'x' },
  })
  expect(at('POST', 'https://crm.example.com/v1/accounts')).toMatchObject({ resource: 'account', op: 'create' })
  expect(at('GET', `https://acme.example.com/api/v1/accounts/${ID}`, '/api/v1/')).toMatchObject({ resource: 'account', op: 'get', id: ID })
  expect(at('PATCH', `http://h/v1/accounts/${ID}`)).toMatchObject({ op: 'update' })
  expect(at('PUT', `http://h/v1/accounts/${ID}`)).toMatchObject({ op: 'update' })
  expect(at('PUT', `http://h/v1/quotations/${ID}`)).toMatchObject({ resource: 'quotation', op: 'replace' })
  expect(at('PATCH', `http://h/v1/invoices/${ID}`)).toMatchObject({ resource: 'invoice', op: 'replace' })
  expect(at('DELETE', `http://h/v1/quotations/${ID}`)).toMatchObject({ op: 'delete' })
  expect(at('GET', 'http://h/v1/me')).toMatchObject({ resource: 'me', op: 'me' })
  expect(at('GET', '/v1/users/%41b?x=1')).toMatchObject({ resource: 'user', op: 'get', id: 'Ab', query: { x: '1' } })
})

it('leaves out what §4.2 does not list: the op, the resource, or the whole exchange', () => {
  expect(at('DELETE', `http://h/v1/invoices/${ID}`)).toEqual({ path: `/invoices/${ID}`, resource: 'invoice', id: ID, query: {} })
  expect(at('POST', 'http://h/v1/users')).not.toHaveProperty('op')
  expect(at('POST', `http://h/v1/quotations/${ID}/send`)).toMatchObject({ resource: 'quotation', op: 'action', id: ID })
  expect(at('GET', 'http://h/v1/unknown')).toEqual({ path: '/unknown', query: {} })
  expect(at('GET', 'http://h/v2/accounts')).toBeUndefined()
  expect(at('GET', 'http://h/v1x/accounts')).toBeUndefined()
  expect(at('GET', 'not a url')).toBeUndefined()
})
