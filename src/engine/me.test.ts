import { describe, expect, it } from 'vitest'
import { scopesFromMe, userIdInMe } from './me.ts'

it('finds scopes in any reasonable /me shape', () => {
  expect(scopesFromMe({ key: { name: 'k', scopes: ['accounts:read', 'cases:write'] } })).toEqual(['accounts:read', 'cases:write'])
  expect(scopesFromMe({ scopes: 'accounts:read contacts:write' })).toEqual(['accounts:read', 'contacts:write'])
  expect(scopesFromMe({ data: { apiKey: { permissions: [{ x: 1 }], scope: 'users:read' } } })).toEqual(['users:read'])
  expect(scopesFromMe({ workspace: 'w', user: { name: 'x' } })).toBeUndefined()
})

describe('userIdInMe', () => {
  it('finds the listed user named anywhere in /me', () => {
    const me = { workspace: { id: 'ws' }, user: { id: 'B1', email: 'x' } }
    expect(userIdInMe(me, ['a1', 'b1'])).toBe('B1')
    expect(userIdInMe({ actor: 'a1' }, ['a1'])).toBe('a1')
    expect(userIdInMe({ user: { id: 'zz' } }, ['a1'])).toBeUndefined()
  })
})
