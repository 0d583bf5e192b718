import { describe, expect, it } from 'vitest'
import { RESOURCES } from '../spec/resources.ts'
import { acceptedListQuery } from './accepted.ts'

const accepted = (resource: keyof typeof RESOURCES, query: Record<string, string>, names = Object.keys(query)) =>
  acceptedListQuery(RESOURCES[resource], query, names)

describe('acceptedListQuery', () => {
  it('accepts the §4.1 parameters with values the spec lists, a uuid filter and a listed enum value', () => {
    expect(accepted('account', {})).toBe(true)
    expect(accepted('account', { limit: '100', sort: 'updatedAt', order: 'asc', createdSince: '2020-01-01T00:00:00.000Z' })).toBe(true)
    expect(accepted('account', { ownerId: '00000000-0000-4000-8000-00000000abcd', limit: '10' })).toBe(true)
    expect(accepted('message', { direction: 'system' })).toBe(true)
    expect(accepted('comment', { kind: 'internal', cursor: 'anything' })).toBe(true)
  })
  it('does not call accepted what §7.3 could name or what the spec leaves open', () => {
    for (const query of <Record<string, string>[]>[{ limit: '0' }, { limit: '101' }, { limit: '010' }, { limit: '2.5' }, { sort: 'name' }, { order: 'ASC' }])
      expect(accepted('account', query)).toBe(false)
    expect(accepted('account', { createdSince: '2020-01-01' })).toBe(false)
    expect(accepted('account', { createdSince: '2020-01-01T00:00:00' })).toBe(false)
    expect(accepted('account', { ownerId: 'not-a-uuid' })).toBe(false)
    expect(accepted('message', { direction: 'sideways' })).toBe(false)
    // String filters over workspace keys, email and E.164 forms, unknown parameters, repeated parameters.
    expect(accepted('account', { tier: 'gold' })).toBe(false)
    expect(accepted('account', { email: 'a@b.example' })).toBe(false)
    expect(accepted('account', { page: '2' })).toBe(false)
    expect(accepted('account', { limit: '5' }, ['limit', 'limit'])).toBe(false)
  })
})
