// §2 "Unspecified shapes": GET /me "returns the workspace, the key's name and scopes, and the user the key acts
// as". Only the field names are not shown, so each part is looked for in every reasonable form (a nested object,
// a flat field, an id or a name); the scopes are judged by discovery.me.shows-scopes. The three parts below are
// read from one GET /me of the main key, shared by the three checks.
import { defineCheck, expectStatus, itemPath, namesUser, showsKeyName, showsWorkspace, stringsOf } from '../../src/checks/index.ts'
import type { ApiResponse, CheckContext, CheckDefinition } from '../../src/checks/index.ts'

export { namesUser, showsKeyName, showsWorkspace }

const area = 'discovery'
const CLAUSE_WORDS = "§2: /me returns the workspace, the key's name and scopes, and the user the key acts as (field names not shown)"
/** GET /users/{id} calls spent looking for the user among the uuids of the body. */
const MAX_USER_LOOKUPS = 5
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The uuids of the body that are users of the workspace (GET /users/{id} answers 200), at most MAX_USER_LOOKUPS tried. */
async function userAmongIds(ctx: CheckContext, body: unknown): Promise<{ id?: string; lookups: ApiResponse[] }> {
  const ids = [...new Set(stringsOf(body).filter((s) => UUID.test(s)))].slice(0, MAX_USER_LOOKUPS)
  const lookups: ApiResponse[] = []
  for (const id of ids) {
    const res = await ctx.api.get(itemPath('user', id))
    lookups.push(res)
    if (res.ok) return { id, lookups }
  }
  return { lookups }
}

function me(ctx: CheckContext): Promise<ApiResponse> {
  return ctx.session.memo('discovery.me.main', () => ctx.api.get('/me'))
}

/** GET /me with the main key answers 200: the call checks a key (§4.2), and the main key is valid. */
export function expectMainKeyServed(res: ApiResponse): void {
  expectStatus(res, 200, '§4.2', 'GET /me checks a key; the main key is valid')
}

async function meBody(ctx: CheckContext): Promise<ApiResponse> {
  const res = await me(ctx)
  expectMainKeyServed(res)
  if (typeof res.body !== 'object' || res.body === null) ctx.skip('GET /me did not answer a JSON object (see discovery.me.answers)')
  return res
}

/** A check that one part of /me is there in some form (§2 "Unspecified shapes"), judged from the one discovery read. */
function meShows(part: { id: string; title: string; shows: (body: unknown, key: string | undefined) => boolean; missing: string }): CheckDefinition {
  return defineCheck({
    id: part.id,
    clauses: ['§2', '§4.2'],
    level: 'MUST',
    area,
    title: part.title,
    async run(ctx) {
      const res = await meBody(ctx)
      if (!part.shows(res.body, ctx.config.keys.main)) ctx.fail(part.missing, { expected: CLAUSE_WORDS, exchanges: [res.exchange] })
    },
  })
}

export const meParts: CheckDefinition[] = [
  // The mistake: /me serialises the key and its user but leaves out which workspace they belong to.
  meShows({
    id: 'discovery.me.shows-workspace',
    title: 'GET /me shows the workspace, in any reasonable shape (an object, an id or a name, nested or flat)',
    shows: showsWorkspace,
    missing: 'GET /me shows no workspace: no field named for a workspace (tenant, organisation), and not the workspace id the key carries (§2)',
  }),
  // The mistake: the key is serialised with its scopes only (or its id), not the name it was given.
  meShows({
    id: 'discovery.me.shows-key-name',
    title: "GET /me shows the key's name, in any reasonable shape (keyName, key.name, apiKey.label, a top-level name)",
    shows: showsKeyName,
    missing: "GET /me shows no name of the key: no name or label at the top, in the key's object, or in a keyName-like field (§2)",
  }),
  // The mistake: /me describes the key alone, not the user it acts as (§1.2, §5.3).
  defineCheck({
    id: 'discovery.me.shows-user',
    clauses: ['§2', '§1', '§5.3'],
    level: 'MUST',
    area,
    title: 'GET /me shows the user the key acts as: a field named for the user (an object, an id, an email), or the id of a user of the workspace',
    async run(ctx) {
      const res = await meBody(ctx)
      if (namesUser(res.body)) return
      const { id, lookups } = await userAmongIds(ctx, res.body)
      if (id) {
        ctx.observe('me.userShownAs', 'an id under a field of its own name')
        return
      }
      ctx.fail('GET /me shows no user: no field named for a user (user, actor, owner, principal), and no id in it is a user of the workspace (§2)', {
        expected: CLAUSE_WORDS,
        exchanges: [res.exchange, ...lookups.map((l) => l.exchange)],
      })
    },
  }),
]
