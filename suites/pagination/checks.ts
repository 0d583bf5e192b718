// §4.1 list parameters, §8 page size, §9.2 cursor pagination and incremental sync: the default and bounds of
// limit, createdSince and updatedSince strictly after their bound, and 400 for parameters outside their types; a
// complete walk by nextCursor and sort and order are in walk-checks.ts, the walks of the child set in walks.ts.
// The last page's nextCursor must be a string (§2); its value is observed, never judged (§4.1).
import {
  expectErrorEnvelope,
  defineCheck,
  runLabel,
  updateRecord,
  readUntil,
  LIMITS,
  RESOURCES,
  pageSizeProblem,
  sinceSides,
  timestampPrecision,
  SINCE_FIELD,
  counted,
} from '../../src/checks/index.ts'
import type { CheckContext, CheckDefinition, ApiResponse, AnyRecord, SinceParam } from '../../src/checks/index.ts'
import { childSet, listSource, overPageList, probeCollections } from './fixtures.ts'
import { BAD_PARAMETERS, badParameterResponse, type BadParameter } from './params.ts'
import { ids, listPage, moreAfter } from './pages.ts'
import { sinceFormChecks } from './since-forms.ts'
import { cursorOnEveryPage, sortDefault, sortOrder, walkComplete } from './walk-checks.ts'
import { walkChecks } from './walks.ts'

const area = 'pagination'
const ACCOUNTS = RESOURCES.account.path

const limitDefault = defineCheck({
  id: 'pagination.limit.default',
  clauses: ['§4.1', '§8'],
  level: 'MUST',
  area,
  writes: 'if-allowed',
  title: 'A list without limit returns pages of 25 records when the collection holds more',
  async run(ctx) {
    const { large, probes } = await probeCollections(ctx)
    let path = large?.path
    let query: Record<string, string> = {}
    let holds = large?.count ?? 0
    if (!path) {
      if (ctx.profile === 'read-only')
        ctx.skip(
          `no collection holds ${LIMITS.pageSizeDefault + 2} records or more (${probes.map((p) => `${p.path}: ${p.count}`).join(', ')}) and the read-only profile creates none`,
        )
      const set = await childSet(ctx)
      path = ACCOUNTS
      query = set.query
      holds = set.records.length
    }
    const res = await listPage(ctx, path, query)
    const n = res.body.data.length
    ctx.observe('collection', `${path}${query.parentId ? '?parentId=…' : ''} (${holds} records)`)
    // The collection holds more than a page: records follow this one.
    if (pageSizeProblem(undefined, n, true) !== undefined) {
      ctx.fail(
        `a list without limit returned ${n} records${moreAfter(res) ? ' and a nextCursor' : ''} from a collection of at least ${holds}, expected ${LIMITS.pageSizeDefault} (§4.1, §8)`,
        {
          expected: 'limit: default 25 (§4.1); page size 1–100, default 25 (§8)',
          exchanges: [res.exchange],
        },
      )
    }
  },
})

const limitOne = defineCheck({
  id: 'pagination.limit.one',
  clauses: ['§4.1', '§8'],
  level: 'MUST',
  area,
  title: 'limit=1 returns one record, and its nextCursor leads to the next record',
  async run(ctx) {
    const { probes } = await probeCollections(ctx)
    const users = RESOURCES.user.path
    const known = probes.find((p) => p.path === users)?.count
    const first = await listPage(ctx, users, { limit: 1 })
    if (first.body.data.length === 0) ctx.skip('GET /users lists no user')
    if (first.body.data.length !== 1) ctx.fail(`limit=1 returned ${first.body.data.length} records, expected 1 (§4.1)`, { exchanges: [first.exchange] })
    if (known === undefined || known < 2)
      ctx.skip(
        `${known === undefined ? 'GET /users?limit=100 was not listed' : `GET /users lists ${known} user`}: no next record for the nextCursor of a limit=1 page to lead to`,
      )
    if (!moreAfter(first)) {
      ctx.fail(
        `limit=1 on ${known} users returned nextCursor ${JSON.stringify(first.body.nextCursor)}: the page ends the list with records left (§4.1, §9.2)`,
        {
          expected: 'a nextCursor that leads to the next page',
          exchanges: [probes.find((p) => p.path === users)!.response.exchange, first.exchange],
        },
      )
    }
    const second = await listPage(ctx, users, { limit: 1, cursor: first.body.nextCursor as string })
    const [a, b] = [first.body.data[0]?.id, second.body.data[0]?.id]
    if (second.body.data.length !== 1 || a === b) {
      ctx.fail(
        `the page after a limit=1 page holds ${counted(second.body.data.length, 'record')}${a === b ? ', the same record again' : ''}, expected 1 other record (§4.1)`,
        { exchanges: [first.exchange, second.exchange] },
      )
    }
  },
})

const limitMax = defineCheck({
  id: 'pagination.limit.max-100',
  clauses: ['§8', '§4.1'],
  level: 'MUST',
  area,
  title: 'No list page ever holds more than 100 records, whatever limit asks',
  // Judged at the run's end, on the list of more than 100 that pagination.limit.hundred-full reads (fixtures.ts).
  phase: 'last',
  writes: 'if-allowed',
  async run(ctx) {
    const { over100: large } = await probeCollections(ctx)
    if (large) {
      for (const limit of [LIMITS.pageSizeMax, LIMITS.pageSizeMax + 1]) {
        const res = await ctx.api.get(large.path, { limit })
        if (res.ok && Array.isArray(res.body?.data) && pageSizeProblem(String(limit), res.body.data.length, false) !== undefined) {
          ctx.fail(`limit=${limit} on ${large.path} returned ${res.body.data.length} records, more than 100 (§8)`, {
            expected: 'page size 1–100 (§8)',
            exchanges: [res.exchange],
          })
        }
      }
      return
    }
    // The run's own list of more than 100 records, where it may write: limit=101 there shows whether a page can exceed 100.
    if (ctx.profile !== 'read-only') {
      const list = await overPageList(ctx)
      if (list.own > LIMITS.pageSizeMax) {
        const res = await ctx.api.get(ACCOUNTS, { limit: LIMITS.pageSizeMax + 1 })
        if (res.status >= 500)
          ctx.fail(`limit=101 answered ${res.status}: neither a page of at most 100 nor a refusal (§8, §7.3)`, { exchanges: [res.exchange] })
        const n = res.ok && Array.isArray(res.body?.data) ? res.body.data.length : 0
        ctx.observe('limit101', res.ok ? `${n} records` : `refused ${res.status}`)
        if (pageSizeProblem('101', n, false) !== undefined) {
          ctx.fail(`limit=101 on a list of at least ${list.own} accounts returned ${n} records, more than 100 (§4.1, §8)`, {
            expected: 'page size 1–100 (§4.1, §8): a page of at most 100, or a refusal of limit=101',
            exchanges: [res.exchange],
          })
        }
        return
      }
    }
    const res = await badParameterResponse(
      ctx,
      BAD_PARAMETERS.find((b) => b.id === 'limit.rejects-101')!,
    )
    if (res.status >= 500) ctx.fail(`limit=101 answered ${res.status}: neither a page of at most 100 nor a refusal (§8, §7.3)`, { exchanges: [res.exchange] })
    // Refused (4xx): a page over 100 is never served.
    if (!res.ok) return
    const n = Array.isArray(res.body?.data) ? res.body.data.length : 0
    if (pageSizeProblem('101', n, false) !== undefined)
      ctx.fail(`limit=101 returned ${n} records, more than 100 (§8)`, { expected: 'page size 1–100 (§8)', exchanges: [res.exchange] })
    ctx.skip(`limit=101 was accepted (${res.status}) and no collection holds more than 100 records: whether pages are capped at 100 cannot be seen`)
  },
})

function rejects(bad: BadParameter): CheckDefinition {
  return defineCheck({
    id: `pagination.${bad.id}`,
    clauses: ['§4.1', '§7.3', ...(bad.param === 'limit' ? ['§8'] : [])],
    level: bad.level,
    area,
    title: `A list with ${bad.param}=${bad.value} is refused with 400 and the error envelope`,
    async run(ctx) {
      const res = await badParameterResponse(ctx, bad)
      if (res.ok && Array.isArray(res.body?.data)) ctx.observe('returned', res.body.data.length)
      // The answer may have been fetched by another check of this area; the assertion names its exchange.
      expectErrorEnvelope(res, '§7.3', { status: 400 })
    },
  })
}

const invalidRequestCode = defineCheck({
  id: 'pagination.params.invalid-request-code',
  clauses: ['§7.3'],
  level: 'SHOULD',
  area,
  title: 'A 400 for a list parameter outside its type carries the code invalid_request',
  async run(ctx) {
    const answers = await Promise.all(BAD_PARAMETERS.map(async (bad) => ({ bad, res: await badParameterResponse(ctx, bad) })))
    const refused = answers.filter(({ res }) => res.status === 400)
    if (refused.length === 0) ctx.skip('no bad list parameter was answered 400')
    const other = refused.filter(({ res }) => res.body?.error?.code !== 'invalid_request')
    if (other.length > 0) {
      ctx.fail(
        `${other.length} of ${refused.length} 400s for bad list parameters have another code: ${other.map(({ bad, res }) => `${bad.param}=${bad.value} → ${JSON.stringify(res.body?.error?.code)}`).join(', ')} (§7.3)`,
        {
          expected: '§7.3: invalid or missing fields give 400 with code invalid_request',
          exchanges: other.slice(0, 3).map(({ res }) => res.exchange),
        },
      )
    }
  },
})

/** The run's records on each side of a createdSince bound taken from one of them, and the list answered. */
async function createdSinceProbe(ctx: CheckContext) {
  const src = await listSource(ctx)
  if (!src.records) return ctx.skip(`${src.path} holds more than ${LIMITS.pageSizeMax} records: the records after a bound cannot all be known`)
  const known = [...src.records].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt))
  const bound = known[Math.floor(known.length / 2)]!
  const since = String(bound.createdAt)
  const res = await listPage(ctx, src.path, { ...src.query, createdSince: since, limit: LIMITS.pageSizeMax })
  return { known, since, res, returned: new Set(ids(res.body.data)) }
}

const createdSince = defineCheck({
  id: 'pagination.createdSince.strictly-after',
  clauses: ['§4.1'],
  level: 'MUST',
  area,
  writes: 'if-allowed',
  title: 'createdSince returns every record created after the bound and none created before it',
  async run(ctx) {
    const { known, since, res, returned } = await createdSinceProbe(ctx)
    // A record shown exactly at the bound may be after it in the precision the server keeps: never judged here.
    const { before, after } = sinceSides('createdSince', since, known)!
    if (before.length + after.length === 0) ctx.skip(`all ${known.length} records listed share the bound's createdAt ${since}: none is before or after it`)
    const early = before.find((r) => returned.has(r.id))
    if (early) {
      ctx.fail(`createdSince=${since} returned ${early.id}, created before the bound (${early.createdAt}) (§4.1)`, {
        expected: '§4.1 createdSince: "only records created after this time"',
        exchanges: [res.exchange],
      })
    }
    const missing = after.find((r) => !returned.has(r.id))
    if (missing) {
      ctx.fail(`createdSince=${since} left out ${missing.id}, created after the bound (${missing.createdAt}) (§4.1)`, {
        expected: '§4.1 createdSince: every record created after this time',
        exchanges: [res.exchange],
      })
    }
  },
})

/**
 * §4.1 "after this time": a record the since-list returned although its shown time is the bound itself. Failed only
 * when the server shows timestamps in one fixed precision (taken as the one it stores); where the digits vary the
 * shown value may hide a later instant (microseconds shown as milliseconds), and the check skips, saying so.
 */
function judgeBound(ctx: CheckContext, param: SinceParam, since: string, res: ApiResponse & { body: { data: AnyRecord[] } }, seen: AnyRecord[]): void {
  const field = SINCE_FIELD[param]
  const data: AnyRecord[] = res.body.data
  const atBound = sinceSides(param, since, data)?.atBound ?? []
  ctx.observe('boundRecordIncluded', atBound.length > 0)
  if (atBound.length === 0) return
  const precision = timestampPrecision([...seen, ...data])
  ctx.observe('fractionDigitsShown', precision.digits)
  const which = `${param}=${since} returned ${atBound[0]!.id}, whose ${field} is the bound itself`
  if (!precision.uniform) {
    ctx.skip(`${which}; timestamps are shown with ${precision.digits.join(' or ')} fractional digits, so the shown value may hide a later instant`)
  }
  ctx.fail(`${which}, although every timestamp seen has ${precision.digits[0]} fractional digits (§4.1)`, {
    expected: `§4.1 ${param}: only records ${field === 'createdAt' ? 'created' : 'changed'} after this time; a record shown at the bound, in the precision the server shows throughout, is not after it`,
    exchanges: [res.exchange],
  })
}

const excludesBound = defineCheck({
  id: 'pagination.createdSince.excludes-bound',
  clauses: ['§4.1'],
  level: 'SHOULD',
  area,
  writes: 'if-allowed',
  title: 'createdSince leaves out the record created at the bound itself, where the server shows timestamps in one fixed precision',
  async run(ctx) {
    const { known, since, res } = await createdSinceProbe(ctx)
    judgeBound(ctx, 'createdSince', since, res, known)
  },
})

const updatedExcludesBound = defineCheck({
  id: 'pagination.updatedSince.excludes-bound',
  clauses: ['§4.1', '§9.2'],
  level: 'SHOULD',
  area,
  writes: 'safe',
  title: 'updatedSince leaves out a record last changed at the bound itself, where the server shows timestamps in one fixed precision',
  async run(ctx) {
    const set = await childSet(ctx)
    const listed = await listPage(ctx, ACCOUNTS, { ...set.query, sort: 'updatedAt', order: 'asc', limit: LIMITS.pageSizeMax })
    const records: AnyRecord[] = listed.body.data
    if (records.length === 0) return ctx.skip('the isolated accounts are not listed')
    const since = String(records[Math.floor(records.length / 2)]!.updatedAt)
    const res = await listPage(ctx, ACCOUNTS, { ...set.query, updatedSince: since, sort: 'updatedAt', limit: LIMITS.pageSizeMax })
    // A record changed by another check meanwhile comes back with a later updatedAt, and is not judged.
    judgeBound(ctx, 'updatedSince', since, res, records)
  },
})

/** Waited once when the server's clock has not moved past the bound between two writes (coarse timestamps). */
const CLOCK_STEP_MS = 1_100

const updatedSince = defineCheck({
  id: 'pagination.updatedSince.incremental-sync',
  clauses: ['§9.2', '§4.1'],
  level: 'MUST',
  area,
  writes: 'safe',
  timeoutMs: 30_000,
  title: 'updatedSince with sort=updatedAt returns the records changed after the bound and none changed before it',
  async run(ctx) {
    const set = await childSet(ctx)
    const before = await listPage(ctx, ACCOUNTS, { ...set.query, sort: 'updatedAt', order: 'desc', limit: LIMITS.pageSizeMax })
    const listed: AnyRecord[] = before.body.data
    const latest = listed.reduce<AnyRecord | undefined>((m, r) => (m === undefined || Date.parse(r.updatedAt) > Date.parse(m.updatedAt) ? r : m), undefined)
    if (!latest) return ctx.skip('the isolated accounts are not listed')
    const since = String(latest.updatedAt)
    const target = set.records[0]!
    let changed: ApiResponse | undefined
    for (let attempt = 0; attempt < 2; attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, CLOCK_STEP_MS))
      changed = await updateRecord(ctx, 'account', target.id, { legalName: runLabel(ctx, 'pagination sync') })
      if (!changed.ok) ctx.skip(`updating account ${target.id} answered ${changed.status}; no change to sync`)
      if (Date.parse(changed.body?.updatedAt) > Date.parse(since)) break
    }
    if (!(Date.parse(changed!.body?.updatedAt) > Date.parse(since))) ctx.skip(`the update left updatedAt at ${changed!.body?.updatedAt}, not after ${since}`)
    // A list fed by an index shows the change a moment later: wait for it before judging what the sync returns.
    const changedAt = Date.parse(changed!.body?.updatedAt)
    const { answer: sync } = await readUntil(
      ctx,
      () => listPage(ctx, ACCOUNTS, { ...set.query, updatedSince: since, sort: 'updatedAt', limit: LIMITS.pageSizeMax }),
      (page) => page.body.data.some((r: AnyRecord) => r.id === target.id && Date.parse(r.updatedAt) >= changedAt),
    )
    const evidence = [before.exchange, changed!.exchange, sync.exchange]
    const synced: AnyRecord[] = sync.body.data
    // Strictly before only: a record shown exactly at the bound may carry more precision than it shows.
    const stale = sinceSides('updatedSince', since, synced)?.before ?? []
    if (stale.length > 0) {
      ctx.fail(
        `updatedSince=${since} returned ${stale.length} record(s) last changed at or before the bound: ${stale
          .slice(0, 3)
          .map((r) => `${r.id} (${r.updatedAt})`)
          .join(', ')} (§4.1, §9.2)`,
        {
          expected: '§4.1 updatedSince: "only records changed after this time"',
          exchanges: evidence,
        },
      )
    }
    if (!ids(synced).includes(target.id)) {
      ctx.fail(`updatedSince=${since} left out ${target.id}, changed after it (updatedAt ${changed!.body?.updatedAt}) (§9.2)`, {
        expected: '§9.2: incremental sync with updatedSince and sort=updatedAt returns every change after the bound',
        exchanges: evidence,
      })
    }
  },
})

export const checks: CheckDefinition[] = [
  limitDefault,
  limitOne,
  limitMax,
  ...BAD_PARAMETERS.map(rejects),
  invalidRequestCode,
  walkComplete,
  cursorOnEveryPage,
  sortDefault,
  ...(['createdAt', 'updatedAt'] as const).flatMap((key) => (['asc', 'desc'] as const).map((order) => sortOrder(key, order))),
  createdSince,
  excludesBound,
  updatedSince,
  updatedExcludesBound,
  ...walkChecks,
  ...sinceFormChecks,
]
