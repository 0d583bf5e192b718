// §5.3, §5.4, §5.6, §7.5: a restricted key is served inside its scopes and refused with 403 outside them, for
// reads and writes separately, with the area mapping of §5.4 (comments → cases, payments → invoices,
// opportunities → deals, articles → knowledge). Table-driven from RESOURCES[*].scopeArea.
import { expectErrorEnvelope, defineCheck, tagged, trackCreated, RESOURCE_LIST, RESOURCES, scopeFor } from '../../src/checks/index.ts'
import type { CheckContext, CheckDefinition, ResourceName } from '../../src/checks/index.ts'
import { creatable, createNeeds, MissingReference, validCreateBody, type ValidBody } from '../shared/bodies.ts'
import { baseline, createdDespite, listCaughtUp } from '../shared/created-despite.ts'
import { isStateRefusal } from '../shared/refusal.ts'
import { restrictedScopes } from '../shared/restricted-scopes.ts'

const area = 'auth'

const OWNER_ROLE_HINT =
  "a key is served inside its scopes (§5.3, §5.4); if the owner's role forbids this call (§5.3b), give CRM_API_KEY_RESTRICTED to a user whose role allows every scope of the key"

function readCheck(resource: ResourceName): CheckDefinition {
  const spec = RESOURCES[resource]
  const scope = scopeFor(resource, 'list')
  return defineCheck({
    id: `auth.scope.${resource}.read`,
    clauses: ['§5.4', '§5.6', '§7.5', '§5.3'],
    level: 'MUST',
    area,
    title: `A restricted key lists ${spec.path} only with ${scope}: 403 with the error envelope without it, served with it`,
    keys: ['restricted'],
    async run(ctx) {
      const { scopes } = await restrictedScopes(ctx)
      const res = await ctx.as('restricted').get(spec.path, { limit: 1 })
      if (scopes.includes(scope)) {
        if (!res.ok)
          ctx.fail(`status is ${res.status} for a key with ${scope}, expected a 2xx (§5.4)`, { expected: OWNER_ROLE_HINT, exchanges: [res.exchange] })
        return
      }
      expectErrorEnvelope(res, '§5.6', { status: 403 })
    },
  })
}

/** The statuses a refusal may take: 403, or any client error when the body names records the key cannot read. */
function refusalAccepted(status: number, valid: ValidBody, scopes: string[]): boolean {
  if (status === 403) return true
  const readable = valid.references.every((r) => scopes.includes(scopeFor(r, 'get')))
  // §5.6 and §5.7 both apply when the key may neither write here nor see the named record; which one wins is
  // not shown, so a 404 (or a 400 naming the field) is accepted then, and only then.
  return !readable && status >= 400 && status < 500 && status !== 401 && status !== 429
}

async function bodyOrSkip(ctx: CheckContext, resource: ResourceName): Promise<ValidBody> {
  try {
    return await validCreateBody(ctx, resource, `auth scope ${resource}`)
  } catch (error) {
    if (error instanceof MissingReference) ctx.skip(`a valid ${resource} body needs a record to name: ${error.message}`)
    throw error
  }
}

function writeCheck(resource: ResourceName): CheckDefinition {
  const spec = RESOURCES[resource]
  const scope = scopeFor(resource, 'create')
  return defineCheck({
    id: `auth.scope.${resource}.write`,
    clauses: ['§5.4', '§5.6', '§7.5', '§5.3'],
    level: 'MUST',
    area,
    title: `A restricted key creates on ${spec.path} only with ${scope}: without it, 403 and nothing created; with it, served`,
    keys: ['restricted'],
    writes: createNeeds(resource),
    async run(ctx) {
      const { scopes } = await restrictedScopes(ctx)
      const restricted = ctx.as('restricted')
      const valid = await bodyOrSkip(ctx, resource)
      const inScope = scopes.includes(scope)
      const before = inScope ? undefined : await baseline(ctx, resource, valid)
      const res = await restricted.post(spec.path, tagged(ctx, resource, valid.body))
      if (res.ok && typeof res.body?.id === 'string') trackCreated(ctx, resource, res.body.id)
      // A used-up fixture (an accepted quotation already ordered, a paid invoice) may be refused whoever sends it,
      // and before the key is judged: which comes first is not shown, so such an answer says nothing of the scope.
      const fixtureRefused = valid.statefulFixture !== undefined && res.status !== 403 && isStateRefusal(res.status)

      if (inScope) {
        if (res.ok) return
        const readable = valid.references.every((r) => scopes.includes(scopeFor(r, 'get')))
        if (!readable && res.status !== 403)
          ctx.skip(`the body names a ${valid.references.join(', ')} the key cannot read, and the server answered ${res.status}`)
        if (fixtureRefused) {
          ctx.skip(`the server answered ${res.status}, a refusal about ${valid.statefulFixture}, not about the key`)
        }
        ctx.fail(`status is ${res.status} for a key with ${scope} and a valid body, expected a 2xx (§5.4)`, {
          expected: OWNER_ROLE_HINT,
          exchanges: [res.exchange],
          data: res.body,
        })
      }

      if (res.ok) {
        ctx.fail(`status is ${res.status} for a key without ${scope}, expected 403 (§5.6)`, {
          expected: `a create needs ${scope} (§4.2, §5.4)`,
          exchanges: [res.exchange],
        })
      }
      const unjudged = fixtureRefused && !refusalAccepted(res.status, valid, scopes)
      if (!unjudged && !refusalAccepted(res.status, valid, scopes)) expectErrorEnvelope(res, '§5.6', { status: 403 })
      expectErrorEnvelope(res, '§7.1')
      if (res.status !== 403) ctx.observe('refusal.status', res.status)
      // A refusal decided after the write (e.g. a check on the way out) still leaves the record behind.
      if (!(await listCaughtUp(ctx, resource))) ctx.note(`no control ${resource} was listed: the absence below was judged on a list that may lag`)
      const after = await createdDespite(ctx, resource, valid, before)
      if (after.created.length > 0) {
        ctx.fail(`the create was refused with ${res.status} but ${resource} ${after.created[0]} was created (§5.6)`, {
          expected: 'a call refused by scope changes nothing (§5.3, §5.6)',
          exchanges: [res.exchange, after.response.exchange],
        })
      }
      if (after.ids === undefined) ctx.note(`could not list ${spec.path} with the main key (status ${after.response.status}) to prove nothing was created`)
      if (unjudged) {
        ctx.skip(`the server answered ${res.status}, a refusal about ${valid.statefulFixture}, before judging the key's scope; nothing was created`)
      }
    },
  })
}

export const checks: CheckDefinition[] = [...RESOURCE_LIST.filter((r) => r.ops.list).map((r) => readCheck(r.name)), ...creatable().map(writeCheck)]
