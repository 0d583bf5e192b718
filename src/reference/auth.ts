// §5: bearer keys `<prefix>_<workspace>_<secret>`, scopes per area, the owner's role and the key's IP allowlist.

import { BlockList, isIPv4, isIPv6 } from 'node:net'
import type { KeyRole } from '../vocabulary.ts'
import { ApiError } from './api-error.ts'
import { NO_FAULTS, type FaultId, type SwitchesOf } from './faults.ts'
import { ALL_SCOPES } from '../spec/resources.ts'

/** The faults this module plays (faults.ts): the only switches its code can read. */
export const AUTH_FAULTS = [
  'auth.scopes-split-on-commas',
  'auth.prefix-not-checked',
  'auth.garbage-key-500',
  'auth.secret-not-compared',
  'auth.revocation-ignored',
  'auth.missing-key-403',
  'auth.malformed-header-400',
  'auth.scopes-ignored',
  'auth.owner-role-ignored',
  'auth.role-overreach-read-only',
] as const satisfies readonly FaultId[]

export const KEY_PREFIX = 'crm'

/** `crm_ws_main_<secret>`: the workspace id itself contains one `_`, the secret has none. */
const KEY_PATTERN = /^crm_(ws_[a-z0-9]+)_([A-Za-z0-9]{16,})$/

export type OwnerRole = 'admin' | 'sales' | 'agent'

/**
 * §5.3(b): what each role of the key's owner may not do whatever the key's scopes say. An agent (support
 * staff) may not write sales documents. The restricted key's owner is an agent and lacks those scopes anyway;
 * the role-limited key's owner is an agent whose key has every scope, so only the role refuses it.
 */
export const ROLE_DENIES: Record<OwnerRole, readonly string[]> = {
  admin: [],
  sales: [],
  agent: ['deals:write', 'quotations:write', 'orders:write', 'invoices:write', 'products:write'],
}

export interface ApiKey {
  /** The configuration role this key plays (config.ts KEY_VARIABLES). */
  role: KeyRole
  secret: string
  name: string
  workspace: string
  userId: string
  ownerRole: OwnerRole
  scopes: readonly string[]
  /** CIDR ranges; undefined = any address. */
  ipAllowlist?: readonly string[]
  revoked: boolean
  limitPerMinute: number
}

export interface KeyTable {
  /** The key for a bearer value, or why there is none (every reason is a 401, §5.5). */
  resolve(bearer: string | undefined, accept?: { revoked?: boolean }): { key: ApiKey } | { problem: 'missing' | 'malformed' | 'unknown' | 'revoked' }
}

export function keyTable(keys: readonly ApiKey[], faults: SwitchesOf<typeof AUTH_FAULTS> = NO_FAULTS): KeyTable {
  // The fault: a custom scope list is stored space-separated and read back split on commas, so a key with
  // chosen scopes holds one unusable scope (full-access keys are stored as such and are unaffected).
  if (faults['auth.scopes-split-on-commas']) {
    keys = keys.map((k) => (k.scopes.length < ALL_SCOPES.length ? { ...k, scopes: k.scopes.join(' ').split(',') } : k))
  }
  const bySecret = new Map(keys.map((k) => [k.secret, k]))
  return {
    resolve(bearer, accept) {
      if (bearer === undefined || bearer === '') return { problem: 'missing' }
      // The fault: the prefix is never compared; the key is looked up as if it had the right one.
      const token = faults['auth.prefix-not-checked'] ? bearer.replace(/^[^_]*_/, `${KEY_PREFIX}_`) : bearer
      const form = KEY_PATTERN.exec(token)
      if (!form) {
        // The fault: a bearer token that is not key-shaped breaks the parser.
        if (faults['auth.garbage-key-500'] && token !== NOT_BEARER) throw new TypeError("Cannot read properties of undefined (reading 'split')")
        return { problem: 'malformed' }
      }
      let key = bySecret.get(token)
      // The fault: a key of the right form and a known workspace is taken without comparing its secret.
      if (!key && faults['auth.secret-not-compared']) key = keys.find((k) => k.workspace === form[1] && !k.revoked)
      if (!key) return { problem: 'unknown' }
      // The fault: revocation is never checked.
      if (key.revoked && !faults['auth.revocation-ignored'] && !accept?.revoked) return { problem: 'revoked' }
      return { key }
    },
  }
}

/** What bearerOf gives for a header that is not `Bearer <token>`: never a key. */
const NOT_BEARER = '\u0000not-bearer'

/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive). */
export function bearerOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined
  const m = /^Bearer[ ]+(\S*)\s*$/i.exec(header)
  return m ? m[1] : NOT_BEARER
}

export function unauthorized(problem: 'missing' | 'malformed' | 'unknown' | 'revoked', faults: SwitchesOf<typeof AUTH_FAULTS>, header?: string): ApiError {
  if (problem === 'missing' && faults['auth.missing-key-403']) return new ApiError(403, 'forbidden', 'No API key.')
  // The fault: a header that is not `Bearer <token>` is taken for a bad request.
  if (faults['auth.malformed-header-400'] && bearerOf(header) === NOT_BEARER)
    return new ApiError(400, 'invalid_request', 'The Authorization header is malformed.')
  const message = {
    missing: 'An API key is required: send Authorization: Bearer <API_KEY>.',
    malformed: 'The API key is not valid.',
    unknown: 'The API key is not valid.',
    revoked: 'The API key is no longer valid.',
  }[problem]
  return new ApiError(401, 'unauthorized', message, undefined, { 'WWW-Authenticate': 'Bearer' })
}

/** §5.3, §5.6: the key's scopes and its owner's role must both allow the call, else 403. `role: false` leaves the role for later. */
export function requireScope(key: ApiKey, scope: string, faults: SwitchesOf<typeof AUTH_FAULTS>, role = true): void {
  if (faults['auth.scopes-ignored']) return
  if (!key.scopes.includes(scope)) throw new ApiError(403, 'forbidden', `This key lacks the scope ${scope}.`)
  const denies = ROLE_DENIES[key.ownerRole]
  // The fault: the owner's role is never consulted, only the key's scopes.
  if (role && !faults['auth.owner-role-ignored'] && denies.includes(scope)) {
    throw new ApiError(403, 'forbidden', `The key's owner (role ${key.ownerRole}) may not use ${scope}.`)
  }
  // The fault: a key whose scopes exceed its owner's role is made read-only as a whole, instead of refusing only what the role may not do.
  if (faults['auth.role-overreach-read-only'] && scope.endsWith(':write') && key.scopes.some((s) => denies.includes(s))) {
    throw new ApiError(403, 'forbidden', `The key's scopes exceed its owner's role (${key.ownerRole}); it may only read.`)
  }
}

const allowlists = new WeakMap<ApiKey, BlockList>()

/** §5.3(c): the caller's address must be inside the key's allowlist, when it has one. */
export function ipAllowed(key: ApiKey, remoteAddress: string | undefined): boolean {
  if (!key.ipAllowlist) return true
  let list = allowlists.get(key)
  if (!list) {
    list = new BlockList()
    for (const cidr of key.ipAllowlist) {
      const [net, bits] = cidr.split('/')
      const type = isIPv6(net) ? 'ipv6' : 'ipv4'
      list.addSubnet(net, Number(bits ?? (type === 'ipv6' ? 128 : 32)), type)
    }
    allowlists.set(key, list)
  }
  if (remoteAddress === undefined) return false
  const addr = remoteAddress.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '')
  if (isIPv4(addr)) return list.check(addr, 'ipv4')
  if (isIPv6(addr)) return list.check(addr, 'ipv6')
  return false
}
