// §5.3–§5.6, §7.4, §7.5: every guard on every method, not only the list and the create the other auth checks try.
// - Scopes (§4.2, §5.4): each write §4.2 lists on one record (update, replace, delete) needs the area's write
//   scope; a restricted key with only the read scope (or none) is refused and nothing changes. Generated from
//   §4.2 (RESOURCES[*].ops × scopeFor): one check per write operation of each collection, each collection being its
//   own area or the one representative of its area. Cost: a record made with the main key, the call, one read back
//   (~3 main-key requests each, 16 checks).
// - A revoked key (§5.5) is refused 401 on a record's update and delete (on GET /me: credentials.ts); an address
//   outside the key's IP allowlist (§5.3 c, §5.6) is refused 403 on a create, an update and a delete.
import { expectErrorEnvelope, defineCheck, itemPath, runLabel, tagged, createRecord, RESOURCE_LIST, RESOURCES, scopeFor } from '../../src/checks/index.ts'
import type { AnyRecord, ApiClient, ApiResponse, CheckContext, CheckDefinition, KeyRole, ResourceName } from '../../src/checks/index.ts'
import { createNeeds, MissingReference, validCreateBody } from '../shared/bodies.ts'
import { baseline, createdDespite } from '../shared/created-despite.ts'
import { changeBody, changedField, itemWritesOf, sendItemWrite, type ItemWrite } from '../shared/item-writes.ts'
import { restrictedScopes } from '../shared/restricted-scopes.ts'
import { expectCreateNotAccepted } from './refused-create.ts'

const area = 'auth'

const OWNER_ROLE_HINT =
  "a key is served inside its scopes (§5.3, §5.4); if the owner's role forbids this call (§5.3b), give CRM_API_KEY_RESTRICTED to a user whose role allows every scope of the key"

/** A record of this run for the guarded call to name, made with `client` (the main key by default), removed by clean-up. Skips when none can be made. */
async function ownRecord(ctx: CheckContext, resource: ResourceName, purpose: string, client: ApiClient = ctx.api): Promise<AnyRecord> {
  try {
    const valid = await validCreateBody(ctx, resource, purpose)
    return (await createRecord(ctx, resource, valid.body, { validate: false, client })).record
  } catch (error) {
    if (error instanceof MissingReference) ctx.skip(`a ${resource} to write to needs ${error.message}`)
    throw error
  }
}

interface Attempt {
  op: ItemWrite
  response: ApiResponse
  /** What the main key's read back shows the call changed; undefined when nothing changed. */
  changed?: string
  readBack: ApiResponse
}

/** Sends `op` on the record with `client`, then reads the record back with the main key. */
async function attempt(ctx: CheckContext, client: ApiClient, resource: ResourceName, op: ItemWrite, record: AnyRecord, purpose: string): Promise<Attempt> {
  const body = changeBody(ctx, resource, op, record, purpose)
  const response = await sendItemWrite(ctx, resource, op, String(record.id), body, client)
  const readBack = await ctx.api.get(itemPath(resource, String(record.id)))
  const field = changedField(resource)
  let changed: string | undefined
  if (op === 'delete') changed = readBack.status === 404 ? `${resource} ${record.id} is gone (GET answers 404)` : undefined
  else if (!readBack.ok) changed = `GET ${RESOURCES[resource].path}/${record.id} answers ${readBack.status}`
  else if (field && body && readBack.body?.[field] === body[field]) changed = `${field} became ${JSON.stringify(body[field])}`
  return { op, response, changed, readBack }
}

function scopeCheck(resource: ResourceName, op: ItemWrite): CheckDefinition {
  const spec = RESOURCES[resource]
  const scope = scopeFor(resource, op)
  return defineCheck({
    id: `auth.scope.${resource}.${op}`,
    clauses: ['§5.4', '§5.6', '§7.5', '§4.2'],
    level: 'MUST',
    area,
    title: `A restricted key may ${op} a record of ${spec.path} only with ${scope} (a read scope is not enough): without it, 403 and the record unchanged; with it, served`,
    keys: ['restricted'],
    writes: createNeeds(resource),
    async run(ctx) {
      const { scopes } = await restrictedScopes(ctx)
      const restricted = ctx.as('restricted')
      // §1.1: what a key may do matches what its owner may do in the application, which may be limited to the
      // owner's own records; a key that may create here writes to a record it made itself.
      const maker = scopes.includes(scopeFor(resource, 'create')) ? restricted : ctx.api
      const record = await ownRecord(ctx, resource, `auth guard ${op}`, maker)
      const a = await attempt(ctx, restricted, resource, op, record, `auth guard ${op} change`)
      const res = a.response
      const readable = scopes.includes(scopeFor(resource, 'get'))
      if (scopes.includes(scope)) {
        if (res.ok) return
        // A write scope without the read one: the key may not see the record (§5.7), so a 404 says nothing of the scope.
        if (!readable && res.status === 404) ctx.skip(`the key has ${scope} but not ${scopeFor(resource, 'get')}, and the record it cannot see answered 404`)
        ctx.fail(`${res.exchange.request.method} ${spec.path}/{id} answered ${res.status} for a key with ${scope}, expected a 2xx (§5.4)`, {
          expected: OWNER_ROLE_HINT,
          exchanges: [res.exchange],
          data: res.body,
        })
      }
      ctx.observe('restrictedKey.readsArea', readable)
      if (res.ok || a.changed) {
        ctx.fail(
          `${res.exchange.request.method} ${spec.path}/{id} with a key without ${scope}${readable ? ` (it has ${scopeFor(resource, 'get')})` : ''} answered ${res.status}${a.changed ? `, and ${a.changed}` : ''} (§5.4, §5.6)`,
          {
            expected: `the ${op} needs ${scope} (§4.2); a call refused by scope is 403 and changes nothing (§5.6)`,
            exchanges: [res.exchange, a.readBack.exchange],
          },
        )
      }
      // §5.6 and §5.7 both apply when the key may not even read the area: which one answers is not shown.
      expectErrorEnvelope(res, '§5.6', { status: readable ? 403 : [403, 404] })
    },
  })
}

interface KeyGuard {
  role: KeyRole
  /** `auth.<id>.…` */
  id: string
  what: string
  status: 401 | 403
  clauses: string[]
  why: string
}

const REVOKED: KeyGuard = {
  role: 'revoked',
  id: 'revoked-key',
  what: 'a revoked key',
  status: 401,
  clauses: ['§5.5', '§7.4'],
  why: 'a key that is no longer valid gives 401 (§5.5), whatever the call',
}
const IP_BLOCKED: KeyGuard = {
  role: 'ipBlocked',
  id: 'ip-blocked',
  what: 'a key whose IP allowlist excludes the caller',
  status: 403,
  clauses: ['§5.6', '§5.3', '§7.5'],
  why: "allowed calls are limited by the key's IP allowlist (§5.3 c), reads and writes alike; a refused call is 403 (§5.6)",
}

/** An update and a delete of the run's own account with the guarded key: each refused, the account unchanged. */
function itemWritesCheck(g: KeyGuard): CheckDefinition {
  return defineCheck({
    id: `auth.${g.id}.item-writes`,
    clauses: [...g.clauses, '§4.2'],
    level: 'MUST',
    area,
    title: `An update and a delete of a record with ${g.what} are answered ${g.status} with the error envelope and change nothing`,
    keys: [g.role],
    writes: 'safe',
    async run(ctx) {
      const record = (await createRecord(ctx, 'account', { name: runLabel(ctx, `auth ${g.id} target`) }, { validate: false })).record
      const client = ctx.as(g.role)
      const attempts = [
        await attempt(ctx, client, 'account', 'update', record, `auth ${g.id} change`),
        await attempt(ctx, client, 'account', 'delete', record, `auth ${g.id} delete`),
      ]
      for (const a of attempts) {
        if (a.response.ok || a.changed) {
          ctx.fail(
            `${a.response.exchange.request.method} ${RESOURCES.account.path}/{id} with ${g.what} answered ${a.response.status}${a.changed ? `, and ${a.changed}` : ''}; expected ${g.status}`,
            { expected: g.why, exchanges: [a.response.exchange, a.readBack.exchange] },
          )
        }
        expectErrorEnvelope(a.response, g.clauses[0]!, { status: g.status })
      }
    },
  })
}

/** A create from outside the allowlist: refused with 403, and no record made (read back with the main key). */
const ipBlockedWrite = defineCheck({
  id: 'auth.ip-blocked.write',
  clauses: ['§5.6', '§5.3', '§7.5'],
  level: 'MUST',
  area,
  title: 'A create with a key whose IP allowlist excludes the caller is answered 403 and creates nothing',
  keys: ['ipBlocked'],
  writes: 'safe',
  async run(ctx) {
    const valid = await validCreateBody(ctx, 'account', 'auth ip-blocked create')
    const before = await baseline(ctx, 'account', valid)
    const res = await ctx.as('ipBlocked').post(RESOURCES.account.path, tagged(ctx, 'account', valid.body))
    expectCreateNotAccepted(ctx, 'account', res, { status: 403, clause: '§5.6', why: IP_BLOCKED.why })
    expectErrorEnvelope(res, '§5.6', { status: 403 })
    const after = await createdDespite(ctx, 'account', valid, before)
    if (after.created.length > 0) {
      ctx.fail(`the create was refused with ${res.status} but account ${after.created[0]} was created (§5.6)`, {
        expected: IP_BLOCKED.why,
        exchanges: [res.exchange, after.response.exchange],
      })
    }
  },
})

export const checks: CheckDefinition[] = [
  ...RESOURCE_LIST.flatMap((r) => itemWritesOf(r.name).map((op) => scopeCheck(r.name, op))),
  itemWritesCheck(REVOKED),
  ipBlockedWrite,
  itemWritesCheck(IP_BLOCKED),
]
