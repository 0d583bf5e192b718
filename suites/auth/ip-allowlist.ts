// §5.3(c), §5.6, §7.5: a key used from an address outside its IP allowlist is refused with 403.
import { expectErrorEnvelope, defineCheck, RESOURCES } from '../../src/checks/index.ts'
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
]
