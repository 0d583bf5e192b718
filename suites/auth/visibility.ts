// §5.7, §7.6: a record the key cannot see is answered 404, as if it did not exist. A key of another workspace
// (CRM_API_KEY_FOREIGN) never reads, changes, deletes, lists or filters its way to the main key's records;
// an id that names nothing is a 404 for the main key too.
import { expectErrorEnvelope, defineCheck, createRecord, itemPath, updateRecord, readUntil, RESOURCES } from '../../src/checks/index.ts'
import type { CheckContext, CheckDefinition, AnyRecord, ApiResponse, Query } from '../../src/checks/index.ts'
import { randomUUID } from 'node:crypto'
import { validCreateBody } from '../shared/bodies.ts'

const area = 'auth'
const CLAUSES = ['§5.7', '§7.6', '§5.2']

interface MainAccount {
  record: AnyRecord
  email: string
}

async function newAccount(ctx: CheckContext, purpose: string): Promise<MainAccount> {
  const valid = await validCreateBody(ctx, 'account', purpose)
  const { record } = await createRecord(ctx, 'account', valid.body)
  return { record, email: String(valid.body.email) }
}

/**
 * One account of the main workspace, shared by the checks that only read or try to change it. It is listed to the
 * main key before any check judges the foreign key's lists: one fed by an index could otherwise leave it out only
 * because it has not caught up, and a leak would pass unseen.
 */
function sharedAccount(ctx: CheckContext): Promise<MainAccount> {
  return ctx.session.memo('auth.main-account', async () => {
    const account = await newAccount(ctx, 'auth visibility')
    await readUntil(
      ctx,
      () => ctx.api.get(RESOURCES.account.path, { email: account.email, limit: 100 }),
      (l) => !l.ok || (Array.isArray(l.body?.data) && l.body.data.some((r: AnyRecord) => r?.id === account.record.id)),
    )
    return account
  })
}

/** An id no workspace holds: what the foreign key gets for it is what "does not exist" looks like to that key. */
const NOWHERE = randomUUID()

/**
 * Fails with the response when the foreign key got the record or changed it, or was answered differently than
 * for an id that names nothing. A 401 or 403 that the key also gets for that id is about the key (it lacks
 * accounts:read or accounts:write, §5.6), not about the record, so §5.7 cannot be judged.
 */
async function refuseSuccess(ctx: CheckContext, res: ApiResponse, what: string, send: (id: string) => Promise<ApiResponse>): Promise<void> {
  if (res.ok) {
    ctx.fail(`${what}: status is ${res.status}, expected 404 (§5.7)`, {
      expected: "another workspace's record is answered 404, as if it did not exist (§5.7, §7.6)",
      exchanges: [res.exchange],
    })
  }
  if (res.status === 401 || res.status === 403) {
    const nothing = await send(NOWHERE)
    if (nothing.status === res.status) {
      ctx.skip(`CRM_API_KEY_FOREIGN is answered ${res.status} even for an id that names nothing: give it accounts:read and accounts:write`)
    }
    ctx.fail(`${what}: status is ${res.status}, but ${nothing.status} for an id that names nothing: the answer tells the record exists (§5.7)`, {
      expected: "another workspace's record is answered as if it did not exist: 404 (§5.7, §7.6)",
      exchanges: [res.exchange, nothing.exchange],
    })
  }
  expectErrorEnvelope(res, '§5.7', { status: 404 })
}

/** The foreign key's list of accounts, or a skip when it may not list them at all. */
async function foreignList(ctx: CheckContext, query: Query): Promise<ApiResponse> {
  const res = await ctx.as('foreign').get(RESOURCES.account.path, query)
  if (res.status === 401 || res.status === 403) ctx.skip(`CRM_API_KEY_FOREIGN may not list accounts (status ${res.status}): give it accounts:read`)
  if (!res.ok || !Array.isArray(res.body?.data)) {
    ctx.fail(`list /accounts with the foreign key: status ${res.status}${Array.isArray(res.body?.data) ? '' : ', no data array'} (§4.1)`, {
      exchanges: [res.exchange],
    })
  }
  return res
}

function leaks(res: ApiResponse, account: MainAccount): boolean {
  return (res.body.data as AnyRecord[]).some((r) => r?.id === account.record.id)
}

const foreignChecks: CheckDefinition[] = [
  defineCheck({
    id: 'auth.foreign.get',
    clauses: CLAUSES,
    level: 'MUST',
    area,
    title: "A key of another workspace gets 404 for a record of the main key's workspace",
    keys: ['foreign'],
    writes: 'safe',
    async run(ctx) {
      const account = await sharedAccount(ctx)
      // The mistake: a get by id that looks the id up without the key's workspace.
      const get = (id: string) => ctx.as('foreign').get(itemPath('account', id))
      await refuseSuccess(ctx, await get(account.record.id), 'get by the foreign key', get)
    },
  }),
  defineCheck({
    id: 'auth.foreign.update',
    clauses: CLAUSES,
    level: 'MUST',
    area,
    title: "A key of another workspace gets 404 when it updates the main workspace's record, which stays unchanged",
    keys: ['foreign'],
    writes: 'safe',
    async run(ctx) {
      const account = await sharedAccount(ctx)
      const update = (id: string) => updateRecord(ctx, 'account', id, { name: 'crmconf changed by another workspace' }, ctx.as('foreign'))
      const res = await update(account.record.id)
      await refuseSuccess(ctx, res, 'update by the foreign key', update)
      const now = await ctx.api.get(itemPath('account', account.record.id))
      if (now.ok && now.body?.name !== account.record.name) {
        ctx.fail(`the update was refused with ${res.status} but the name changed to ${JSON.stringify(now.body?.name)} (§5.7)`, {
          exchanges: [res.exchange, now.exchange],
        })
      }
    },
  }),
  defineCheck({
    id: 'auth.foreign.delete',
    clauses: CLAUSES,
    level: 'MUST',
    area,
    title: "A key of another workspace gets 404 when it deletes the main workspace's record, which stays",
    keys: ['foreign'],
    writes: 'safe',
    async run(ctx) {
      // Its own record: if the delete goes through, no other check loses its fixture.
      const account = await newAccount(ctx, 'auth foreign delete')
      const remove = (id: string) => ctx.as('foreign').delete(itemPath('account', id))
      const res = await remove(account.record.id)
      await refuseSuccess(ctx, res, 'delete by the foreign key', remove)
      const still = await ctx.api.get(itemPath('account', account.record.id))
      if (still.status === 404) {
        ctx.fail(`the delete was refused with ${res.status} but the record is gone (§5.7)`, { exchanges: [res.exchange, still.exchange] })
      }
    },
  }),
  defineCheck({
    id: 'auth.foreign.list',
    clauses: CLAUSES,
    level: 'MUST',
    area,
    title: "A key of another workspace never sees the main workspace's records in its lists",
    keys: ['foreign'],
    writes: 'safe',
    async run(ctx) {
      const account = await sharedAccount(ctx)
      // Newest first (§4.1 defaults, made explicit): the main key's fresh record would be on this page.
      const res = await foreignList(ctx, { limit: 100, sort: 'createdAt', order: 'desc' })
      if (leaks(res, account)) ctx.fail(`the foreign key's list holds account ${account.record.id} of the main workspace (§5.7)`, { exchanges: [res.exchange] })
    },
  }),
  defineCheck({
    id: 'auth.foreign.filter',
    clauses: [...CLAUSES, '§4.3'],
    level: 'MUST',
    area,
    title: "A key of another workspace filtering by a main-workspace record's email finds nothing of it",
    keys: ['foreign'],
    writes: 'safe',
    async run(ctx) {
      const account = await sharedAccount(ctx)
      const res = await foreignList(ctx, { email: account.email })
      if (leaks(res, account))
        ctx.fail(`the foreign key's email filter finds account ${account.record.id} of the main workspace (§5.7)`, { exchanges: [res.exchange] })
    },
  }),
]

// An unknown id answered 404 is checked once, for every resource, by read-only.<resource>.unknown-id.
export const checks: CheckDefinition[] = [...foreignChecks]
