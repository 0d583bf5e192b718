// The one order a run creates from an accepted quotation (§4.2), shared by the state area's order checks and by
// idempotency.order.replays: an accepted quotation takes one order, so a second fixture is not there to make.
import { expectRecord, FIXTURE_VARIABLES, itemPath, trackCreated, RESOURCES } from '../../src/checks/index.ts'
import type { CheckContext, AnyRecord, ApiResponse } from '../../src/checks/index.ts'
import { randomUUID } from 'node:crypto'
import { listedOnce, recordsOf } from './fixtures.ts'

export const ORDERS = RESOURCES.order.path
export const ACCEPTED_QUOTATION_VARIABLE = FIXTURE_VARIABLES.acceptedQuotationId
/** Listed accepted quotations tried when looking for one without an order. */
const MAX_CANDIDATES = 3

export function ordersFor(ctx: CheckContext, quoteId: string): Promise<ApiResponse> {
  return ctx.api.get(ORDERS, { quoteId, limit: 100 })
}

export const orderOf = (page: ApiResponse, quoteId: string): AnyRecord | undefined => recordsOf(page).find((o) => o.quoteId === quoteId)

/**
 * The accepted quotation: the fixture, or a listed one without an order. The accepted state's name is not
 * shown (§3), so listing can only try `status=accepted`.
 */
async function acceptedQuotationId(ctx: CheckContext): Promise<string> {
  const configured = ctx.config.fixtures.acceptedQuotationId
  if (configured) return configured
  const candidates = recordsOf(await listedOnce(ctx, 'quotation', { status: 'accepted' })).filter((q) => q.status === 'accepted')
  for (const candidate of candidates.slice(0, MAX_CANDIDATES)) {
    if (!orderOf(await ordersFor(ctx, candidate.id), candidate.id)) return candidate.id
  }
  return ctx.skip(`no accepted quotation without an order found by listing /quotations?status=accepted; set ${ACCEPTED_QUOTATION_VARIABLE}`)
}

export interface OrderAttempt {
  quote: ApiResponse
  created: ApiResponse
  /** The Idempotency-Key the create was sent with: the idempotency area replays it (§4.1). */
  idempotencyKey: string
  /** When the creation was refused: the orders already listed for the quotation. */
  existing?: ApiResponse
}

/** One POST /orders per run, shared by the checks below and by idempotency.order.replays. */
export function orderFromAccepted(ctx: CheckContext): Promise<OrderAttempt> {
  return ctx.session.memo('state.order-from-accepted', async () => {
    const quoteId = await acceptedQuotationId(ctx)
    const quote = await ctx.api.get(itemPath('quotation', quoteId))
    if (quote.status === 404) ctx.skip(`${ACCEPTED_QUOTATION_VARIABLE}: GET /quotations/${quoteId} answered 404`)
    expectRecord(quote, '§4.2')
    const idempotencyKey = `crmconf-${ctx.runId}-${randomUUID()}`
    // Noted on its way: a check listing the quotation's orders meanwhile learns from the ledger that this one is the run's.
    const created = await ctx.session.ledger.creating(ctx.api.post(ORDERS, { quoteId }, { idempotencyKey }))
    if (created.ok && typeof created.body?.id === 'string') trackCreated(ctx, 'order', created.body.id)
    return { quote, created, idempotencyKey, existing: created.ok ? undefined : await ordersFor(ctx, quoteId) }
  })
}
