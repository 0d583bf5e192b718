import { describe, expect, it } from 'vitest'
import { namesUser, showsKeyName, showsWorkspace } from './me-parts.ts'

// The /me shapes of the reference variants (src/reference/routes/special.ts) and others a server may choose (§2: not shown).
const NESTED = { workspace: { id: 'ws_main', name: 'Acme' }, key: { name: 'Sync', scopes: ['accounts:read'] }, user: { id: 'u1', email: 'a@b.c' } }
const FLAT = { workspace: 'ws_main', workspaceName: 'Acme', name: 'Sync', scopes: 'accounts:read', actor: { id: 'u1' } }
const SCOPE_MAP = { workspace: { id: 'ws_main' }, apiKey: { label: 'Sync', permissions: { accounts: ['read'] } }, actingUser: { id: 'u1' } }
const IDS_ONLY = { tenantId: 'ws_main', keyName: 'Sync', scopes: [], userId: '0b7c1c4e-7a53-4a8e-9d1e-1f2a3b4c5d6e' }

describe('the parts of GET /me (§2)', () => {
  it('finds each part in every reasonable shape', () => {
    for (const body of [NESTED, FLAT, SCOPE_MAP, IDS_ONLY]) {
      expect(showsWorkspace(body)).toBe(true)
      expect(showsKeyName(body)).toBe(true)
      expect(namesUser(body)).toBe(true)
    }
  })

  it('finds the workspace by the id the key carries, under any field name', () => {
    expect(showsWorkspace({ ws: 'ws_main' }, 'crm_ws_main_AbCdEf0123456789')).toBe(true)
    expect(showsWorkspace({ ws: 'ws_other' }, 'crm_ws_main_AbCdEf0123456789')).toBe(false)
  })

  it('misses a part that is not there', () => {
    const { workspace: _w, ...noWorkspace } = NESTED
    expect(showsWorkspace(noWorkspace)).toBe(false)
    expect(showsKeyName({ ...NESTED, key: { scopes: ['accounts:read'] } })).toBe(false)
    const { user: _u, ...noUser } = NESTED
    expect(namesUser(noUser)).toBe(false)
  })

  it("takes a text under the key's own field for its name, unless it is the key itself", () => {
    expect(showsKeyName({ apiKey: 'Sync integration' }, 'crm_ws_main_AbCdEf0123456789')).toBe(true)
    expect(showsKeyName({ apiKey: 'crm_ws_main_****6789' }, 'crm_ws_main_AbCdEf0123456789')).toBe(false)
  })

  it("does not take the workspace's or the user's name for the key's", () => {
    expect(showsKeyName({ workspace: { name: 'Acme' }, user: { displayName: 'Ann' }, key: { id: 'k1' } })).toBe(false)
  })
})
