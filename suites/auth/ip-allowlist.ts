// §5.3(c), §5.6, §7.5: a key used from an address outside its IP allowlist is refused with 403, on a read and on
// GET /me. /me is a call like any other (§4.2: "every call carries the bearer key"; §5.3: allowed calls are
// limited by the allowlist), so "check a key" does not tell a caller outside the allowlist that its key works.
import { expectErrorEnvelope, defineCheck, RESOURCES, ME_PATH } from '../../src/checks/index.ts'
import type { CheckDefinition } from '../../src/checks/index.ts'

const area = 'auth'

export const checks: CheckDefinition[] = [
  // The mistake: an allowlist stored with the key but never compared with the caller's address.
  defineCheck({
    id: 'auth.ip-blocked.refused',
    clauses: ['§5.6', '§5.3', '§7.5'],
    level: 'MUST',
    area,
    title: 'A key whose IP allowlist excludes the caller is refused with 403 and the error envelope',
    keys: ['ipBlocked'],
    async run(ctx) {
      const res = await ctx.as('ipBlocked').get(RESOURCES.account.path, { limit: 1 })
      expectErrorEnvelope(res, '§5.6', { status: 403 })
    },
  }),
  // The mistake: /me exempted from the allowlist (so that a key "can be checked from anywhere").
  defineCheck({
    id: 'auth.ip-blocked.me',
    clauses: ['§5.6', '§5.3', '§7.5', '§4.2'],
    level: 'MUST',
    area,
    title: 'GET /me with a key whose IP allowlist excludes the caller is refused with 403 and the error envelope',
    keys: ['ipBlocked'],
    async run(ctx) {
      const res = await ctx.as('ipBlocked').get(ME_PATH)
      if (res.ok) {
        ctx.fail(`GET /me with a key whose IP allowlist excludes the caller answered ${res.status}, expected 403 (§5.6)`, {
          expected: "allowed calls are limited by the key's IP allowlist (§5.3 c), GET /me among them; a refused call is 403 (§5.6)",
          exchanges: [res.exchange],
          data: res.body,
        })
      }
      expectErrorEnvelope(res, '§5.6', { status: 403 })
    },
  }),
]
