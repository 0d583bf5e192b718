// §4.1 Idempotency-Key: a retry with the same key and body within 24 hours returns the first response and
// creates no duplicate. What a different body does under the same key is not shown: observed, never judged.
// Accounts are used throughout: the API can delete them (safe profile), and the email filter isolates one.
import {
  defineCheck,
  CheckFailed,
  KEY_VARIABLES,
  createRecord,
  itemPath,
  runLabel,
  safeEmail,
  tagged,
  trackCreated,
  readUntil,
  RESOURCES,
  differingFields,
} from '../../src/checks/index.ts'
import type { CheckContext, CheckDefinition, KeyRole, AnyRecord, ApiClient, ApiResponse, Exchange } from '../../src/checks/index.ts'
import { restrictedScopes } from '../shared/restricted-scopes.ts'
import { everyCreateChecks, idempotencyKey, trackDuplicate } from './every-create.ts'
const area = 'idempotency'
const PATH = RESOURCES.account.path

/** A tagged account body with a unique name and, when asked, a unique email to find it by. */
function accountBody(ctx: CheckContext, purpose: string, withEmail: boolean): AnyRecord {
  const label = runLabel(ctx, purpose)
  return tagged(ctx, 'account', withEmail ? { name: label, email: safeEmail(label) } : { name: label })
}

interface First {
  key: string
  body: AnyRecord
  response: ApiResponse
  record: AnyRecord
}

/** The first create under an Idempotency-Key, shared by the checks that retry it. */
function firstCreate(ctx: CheckContext): Promise<First> {
  return ctx.session.memo('idempotency.first', async () => {
    const key = idempotencyKey(ctx)
    const body = accountBody(ctx, 'idempotency', true)
    // Sent exactly as built (already tagged), so that a retry can send the very same body.
    const { record, response } = await createRecord(ctx, 'account', body, { idempotencyKey: key, untagged: true })
    return { key, body, response, record }
  })
}

/** The retry of the first create: same key, same body, same API key. */
function retry(ctx: CheckContext): Promise<{ first: First; response: ApiResponse }> {
  return ctx.session.memo('idempotency.retry', async () => {
    const first = await firstCreate(ctx)
    const response = await ctx.api.post(PATH, first.body, { idempotencyKey: first.key })
    trackDuplicate(ctx, 'account', response, [first.record.id])
    return { first, response }
  })
}

/** Fails when the retry's record differs from the first response's in any field (§4.1: a replay is the first response). */
function expectSameRecord(ctx: CheckContext, first: AnyRecord, retried: AnyRecord, detail: { expected?: string; exchanges: Exchange[] }): void {
  const differs = differingFields(first, retried)
  if (differs.length > 0) {
    ctx.fail(`the retry's record differs from the first response in ${differs.join(', ')} (§4.1)`, {
      ...detail,
      data: Object.fromEntries(differs.map((k) => [k, { first: first[k], retry: retried[k] }])),
    })
  }
}

/** The key a second caller uses: the foreign one, else a restricted one that may create accounts. */
async function otherCaller(ctx: CheckContext): Promise<{ role: KeyRole; client: ApiClient }> {
  if (ctx.session.transport.hasKey('foreign')) return { role: 'foreign', client: ctx.as('foreign') }
  if (ctx.session.transport.hasKey('restricted')) {
    const { scopes } = await restrictedScopes(ctx)
    if (scopes.includes('accounts:write')) return { role: 'restricted', client: ctx.as('restricted') }
  }
  return ctx.skip(`needs ${KEY_VARIABLES.foreign}, or ${KEY_VARIABLES.restricted} with accounts:write`)
}

/**
 * How long the retention check waits before its retry: longer than a retention written in the wrong unit (24 s for
 * 24 h, the mistake this catches), short beside the run's other deliberate waits it runs next to.
 */
const RETENTION_PROBE_WAIT_MS = 25_000

export const checks: CheckDefinition[] = [
  // The mistake: the store's TTL in the wrong unit (24 s, 24 min), so a retry after a pause creates a duplicate.
  defineCheck({
    id: 'idempotency.replay.after-a-pause',
    clauses: ['§4.1', '§8'],
    level: 'MUST',
    area,
    title: `A create retried with the same Idempotency-Key and body ${RETENTION_PROBE_WAIT_MS / 1000} s later still returns the first response (retention is 24 hours)`,
    writes: 'safe',
    // Declared long so the scheduler starts it first: its wait runs beside the rest of the run.
    timeoutMs: RETENTION_PROBE_WAIT_MS + 60_000,
    async run(ctx) {
      const key = idempotencyKey(ctx)
      const body = accountBody(ctx, 'idempotency retention', false)
      const { record, response: first } = await createRecord(ctx, 'account', body, { idempotencyKey: key, untagged: true })
      await new Promise((resolve) => setTimeout(resolve, RETENTION_PROBE_WAIT_MS))
      const again = await ctx.api.post(PATH, body, { idempotencyKey: key })
      trackDuplicate(ctx, 'account', again, [record.id])
      if (again.status !== first.status || again.body?.id !== record.id) {
        ctx.fail(
          `the retry ${RETENTION_PROBE_WAIT_MS / 1000} s after the first create answered ${again.status} with record ${JSON.stringify(again.body?.id ?? null)}; the first response was ${first.status} with ${record.id} (§4.1: retried within 24 hours, the first response and no duplicate)`,
          {
            expected: 'the first response, status and record, for 24 hours (§4.1, §8 "Idempotency retention: 24 hours")',
            exchanges: [first.exchange, again.exchange],
          },
        )
      }
    },
  }),
  // The mistakes: the key ignored (a second record), or the replay built anew (201 became 200, fields changed).
  defineCheck({
    id: 'idempotency.same-key.replays',
    clauses: ['§4.1'],
    level: 'MUST',
    area,
    title: 'A create retried with the same Idempotency-Key and body returns the first response: same status, same record',
    writes: 'safe',
    async run(ctx) {
      const { first, response } = await retry(ctx)
      const evidence = [first.response.exchange, response.exchange]
      const replayedHeaders = Object.keys(response.exchange.response!.headers).filter((h) => first.response.header(h) === undefined)
      if (replayedHeaders.length > 0) ctx.observe('replay.extraHeaders', replayedHeaders)
      if (response.status !== first.response.status) {
        ctx.fail(`the retry answered ${response.status}, the first response was ${first.response.status} (§4.1)`, {
          expected: 'the first response, status included (§4.1)',
          exchanges: evidence,
        })
      }
      if (response.body?.id !== first.record.id) {
        ctx.fail(`the retry returned record ${JSON.stringify(response.body?.id ?? null)}, the first response was ${first.record.id} (§4.1)`, {
          exchanges: evidence,
        })
      }
      expectSameRecord(ctx, first.record, response.body, { exchanges: evidence })
    },
  }),
  defineCheck({
    id: 'idempotency.same-key.no-duplicate',
    clauses: ['§4.1'],
    level: 'MUST',
    area,
    title: 'A create retried with the same Idempotency-Key and body leaves exactly one record',
    writes: 'safe',
    async run(ctx) {
      const { first, response } = await retry(ctx)
      const email = String(first.body.email)
      const withEmail = (list: ApiResponse): AnyRecord[] =>
        // Counted here too, in case the server ignores the filter (the filters area judges that).
        list.ok && Array.isArray(list.body?.data)
          ? (list.body.data as AnyRecord[]).filter((r) => typeof r?.email === 'string' && r.email.toLowerCase() === email)
          : []
      const listed = (list: ApiResponse) => !list.ok || withEmail(list).some((r) => r.id === first.record.id)
      // A list fed by an index shows writes late: a count taken before it shows the retry proves nothing. Wait
      // until it shows the first record, then until it shows a control account created after the retry, so
      // that a duplicate made by the retry, earlier than the control, is listed too.
      const firstShown = await readUntil(ctx, () => ctx.api.get(PATH, { email, limit: 100 }), listed)
      const control = await createRecord(ctx, 'account', accountBody(ctx, 'idempotency control', true), { untagged: true })
      const controlEmail = String(control.record.email ?? '').toLowerCase()
      const controlShown = await readUntil(
        ctx,
        () => ctx.api.get(PATH, { email: controlEmail, limit: 100 }),
        (l) => !l.ok || (Array.isArray(l.body?.data) && l.body.data.some((r: AnyRecord) => r?.id === control.record.id)),
      )
      const list = firstShown.shown && controlShown.shown ? await ctx.api.get(PATH, { email, limit: 100 }) : firstShown.answer
      if (!list.ok || !Array.isArray(list.body?.data)) ctx.skip(`the list filtered by email answered ${list.status}; cannot count the records`)
      const found = withEmail(list)
      for (const r of found) if (r.id !== first.record.id) trackCreated(ctx, 'account', String(r.id))
      ctx.observe('recordsWithTheEmail', found.length)
      if (found.length > 1) {
        ctx.fail(`${found.length} accounts carry the email of one create retried under the same Idempotency-Key (§4.1)`, {
          expected: 'a retry with the same key and body creates no duplicate (§4.1)',
          exchanges: [first.response.exchange, response.exchange, list.exchange],
        })
      }
      if (!found.some((r) => r.id === first.record.id)) {
        ctx.skip(`account ${first.record.id} is not listed by its email within ${ctx.config.consistencyWindowMs} ms (CRM_CONSISTENCY_WINDOW_MS); cannot count`)
      }
      if (!controlShown.shown) ctx.note(`the control account ${control.record.id} was not listed within the window: the count may predate the retry`)
    },
  }),
  // The mistake: replays keyed on the body alone, so two deliberate identical creates collapse into one.
  defineCheck({
    id: 'idempotency.other-key.creates',
    clauses: ['§4.1'],
    level: 'MUST',
    area,
    title: 'The same body sent under two different Idempotency-Keys creates two records',
    writes: 'safe',
    async run(ctx) {
      const body = accountBody(ctx, 'idempotency other key', false)
      const a = await createRecord(ctx, 'account', body, { idempotencyKey: idempotencyKey(ctx), untagged: true })
      const b = await createRecord(ctx, 'account', body, { idempotencyKey: idempotencyKey(ctx), untagged: true })
      if (a.record.id === b.record.id) {
        ctx.fail(`a second Idempotency-Key returned the first record ${a.record.id} instead of creating one (§4.1)`, {
          expected: 'a key identifies one request; another key is another create (§4.1 "any unique value")',
          exchanges: [a.response.exchange, b.response.exchange],
        })
      }
    },
  }),
  // The mistake: replays stored per Idempotency-Key only, not per API key: another caller gets the first record.
  defineCheck({
    id: 'idempotency.foreign-key.isolated',
    clauses: ['§4.1', '§5.7', '§1.2'],
    level: 'MUST',
    area,
    title: "Another API key sending the same Idempotency-Key and body never gets the first key's record",
    writes: 'safe',
    async run(ctx) {
      const { role, client } = await otherCaller(ctx)
      const first = await firstCreate(ctx)
      const res = await client.post(PATH, first.body, { idempotencyKey: first.key })
      ctx.observe('caller', KEY_VARIABLES[role])
      ctx.observe('status', res.status)
      const id = res.ok && typeof res.body?.id === 'string' ? res.body.id : undefined
      if (id !== undefined && id !== first.record.id) {
        // Its own record: the foreign one lives in another workspace, where the main key cannot clean it up.
        if (role === 'foreign') {
          const gone = await client.delete(itemPath('account', id))
          if (!gone.ok) ctx.note(`could not delete account ${id} of the foreign workspace (status ${gone.status}); remove it by hand`)
        } else {
          trackCreated(ctx, 'account', id)
        }
      }
      if (id === first.record.id && role === 'restricted' && (await restrictedScopes(ctx)).scopes.includes('accounts:read')) {
        // Whether keys of one workspace share Idempotency-Keys is not shown (§4.1), and this key may read the record.
        ctx.skip(
          `${KEY_VARIABLES.restricted}, of the same workspace and with accounts:read, got the first key's replay; set ${KEY_VARIABLES.foreign} to judge the rule across workspaces`,
        )
      }
      if (id === first.record.id) {
        ctx.fail(`${KEY_VARIABLES[role]} got record ${id}, created by CRM_API_KEY, by replaying its Idempotency-Key (§4.1, §5.7)`, {
          expected: "its own new record or an error: a key reaches only its own requests' replays (§1.2, §5.7)",
          exchanges: [first.response.exchange, res.exchange],
        })
      }
    },
  }),
  defineCheck({
    id: 'idempotency.different-body.observed',
    clauses: ['§4.1'],
    level: 'INFO',
    area,
    title: 'What the same Idempotency-Key with a different body gives (not shown): an error, the first response, or a new record',
    writes: 'safe',
    async run(ctx) {
      const key = idempotencyKey(ctx)
      let first: { record: AnyRecord }
      try {
        first = await createRecord(ctx, 'account', accountBody(ctx, 'idempotency body', false), { idempotencyKey: key, untagged: true })
      } catch (error) {
        if (error instanceof CheckFailed) ctx.skip(`the first create failed: ${error.message}`)
        throw error
      }
      const res = await ctx.api.post(PATH, accountBody(ctx, 'idempotency other body', false), { idempotencyKey: key })
      let seen: string
      if (!res.ok) seen = `error ${res.status}${typeof res.body?.error?.code === 'string' ? ` ${res.body.error.code}` : ''}`
      else if (res.body?.id === first.record.id) seen = 'replays the first response'
      else {
        seen = 'creates a new record'
        if (typeof res.body?.id === 'string') trackCreated(ctx, 'account', res.body.id)
      }
      ctx.observe('idempotency.differentBody', seen)
      ctx.noteCapability('idempotency.differentBody', seen)
    },
  }),
  // The mistake: a request with a reused key and another body is stored in the first one's place, so the retry
  // of the first request (a client that timed out and sends it again) gets another record or an error.
  defineCheck({
    id: 'idempotency.different-body.first-intact',
    clauses: ['§4.1'],
    level: 'MUST',
    area,
    title: 'After the same Idempotency-Key came with another body, a retry of the first request still returns the first response and creates nothing',
    writes: 'safe',
    async run(ctx) {
      const key = idempotencyKey(ctx)
      const body = accountBody(ctx, 'idempotency intact', false)
      const first = await createRecord(ctx, 'account', body, { idempotencyKey: key, untagged: true })
      // What the other body gets is not shown (§4.1): an error, the first response or a new record; only its effect on the retry is judged.
      const other = await ctx.api.post(PATH, accountBody(ctx, 'idempotency intact other', false), { idempotencyKey: key })
      trackDuplicate(ctx, 'account', other, [first.record.id])
      const res = await ctx.api.post(PATH, body, { idempotencyKey: key })
      const id = res.ok && typeof res.body?.id === 'string' ? res.body.id : undefined
      trackDuplicate(ctx, 'account', res, [first.record.id, other.body?.id])
      const evidence = [first.response.exchange, other.exchange, res.exchange]
      const expected =
        'a retry with the same key and the same body within 24 hours returns the first response and creates no duplicate (§4.1), whatever came between'
      if (res.status !== first.response.status || id !== first.record.id) {
        ctx.fail(
          `the retry of the first request answered ${res.status} with record ${JSON.stringify(id ?? null)}; the first response was ${first.response.status} with ${first.record.id} (§4.1)`,
          { expected, exchanges: evidence, data: { otherBody: { status: other.status, id: other.body?.id ?? null } } },
        )
      }
      expectSameRecord(ctx, first.record, res.body, { expected, exchanges: evidence })
    },
  }),
  ...everyCreateChecks,
]
