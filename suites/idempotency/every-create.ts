// §4.1: the Idempotency-Key applies to every create, not to accounts alone. One replay per create operation of
// §4.2 (accounts are judged by the same-key checks): the retry returns the first record and makes no second one.
// Payments, the costliest duplicate, are also judged by the invoice's paidSen; orders replay the one order the
// state area creates per run (an accepted quotation takes one order). And a replay returns the first response
// even when the record has changed since (§4.1 "returns the first response").
import {
  CheckFailed,
  defineCheck,
  createRecord,
  runLabel,
  tagged,
  trackCreated,
  updateRecord,
  readUntil,
  RESOURCES,
  differingFields,
} from '../../src/checks/index.ts'
import type { CheckContext, CheckDefinition, AnyRecord, ApiResponse, ResourceName } from '../../src/checks/index.ts'
import { randomUUID } from 'node:crypto'
import { MissingReference, createNeeds, creatable, validCreateBody, type ValidBody } from '../shared/bodies.ts'
import { payInTurn, paymentBody, readAfterPayment } from '../shared/invoice-payment.ts'
import { orderFromAccepted } from '../shared/accepted-order.ts'
const area = 'idempotency'

export function idempotencyKey(ctx: CheckContext): string {
  return `crmconf-${ctx.runId}-${randomUUID()}`
}

/**
 * A record that a create sent again under an Idempotency-Key made after all (any id but those of `known`, the
 * records it may rightly return): tracked, so that clean-up removes the duplicate the checks judge.
 */
export function trackDuplicate(ctx: CheckContext, resource: ResourceName, res: ApiResponse, known: unknown[]): void {
  if (res.ok && typeof res.body?.id === 'string' && !known.includes(res.body.id)) trackCreated(ctx, resource, res.body.id)
}

interface FirstCreate {
  body: AnyRecord
  key: string
  response: ApiResponse
}

/** A create the server refused is judged by the records and auth areas: here it leaves nothing to replay. */
async function keyedCreate(ctx: CheckContext, resource: ResourceName, body: AnyRecord, key: string): Promise<FirstCreate> {
  try {
    const { response } = await createRecord(ctx, resource, body, { idempotencyKey: key, untagged: true, validate: false })
    return { body, key, response }
  } catch (error) {
    if (error instanceof CheckFailed) ctx.skip(`the first create failed, nothing to replay: ${error.message}`)
    throw error
  }
}

/** Sends the retry: same API key, Idempotency-Key and body. A second record it made is tracked for clean-up. */
async function retry(ctx: CheckContext, resource: ResourceName, first: FirstCreate): Promise<ApiResponse> {
  const again = await ctx.api.post(RESOURCES[resource].path, first.body, { idempotencyKey: first.key })
  trackDuplicate(ctx, resource, again, [first.response.body?.id])
  return again
}

/** The retry returned the first response: its status, the same record, unchanged (§4.1). */
export function expectFirstResponse(ctx: CheckContext, resource: ResourceName, first: ApiResponse, again: ApiResponse, extra: ApiResponse[] = []): void {
  const exchanges = [first.exchange, again.exchange, ...extra.map((r) => r.exchange)]
  const firstId = first.body?.id
  if (again.ok && typeof again.body?.id === 'string' && again.body.id !== firstId) {
    ctx.fail(`the retry under the same Idempotency-Key created a second ${resource}, ${again.body.id}, beside ${firstId} (§4.1)`, {
      expected: 'a retry with the same key and body returns the first response and creates no duplicate (§4.1)',
      exchanges,
    })
  }
  if (again.status !== first.status) {
    ctx.fail(`the retry answered ${again.status}, the first response was ${first.status} (§4.1)`, {
      expected: 'the first response, status included (§4.1)',
      exchanges,
      data: again.body,
    })
  }
  if (again.body?.id !== firstId) {
    ctx.fail(`the retry returned ${JSON.stringify(again.body?.id ?? null)}, the first response was ${resource} ${firstId} (§4.1)`, {
      expected: 'the first response (§4.1)',
      exchanges,
    })
  }
  const differs = differingFields(first.body, again.body)
  if (differs.length > 0) {
    ctx.fail(`the retry's ${resource} differs from the first response in ${differs.join(', ')} (§4.1)`, {
      expected: 'the first response, as it was sent (§4.1)',
      exchanges,
      data: Object.fromEntries(differs.map((k) => [k, { first: first.body[k], retry: again.body?.[k] }])),
    })
  }
}

async function replayCreate(ctx: CheckContext, resource: ResourceName): Promise<void> {
  let valid: ValidBody
  try {
    valid = await validCreateBody(ctx, resource, `idempotency ${resource}`)
  } catch (error) {
    if (error instanceof MissingReference) return ctx.skip(error.message)
    throw error
  }
  const first = await keyedCreate(ctx, resource, tagged(ctx, resource, valid.body), idempotencyKey(ctx))
  const again = await retry(ctx, resource, first)
  expectFirstResponse(ctx, resource, first.response, again)
  if (valid.label) await expectOneListed(ctx, resource, valid, first.response, again)
}

/**
 * A replay may send the first response and still store a second record. Counted in the collection's newest page
 * (narrowed to the same parent where the body names one) once a control record, created after the retry, is
 * listed: a duplicate the retry made is older than the control, so it is listed too (src/checks/eventually.ts).
 */
async function expectOneListed(ctx: CheckContext, resource: ResourceName, valid: ValidBody, first: ApiResponse, again: ApiResponse): Promise<void> {
  const label = valid.label!
  let control: AnyRecord
  try {
    control = (await createRecord(ctx, resource, (await validCreateBody(ctx, resource, `idempotency ${resource} control`)).body)).record
  } catch (error) {
    if (error instanceof CheckFailed || error instanceof MissingReference)
      return ctx.note(`no control ${resource} could be created (${error.message}): the records were not counted`)
    throw error
  }
  // The record's own address or SKU would hide the control: only the parent narrows the page.
  const { email: _email, sku: _sku, ...query } = valid.lookup
  const path = RESOURCES[resource].path
  const listed = (res: ApiResponse): AnyRecord[] => (res.status === 200 && Array.isArray(res.body?.data) ? res.body.data : [])
  const { answer, shown } = await readUntil(
    ctx,
    () => ctx.api.get(path, query),
    (res) => listed(res).some((r) => r?.id === control.id),
  )
  if (!shown) return ctx.note(`the control ${resource} ${control.id} was not listed within ${ctx.config.consistencyWindowMs} ms: the records were not counted`)
  const found = listed(answer).filter((r) => JSON.stringify(r).includes(label))
  for (const r of found) if (r.id !== first.body.id && typeof r.id === 'string') trackCreated(ctx, resource, r.id)
  if (!found.some((r) => r.id === first.body.id))
    return ctx.note(`${resource} ${first.body.id} is not on the newest page of ${path}: the records were not counted`)
  ctx.observe('recordsWithTheLabel', found.length)
  if (found.length > 1) {
    ctx.fail(
      `${found.length} ${resource} records carry the label of one create retried under the same Idempotency-Key: ${found.map((r) => r.id).join(', ')} (§4.1)`,
      {
        expected: 'a retry with the same key and body creates no duplicate (§4.1)',
        exchanges: [first.exchange, again.exchange, answer.exchange],
      },
    )
  }
}

/** The order the state area creates once per run from the accepted quotation, replayed under its key. */
async function replayOrder(ctx: CheckContext): Promise<void> {
  const { created, quote, idempotencyKey: key } = await orderFromAccepted(ctx)
  if (!created.ok)
    return ctx.skip(`the run's order for quotation ${quote.body?.id} was refused (${created.status}; state.order.from-accepted judges it): nothing to replay`)
  const again = await retry(ctx, 'order', { body: { quoteId: quote.body.id }, key, response: created })
  expectFirstResponse(ctx, 'order', created, again)
}

/**
 * A payment of 1 against the sent invoice, retried: one record, and the invoice's paidSen raised once. The invoice
 * is shared with the state and webhook areas: the probe takes its turn (state/exclusive.ts) and leaves a balance.
 */
async function replayPayment(ctx: CheckContext): Promise<void> {
  const { target, before, first, again, after } = await payInTurn(ctx, 2, async (invoice) => {
    const body = paymentBody(ctx, invoice, 1, 'idempotency payment', 'a payment retried under its Idempotency-Key')
    const first = await keyedCreate(ctx, 'payment', body, idempotencyKey(ctx))
    const again = await retry(ctx, 'payment', first)
    return { target: invoice.target, before: invoice.before, first, again, after: await readAfterPayment(ctx, invoice) }
  })
  expectFirstResponse(ctx, 'payment', first.response, again, [after])
  if (after.ok && typeof after.body?.paidSen === 'number' && after.body.paidSen > before.body.paidSen + 1) {
    ctx.fail(
      `invoice ${target.id}'s paidSen rose from ${before.body.paidSen} to ${after.body.paidSen} after one payment of 1 retried under the same Idempotency-Key (§4.1)`,
      {
        expected: `paidSen ${before.body.paidSen + 1}: the retry records no second payment (§4.1)`,
        exchanges: [before.exchange, first.response.exchange, again.exchange, after.exchange],
      },
    )
  }
}

/** Checks that create on a seeded record name the check that must take its turn first. */
const AFTER: Partial<Record<ResourceName, string[]>> = {
  // The restricted key's order and payment name the same quotation and invoice.
  order: ['auth.scope.order.write'],
  payment: ['auth.scope.payment.write'],
}

function replays(resource: ResourceName): CheckDefinition {
  const path = RESOURCES[resource].path
  return defineCheck({
    id: `${area}.${resource}.replays`,
    clauses: ['§4.1', '§4.2'],
    level: 'MUST',
    area,
    title: `POST ${path} retried with the same Idempotency-Key and body returns the first response and creates no second ${resource}${resource === 'payment' ? " (the invoice's paidSen rises once)" : ''}`,
    writes: createNeeds(resource),
    ...(AFTER[resource] ? { after: AFTER[resource] } : {}),
    run: (ctx) => (resource === 'order' ? replayOrder(ctx) : resource === 'payment' ? replayPayment(ctx) : replayCreate(ctx, resource)),
  })
}

/** The mistake: the replay reads the record again by its id, so a change made since shows in it. */
const afterUpdate = defineCheck({
  id: `${area}.replay.after-update`,
  clauses: ['§4.1'],
  level: 'MUST',
  area,
  title: 'A create retried after its record was updated returns the first response, not the record as it is now',
  writes: 'safe',
  async run(ctx) {
    const first = await keyedCreate(ctx, 'account', tagged(ctx, 'account', { name: runLabel(ctx, 'idempotency replay after update') }), idempotencyKey(ctx))
    const id = String(first.response.body.id)
    const renamed = runLabel(ctx, 'idempotency renamed')
    const update = await updateRecord(ctx, 'account', id, { name: renamed })
    if (!update.ok)
      return ctx.skip(`the update of account ${id} answered ${update.status} (the records area judges it): the record did not change before the replay`)
    const again = await retry(ctx, 'account', first)
    if (again.body?.name === renamed) {
      ctx.fail(
        `the retry returned account ${id} as it is now (name ${JSON.stringify(renamed)}), not the first response (name ${JSON.stringify(first.response.body.name)}) (§4.1)`,
        {
          expected: 'the first response, as it was sent before the update (§4.1 "returns the first response")',
          exchanges: [first.response.exchange, update.exchange, again.exchange],
        },
      )
    }
    expectFirstResponse(ctx, 'account', first.response, again, [update])
  },
})

/** Accounts are the same-key checks' own. */
export const everyCreateChecks: CheckDefinition[] = [
  ...creatable()
    .filter((r) => r !== 'account')
    .map(replays),
  afterUpdate,
]
