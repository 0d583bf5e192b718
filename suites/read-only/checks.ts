// §4.2 read sides and the writes that do not exist: every resource answers 404 with the error envelope for an
// unknown id (§5.7, §7.6) and refuses an id that is not a uuid; no write method is accepted where §4.2 lists none
// (articles and users are read only; orders, payments, activities, messages and comments are never changed or
// removed; invoices and products are never removed). Lists and gets are judged by the records area, filters by
// the filters area.
import { expectErrorEnvelope, defineCheck, itemPath, runLabel, safeEmail, trackCreated, RESOURCE_LIST } from '../../src/checks/index.ts'
import type { CheckContext, CheckDefinition, ApiResponse, ResourceName, ResourceSpec } from '../../src/checks/index.ts'
import { randomUUID } from 'node:crypto'
import { deleteTarget, patchBody, putBody, rewriteTarget, type Target } from './targets.ts'

const area = 'read-only'

function unknownId(r: ResourceSpec): CheckDefinition {
  return defineCheck({
    id: `${area}.${r.name}.unknown-id`,
    clauses: ['§5.7', '§7.6', '§7.1'],
    level: 'MUST',
    area,
    title: `GET ${r.path}/{id} of a well-formed id no ${r.name} has answers 404 with the error envelope`,
    async run(ctx) {
      const res = await ctx.api.get(itemPath(r.name, randomUUID()))
      expectErrorEnvelope(res, '§7.6', { status: 404 })
      ctx.observe('errorCode', res.body.error.code)
    },
  })
}

function nonUuidId(r: ResourceSpec): CheckDefinition {
  return defineCheck({
    id: `${area}.${r.name}.non-uuid-id`,
    clauses: ['§4.1', '§7.1'],
    level: 'INFO',
    area,
    title: `GET ${r.path}/{id} of an id that is not a uuid is refused with 400 or 404 and the error envelope (which one is the server's choice)`,
    async run(ctx) {
      const res = await ctx.api.get(`${r.path}/not-a-uuid`)
      ctx.observe('status', res.status)
      expectErrorEnvelope(res, '§4.1: id is a required uuid', { status: [400, 404] })
    },
  })
}

type Method = 'POST' | 'PATCH' | 'PUT' | 'DELETE'

/**
 * A write §4.2 does not list is not accepted: any 4xx (405, 404, 400, 403…) or 501 passes, a 2xx fails. Which 4xx
 * is not shown: a 404 is a legal answer for a method the server does not route, judged on a record that exists
 * (and, for DELETE, read back: still there). A 404 for an id no record has is inconclusive (the same answer
 * whether or not the method exists): skipped, never passed.
 */
function judgeRefusal(ctx: CheckContext, r: ResourceSpec, method: Method, res: ApiResponse, target?: Target): void {
  ctx.observe('status', res.status)
  if (target) ctx.observe('target', target.kind)
  const path = target ? `${r.path}/{id}` : r.path
  if (res.ok) {
    if (method === 'POST' && typeof res.body?.id === 'string') trackCreated(ctx, r.name, res.body.id)
    if (method === 'DELETE' && target) ctx.session.ledger.forget(target.id)
    ctx.fail(`${method} ${path} answered ${res.status}: the write was accepted, but §4.2 lists no such operation for ${r.path}`, {
      expected: 'a 4xx refusal (405, 404, 400…) or 501 (§4.2: no create, update or delete beyond the table)',
      exchanges: [res.exchange],
      data: res.body,
    })
  }
  if (res.status === 404 && target?.kind === 'unknown') {
    ctx.skip(
      `${method} ${path} on an id no record has answered 404, the same answer whether or not ${method} exists; the run has no ${r.name} of its own to send it to`,
    )
  }
  if (!((res.status >= 400 && res.status < 500) || res.status === 501)) {
    ctx.fail(`${method} ${path}: status is ${res.status}, expected a 4xx refusal or 501 (§4.2)`, { exchanges: [res.exchange], data: res.body })
  }
}

/** A refused DELETE removed nothing: the record reads back (§4.2 lists no delete; a 4xx that deletes all the same fails). */
async function expectStillThere(ctx: CheckContext, r: ResourceSpec, path: string, refusal: ApiResponse): Promise<void> {
  const after = await ctx.api.get(path)
  ctx.observe('readBack', after.status)
  if (after.status === 404) {
    ctx.fail(`DELETE ${r.path}/{id} answered ${refusal.status}, yet the ${r.name} is gone: GET answers 404`, {
      expected: `the ${r.name} still there (§4.2 lists no delete for ${r.path})`,
      exchanges: [refusal.exchange, after.exchange],
      data: after.body,
    })
  }
  if (after.status !== 200) {
    ctx.fail(`GET ${r.path}/{id} after a refused DELETE: status is ${after.status}, expected 200 (the record still there)`, {
      exchanges: [refusal.exchange, after.exchange],
      data: after.body,
    })
  }
}

/** §4.2 "No create … exists for articles, users": a body that would be valid elsewhere, harmless if accepted. */
const CREATE_BODIES: Partial<Record<ResourceName, (ctx: CheckContext) => Record<string, unknown>>> = {
  article: (ctx) => ({
    slug: `crmconf-${ctx.runId}`.toLowerCase(),
    visibility: 'internal',
    status: 'draft',
    tags: [ctx.session.runTag],
    translations: [{ language: 'en', title: runLabel(ctx, 'article'), body: '<p>crmconf</p>' }],
  }),
  user: (ctx) => ({ email: safeEmail(`user ${ctx.runId}`), displayName: runLabel(ctx, 'user'), status: 'inactive' }),
}

function createRefused(r: ResourceSpec): CheckDefinition {
  return defineCheck({
    id: `${area}.${r.name}.create-refused`,
    clauses: ['§4.2'],
    level: 'MUST',
    area,
    title: `POST ${r.path} is not accepted: §4.2 lists no create for ${r.path}`,
    writes: 'safe',
    async run(ctx) {
      const body = CREATE_BODIES[r.name]?.(ctx) ?? { name: runLabel(ctx, r.name) }
      judgeRefusal(ctx, r, 'POST', await ctx.api.post(r.path, body))
    },
  })
}

const ITEM_METHODS: { method: Exclude<Method, 'POST'>; property: string; absent: (r: ResourceSpec) => boolean; what: string }[] = [
  { method: 'PATCH', property: 'patch-refused', absent: (r) => !r.ops.update && !r.ops.replace, what: 'update' },
  { method: 'PUT', property: 'put-refused', absent: (r) => !r.ops.update && !r.ops.replace, what: 'update or replace' },
  { method: 'DELETE', property: 'delete-refused', absent: (r) => !r.ops.delete, what: 'delete' },
]

function itemWriteRefused(r: ResourceSpec, m: (typeof ITEM_METHODS)[number]): CheckDefinition {
  return defineCheck({
    id: `${area}.${r.name}.${m.property}`,
    clauses: ['§4.2'],
    level: 'MUST',
    area,
    title: `${m.method} ${r.path}/{id} is not accepted: §4.2 lists no ${m.what} for ${r.path}`,
    writes: 'safe',
    async run(ctx) {
      const target = m.method === 'DELETE' ? await deleteTarget(ctx, r.name) : await rewriteTarget(ctx, r.name)
      const path = itemPath(r.name, target.id)
      const res =
        m.method === 'DELETE'
          ? await ctx.api.delete(path)
          : m.method === 'PATCH'
            ? await ctx.api.patch(path, patchBody(target))
            : await ctx.api.put(path, putBody(target))
      judgeRefusal(ctx, r, m.method, res, target)
      if (m.method === 'DELETE' && target.kind !== 'unknown') await expectStillThere(ctx, r, path, res)
    },
  })
}

export const checks: CheckDefinition[] = [
  ...RESOURCE_LIST.map(unknownId),
  ...RESOURCE_LIST.map(nonUuidId),
  ...RESOURCE_LIST.filter((r) => !r.ops.create).map(createRefused),
  ...RESOURCE_LIST.flatMap((r) => ITEM_METHODS.filter((m) => m.absent(r)).map((m) => itemWriteRefused(r, m))),
]
