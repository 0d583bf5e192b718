// GET /me: the one call every key can make (§4.2 "check a key"). Its field names are not shown (§2), so only
// "answers with a JSON object" that shows the key's scopes in some reasonable form is required; the shape is
// reported as information.
import { expectSchema, defineCheck, scopesFromMe, showsScopes } from '../../src/checks/index.ts'
import { expectMainKeyServed, meParts } from './me-parts.ts'

const area = 'discovery'

export const checks = [
  defineCheck({
    id: 'discovery.me.answers',
    clauses: ['§4.2', '§5.1'],
    level: 'MUST',
    area,
    title: 'GET /me with a valid key answers 200 with a JSON object',
    async run(ctx) {
      const res = await ctx.api.get('/me')
      expectMainKeyServed(res)
      expectSchema(res, 'me', '§2 (the /me response)')
    },
  }),
  defineCheck({
    id: 'discovery.me.shows-scopes',
    clauses: ['§2', '§5.4'],
    level: 'MUST',
    area,
    title: "GET /me shows the key's scopes, in any reasonable shape (a list, a space-separated string, a map of area to access, a wildcard)",
    async run(ctx) {
      const res = await ctx.api.get('/me')
      expectMainKeyServed(res)
      // §2: "/me returns the workspace, the key's name and scopes, and the user"; only the field names are not shown.
      if (!showsScopes(res.body)) {
        ctx.fail(
          'GET /me shows no scopes in any form: no list of area:read / area:write values, no such string, no map of area to access, no field named for scopes (§2)',
          {
            expected: "§2: /me returns the workspace, the key's name and scopes, and the user the key acts as",
            exchanges: [res.exchange],
          },
        )
      }
      ctx.observe('me.mainKeyScopes', scopesFromMe(res.body) ?? 'shown in a form of its own')
    },
  }),
  defineCheck({
    id: 'discovery.me.shape',
    clauses: ['§2', '§5.9'],
    level: 'INFO',
    area,
    title: "The /me response shape, and whether it shows the key's scopes",
    async run(ctx) {
      const res = await ctx.api.get('/me')
      if (!res.ok || typeof res.body !== 'object' || res.body === null) ctx.skip(`GET /me answered ${res.status}`)
      ctx.observe('me.topLevelFields', Object.keys(res.body).sort())
      const scopes = scopesFromMe(res.body)
      ctx.observe('me.showsScopes', scopes !== undefined)
      if (scopes) ctx.observe('me.mainKeyScopes', scopes)
    },
  }),
  ...meParts,
]
