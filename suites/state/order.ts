// §3.2: "An order is created from an accepted quotation (the create call takes the quotation id)". Orders
// cannot be deleted (§4.2), so the successful creation needs the full profile; it happens once per run.
import { defineCheck, expectStatus, itemPath, trackCreated } from '../../src/checks/index.ts'
import type { CheckDefinition, AnyRecord, ApiResponse } from '../../src/checks/index.ts'
import { ACCEPTED_QUOTATION_VARIABLE, ORDERS, orderFromAccepted, orderOf, ordersFor } from '../shared/accepted-order.ts'
import { listCaughtUp } from '../shared/created-despite.ts'
import { sharedDraftOrSkip } from '../shared/drafts.ts'
import { REFUSAL_EXPECTED, isStateRefusal, refusalOf } from '../shared/refusal.ts'
import { oneOfEachState, surelyNotAccepted } from '../shared/states.ts'

const area = 'state'

export const orderChecks: CheckDefinition[] = [
  defineCheck({
    id: 'state.order.non-accepted-refused',
    clauses: ['§3.2'],
    level: 'MUST',
    area,
    title: 'Creating an order from a quotation that is not accepted (a draft, a sent one, each other such state found) is refused (4xx) and creates no order',
    writes: 'safe',
    async run(ctx) {
      const draft = await sharedDraftOrSkip(ctx, 'quotation')
      const others = await oneOfEachState(ctx, 'quotation', ['sentQuotationId'], surelyNotAccepted)
      const tried: { id: string; status: unknown; res: ApiResponse }[] = []
      for (const candidate of [{ id: String(draft.id) }, ...others]) {
        // A fixture is read first: only a quotation surely not accepted is a probe (§3.2 names no other state).
        const quote = candidate.id === draft.id ? { status: 200, body: draft } : await ctx.api.get(itemPath('quotation', candidate.id))
        if (quote.status !== 200 || !(quote.body?.status === 'draft' || surelyNotAccepted(quote.body))) {
          ctx.note(
            `quotation ${candidate.id} not probed: ${quote.status === 200 ? `status ${JSON.stringify(quote.body?.status)} may be accepted` : `GET answered ${quote.status}`}`,
          )
          continue
        }
        const state = quote.body.status
        const res = await ctx.api.post(ORDERS, { quoteId: candidate.id })
        if (res.ok) {
          if (typeof res.body?.id === 'string') trackCreated(ctx, 'order', res.body.id)
          ctx.fail(`an order was created from the ${state} quotation (status ${res.status}); orders come from accepted quotations (§3.2)`, {
            expected: REFUSAL_EXPECTED,
            exchanges: [res.exchange],
          })
        }
        if (!isStateRefusal(res.status)) {
          ctx.fail(`order from the ${state} quotation: status is ${res.status}, expected a 4xx refusal other than 401 and 429 (§3.2)`, {
            expected: REFUSAL_EXPECTED,
            exchanges: [res.exchange],
          })
        }
        ctx.observe(`refusal.${String(state)}`, refusalOf(res))
        tried.push({ id: candidate.id, status: state, res })
      }
      // A list fed by an index shows a write late: judge the absence once a later control write is listed.
      if (!(await listCaughtUp(ctx, 'order'))) ctx.note('no control record was listed: the absence below was judged on a list that may lag')
      for (const { id, status, res } of tried) {
        const listed = await ordersFor(ctx, id)
        expectStatus(listed, 200, '§4.3', 'orders?quoteId= lists the order for this quotation')
        const order = orderOf(listed, id)
        if (order) {
          ctx.fail(`the create was refused (${res.status}) but an order for the ${status} quotation exists: ${order.id} (§3.2)`, {
            expected: 'no order for a quotation that is not accepted',
            exchanges: [res.exchange, listed.exchange],
          })
        }
      }
      ctx.observe(
        'statesJudged',
        tried.map((t) => t.status),
      )
    },
  }),
  defineCheck({
    id: 'state.order.from-accepted',
    clauses: ['§3.2', '§4.2'],
    level: 'MUST',
    area,
    title: 'An order can be created from an accepted quotation, and its quoteId is that quotation',
    writes: 'full',
    // The restricted key's order names the same quotation, which takes one order on some servers.
    after: ['auth.scope.order.write'],
    async run(ctx) {
      const { quote, created, existing } = await orderFromAccepted(ctx)
      const quoteId = quote.body.id
      ctx.observe('quotation.status', quote.body.status)
      if (!created.ok) {
        const order = existing && orderOf(existing, quoteId)
        if (order)
          ctx.skip(
            `quotation ${quoteId} already has an order (${order.id}) and another was refused (${created.status}); set ${ACCEPTED_QUOTATION_VARIABLE} to an accepted quotation without one`,
          )
        ctx.fail(`order from a quotation with status ${JSON.stringify(quote.body.status)}: status is ${created.status}, expected a 2xx (§3.2)`, {
          expected: 'an order is created from an accepted quotation',
          exchanges: [quote.exchange, created.exchange],
        })
      }
      ctx.observe('createStatus', created.status)
      if (created.body?.quoteId !== quoteId) {
        ctx.fail(`the order's quoteId is ${JSON.stringify(created.body?.quoteId)}, expected ${quoteId} (§3.2)`, {
          expected: 'the order of the quotation it was created from',
          exchanges: [created.exchange],
        })
      }
    },
  }),
  defineCheck({
    id: 'state.order.second-refused',
    clauses: ['§4.3', '§3.2'],
    level: 'SHOULD',
    area,
    title: 'A second order for a quotation that already has one is refused (4xx): §4.3 speaks of "the order for this quotation"',
    writes: 'full',
    // Sends after the shared attempt has made the quotation's order; the restricted key's order comes first as above.
    after: ['auth.scope.order.write'],
    async run(ctx) {
      const { quote, created, existing } = await orderFromAccepted(ctx)
      const quoteId: string = quote.body.id
      const first: AnyRecord | undefined = created.ok ? created.body : existing && orderOf(existing, quoteId)
      if (!first) return ctx.skip(`quotation ${quoteId} has no order to repeat (see state.order.from-accepted)`)
      const again = await ctx.api.post(ORDERS, { quoteId })
      if (again.ok) {
        if (typeof again.body?.id === 'string') trackCreated(ctx, 'order', again.body.id)
        ctx.fail(`a second order ${again.body?.id ?? ''} was created (${again.status}) for quotation ${quoteId}, which already has order ${first.id} (§4.3)`, {
          expected: '§4.3 quoteId filter: "the order for this quotation", one order per quotation; a second create is refused with a 4xx',
          exchanges: [(created.ok || !existing ? created : existing).exchange, again.exchange],
        })
      }
      if (again.status < 400 || again.status >= 500) {
        ctx.fail(`a second order for quotation ${quoteId}: status is ${again.status}, expected a 4xx refusal (§4.3)`, {
          expected: 'a 4xx refusal (status not shown, §7.8)',
          exchanges: [again.exchange],
        })
      }
      ctx.observe('refusal', refusalOf(again))
    },
  }),
  defineCheck({
    id: 'state.order.follows-quotation',
    clauses: ['§3.2', '§2'],
    level: 'SHOULD',
    area,
    title: 'An order created from a quotation carries its totalSen and currency',
    writes: 'full',
    // The restricted key's order names the same quotation, which takes one order on some servers.
    after: ['auth.scope.order.write'],
    async run(ctx) {
      const { quote, created, existing } = await orderFromAccepted(ctx)
      const order: AnyRecord | undefined = created.ok ? created.body : existing && orderOf(existing, quote.body.id)
      if (!order) return ctx.skip('no order was created from the accepted quotation (see state.order.from-accepted)')
      const evidence = [quote.exchange, (created.ok || !existing ? created : existing).exchange]
      const differs = (['totalSen', 'currency'] as const).filter((f) => order[f] !== quote.body[f])
      ctx.observe('sameDealAndAccount', order.dealId === quote.body.dealId && order.accountId === quote.body.accountId)
      if (differs.length > 0) {
        ctx.fail(`the order's ${differs.map((f) => `${f} is ${JSON.stringify(order[f])}, the quotation's ${JSON.stringify(quote.body[f])}`).join('; ')}`, {
          expected: "an order made from a quotation is for the quotation's total, in its currency",
          exchanges: evidence,
        })
      }
    },
  }),
]
