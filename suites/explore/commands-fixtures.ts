// Payments against the sent invoice and the order of the accepted quotation: fixtures the API cannot make, read on
// the target and mirrored into the model under the target's ids (World.mirror), then explored on both sides. Both
// are writes the API cannot undo (§4.2: no delete for payments or orders), so these commands are drawn only in the
// full profile and only when the fixture variable names the record.
import fc from 'fast-check'
import { itemPath, RESOURCES, runLabel, type AnyRecord, type CheckContext } from '../../src/checks/index.ts'
import { orderFromAccepted } from '../shared/accepted-order.ts'
import { exclusive, recordLock } from '../shared/exclusive.ts'
import { dateIn } from '../shared/drafts.ts'
import { membershipVerdict, statusVerdict, written, writtenVerdict, type Answer } from './contract.ts'
import type { Budget, ExploreModel, Own, World } from './world.ts'

type Cmd = fc.AsyncCommand<ExploreModel, World>

/** Largest payment the explorer records: a few sen, never the invoice's whole balance (it stays payable for the run's other checks). */
const MAX_PAYMENT_SEN = 50
const METHODS = ['bank_transfer', 'cash', 'cheque', 'card', 'online', 'other'] as const

/** The payments and the order a sequence made or reached, kept beside its own records (no other command may pick them). */
const fixturesOf = new WeakMap<ExploreModel, Own[]>()
const made = (m: ExploreModel): Own[] => {
  let list = fixturesOf.get(m)
  if (!list) fixturesOf.set(m, (list = []))
  return list
}
/** The order of an exploration: an accepted quotation takes one (§3.2), so it is made once per exploration (keyed by its budget). */
const orders = new WeakMap<Budget, Promise<Own | undefined>>()

const ok = (a: Answer) => a.status >= 200 && a.status < 300

function ownOf(resource: 'payment' | 'order', t: AnyRecord, m: AnyRecord, body: AnyRecord): Own {
  const w = written(resource, undefined, body)
  return { resource, t: String(t.id), m: String(m.id), alive: true, written: { t: w, m: w }, tLast: t, mLast: m }
}

/** A payment of a few sen against the sent invoice, in the invoice's turn, after the model holds the invoice as the target shows it now. */
class Pay implements Cmd {
  constructor(
    readonly amountSen: number,
    readonly method: (typeof METHODS)[number],
    readonly withReference: boolean,
  ) {}
  check = () => true
  async run(m: ExploreModel, w: World): Promise<void> {
    const invoiceId = w.ctx.config.fixtures.sentInvoiceId
    if (w.exhausted || !invoiceId) return
    w.step(`${this}`)
    await exclusive(w.ctx.session, recordLock('invoice', invoiceId), async () => {
      const invoice = await w.read('target', itemPath('invoice', invoiceId))
      const inv = invoice.body
      // The fixture as it is now (other checks pay it too): only a sent invoice with more than a few sen due is paid.
      if (invoice.status !== 200 || !inv || inv.status === 'draft' || inv.voidedAt != null) return
      const balance = Number(inv.totalSen) - Number(inv.paidSen)
      if (!(balance > 1)) return
      await w.mirror('invoice', inv)
      const body: AnyRecord = {
        invoiceId,
        amountSen: Math.min(this.amountSen, balance - 1),
        method: this.method,
        paidOn: dateIn(0),
        ...(this.withReference ? { reference: runLabel(w.ctx, 'payment') } : {}),
        note: 'crmconf conformance run: explorer',
      }
      const what = `pay the sent invoice ${body.amountSen} sen by ${this.method}`
      const [t, o] = await w.create('payment', body, body)
      w.judge(statusVerdict(what, t, o), 'status')
      if (!ok(t) || !ok(o) || typeof t.body?.id !== 'string' || typeof o.body?.id !== 'string') return
      const own = ownOf('payment', t.body, o.body, body)
      made(m).push(own)
      w.judge(writtenVerdict(what, 'payment', own.written, t.body, o.body), 'written')
    })
  }
  toString = () => `pay the sent invoice ${this.amountSen} sen by ${this.method}${this.withReference ? ' with a reference' : ''}`
}

/** The order of the accepted quotation: the run's one (shared with the state area), mirrored with its quotation into the model. */
class Order implements Cmd {
  check = () => true
  async run(m: ExploreModel, w: World): Promise<void> {
    if (w.exhausted || !w.ctx.config.fixtures.acceptedQuotationId) return
    w.step(`${this}`)
    let pending = orders.get(w.budget)
    if (!pending) orders.set(w.budget, (pending = this.make(w)))
    const own = await pending
    if (own && !made(m).includes(own)) made(m).push(own)
  }
  private async make(w: World): Promise<Own | undefined> {
    // A fixture that cannot be read (a 404, no accepted quotation) is the state area's to report: here it is information.
    const attempt = await orderFromAccepted(w.ctx).catch((error: unknown) => {
      w.judge({ unplaced: `create an order from the accepted quotation: ${error instanceof Error ? error.message : String(error)}` })
      return undefined
    })
    if (!attempt) return undefined
    const quote = attempt.quote.body as AnyRecord
    // The variable names an accepted quotation, whatever word the target shows for that state (§3: not shown).
    await w.mirror('quotation', { ...quote, status: 'accepted' })
    const body = { quoteId: quote.id }
    const [t, o] = await w.created('order', attempt.created, body)
    if (!ok(t)) {
      // Already ordered (an earlier night, a check before this one): the existing order is the one to read.
      const existing = (attempt.existing?.body?.data as AnyRecord[] | undefined)?.find(
        (r) => String(r?.quoteId).toLowerCase() === String(quote.id).toLowerCase(),
      )
      // Refused, and no order listed for it: the accepted quotation took none (§3.2).
      if (!existing) {
        w.judge(statusVerdict('create an order from the accepted quotation (no order listed for it)', t, o), 'status')
        return undefined
      }
      await w.mirror('order', existing)
      return ownOf('order', existing, existing, body)
    }
    w.judge(statusVerdict('create an order from the accepted quotation', t, o), 'status')
    if (!ok(o) || typeof t.body?.id !== 'string' || typeof o.body?.id !== 'string') return undefined
    const own = ownOf('order', t.body, o.body, body)
    w.judge(writtenVerdict('create an order from the accepted quotation', 'order', own.written, t.body, o.body), 'written')
    return own
  }
  toString = () => 'create the order of the accepted quotation'
}

/** A read of a payment or the order by id: what was written holds. */
class GetFixture implements Cmd {
  constructor(readonly n: number) {}
  check = () => true
  async run(m: ExploreModel, w: World): Promise<void> {
    const list = made(m)
    if (w.exhausted || list.length === 0) return
    const index = this.n % list.length
    const own = list[index]!
    const what = `get ${own.resource} ${index}`
    w.step(`${this}`)
    const [t, o] = await w.get(own)
    w.judge(statusVerdict(what, t, o), 'status')
    if (ok(t) && ok(o)) w.judge(writtenVerdict(what, own.resource, own.written, t.body, o.body), 'written')
  }
  toString = () => `get payment or order ${this.n}`
}

/** Lists payments by invoiceId, orders by quoteId or accountId: each payment and order the sequence reached shows on both sides. */
class ListFixtures implements Cmd {
  constructor(
    readonly resource: 'payment' | 'order',
    readonly byAccount: boolean,
  ) {}
  check = () => true
  async run(m: ExploreModel, w: World): Promise<void> {
    const mine = made(m).filter((o) => o.resource === this.resource)
    if (w.exhausted || mine.length === 0) return
    const first = mine[0]!.tLast
    const [param, value] =
      this.resource === 'payment'
        ? ['invoiceId', first.invoiceId]
        : this.byAccount && first.accountId
          ? ['accountId', first.accountId]
          : ['quoteId', first.quoteId]
    if (typeof value !== 'string') return
    // Fixture records keep the target's ids in the model, so both sides are asked the same value.
    const query = { [param]: value, limit: 100 }
    const what = `list ${RESOURCES[this.resource].path}?${param}=…`
    w.step(`${this}`)
    const mWalk = await w.walk('model', this.resource, query, 30)
    const tWalk = await w.walk('target', this.resource, query, 30)
    w.judge(statusVerdict(what, { status: tWalk.status, body: tWalk.body }, { status: mWalk.status, body: mWalk.body }), 'status')
    if (tWalk.status !== 200 || mWalk.status !== 200 || !tWalk.complete || !mWalk.complete) return
    const shown = (walk: typeof tWalk, id: (o: Own) => string) => {
      const ids = new Set(walk.pages.flat().map((r) => String(r?.id).toLowerCase()))
      return mine.flatMap((o, i) => (ids.has(id(o).toLowerCase()) ? [i] : []))
    }
    w.judge(
      membershipVerdict(
        what,
        shown(tWalk, (o) => o.t),
        shown(mWalk, (o) => o.m),
        new Set(),
      ),
      'list-membership',
    )
  }
  toString = () => `list ${this.resource}s by ${this.resource === 'payment' ? 'invoiceId' : this.byAccount ? 'accountId' : 'quoteId'}`
}

/**
 * The fixture commands this run may draw, as one draw among the explorer's commands (they need a payment or the
 * order before their reads, and the draws are few at the CI budget): none outside the full profile, none for a
 * fixture not configured.
 */
export function fixtureArbitraries(ctx: CheckContext): fc.Arbitrary<Cmd>[] {
  const { sentInvoiceId, acceptedQuotationId } = ctx.config.fixtures
  if (ctx.profile !== 'full' || (!sentInvoiceId && !acceptedQuotationId)) return []
  const kinds = [...(sentInvoiceId ? ['payment' as const] : []), ...(acceptedQuotationId ? ['order' as const] : [])]
  const makes: fc.WeightedArbitrary<Cmd>[] = [
    ...(sentInvoiceId
      ? [
          {
            arbitrary: fc
              .tuple(fc.integer({ min: 1, max: MAX_PAYMENT_SEN }), fc.constantFrom(...METHODS), fc.boolean())
              .map(([amount, method, reference]): Cmd => new Pay(amount, method, reference)),
            weight: 2,
          },
        ]
      : []),
    ...(acceptedQuotationId ? [{ arbitrary: fc.constant<Cmd>(new Order()), weight: 1 }] : []),
  ]
  const reads: fc.WeightedArbitrary<Cmd>[] = [
    { arbitrary: fc.nat({ max: 1000 }).map((n): Cmd => new GetFixture(n)), weight: 1 },
    { arbitrary: fc.tuple(fc.constantFrom(...kinds), fc.boolean()).map(([r, byAccount]): Cmd => new ListFixtures(r, byAccount)), weight: 1 },
  ]
  return [fc.oneof(...makes, ...reads)]
}
