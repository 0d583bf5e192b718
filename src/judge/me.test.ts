import { describe, expect, it } from 'vitest'
import { scopesFromMe, showsScopes, userIdInMe } from './me.ts'

it('finds scopes in any reasonable /me shape', () => {
  expect(scopesFromMe({ key: { name: 'k', scopes: ['accounts:read', 'cases:write'] } })).toEqual(['accounts:read', 'cases:write'])
  expect(scopesFromMe({ scopes: 'accounts:read contacts:write' })).toEqual(['accounts:read', 'contacts:write'])
  expect(scopesFromMe({ data: { apiKey: { permissions: [{ x: 1 }], scope: 'users:read' } } })).toEqual(['users:read'])
  expect(scopesFromMe({ workspace: 'w', user: { name: 'x' } })).toBeUndefined()
  expect(scopesFromMe({ apiKey: { permissions: { accounts: ['read', 'write'], users: 'read' } } })).toEqual(['accounts:read', 'accounts:write', 'users:read'])
  expect(scopesFromMe({ grants: { cases: { read: true, write: false } } })).toEqual(['cases:read'])
  expect(scopesFromMe({ user: { role: 'admin', flags: { beta: true } }, key: { name: 'k' } })).toBeUndefined()
})

it('sees scopes shown as a wildcard under a field named for them, and nothing else', () => {
  expect(showsScopes({ key: { name: 'k', scopes: ['*'] } })).toBe(true)
  expect(showsScopes({ token: { scope: 'full_access' } })).toBe(true)
  expect(showsScopes({ scopes: 'accounts:read' })).toBe(true)
  expect(showsScopes({ workspace: { id: 'w' }, key: { name: 'k' }, user: { role: 'admin' } })).toBe(false)
  expect(showsScopes({ key: { name: 'k', scopes: [] } })).toBe(false)
})

describe('userIdInMe', () => {
  it('finds the listed user named anywhere in /me', () => {
    const me = { workspace: { id: 'ws' }, user: { id: 'B1', email: 'x' } }
    expect(userIdInMe(me, ['a1', 'b1'])).toBe('B1')
    expect(userIdInMe({ actor: 'a1' }, ['a1'])).toBe('a1')
    expect(userIdInMe({ user: { id: 'zz' } }, ['a1'])).toBeUndefined()
  })
})
