// Fixture pools for runs that repeat against one long-lived workspace (a nightly job). The records the API cannot
// bring into being (§3: transitions are not shown) are named by CRM_FIXTURE_*, each one id or several. Two kinds
// are used up: an accepted quotation takes one order (§4.2), and the webhook area pays a sent invoice to zero
// (§6.2). Before the checks start, each pool's ids are read once and the first still usable one becomes the
// fixture every check sees; the run then uses up at most one of each. Each pool's health is one line, in the
// console and the report, so QA sees a pool running out before the verdict does.
import type { CheckDefinition } from '../checks/types.ts'
import type { ResolvedConfig } from '../config/config.ts'
import { ApiClient, type ApiResponse } from '../http/api-client.ts'
import type { Transport } from '../http/transport.ts'
import type { FixturePoolLine } from '../report/types.ts'
import { RESOURCES } from '../spec/resources.ts'
import { FIXTURE_VARIABLES, type FixtureName } from '../vocabulary.ts'

/**
 * What the run pays against the sent invoice: 1 sen by state.payment.raises-paid, 1 sen by
 * idempotency.payment.replays, and whatever is left (at least 1) by webhooks.invoice.paid.
 */
export const MIN_INVOICE_BALANCE_SEN = 3

interface PoolSpec {
  /** The pool in words, plural: `accepted quotations`. */
  label: string
  /** What a usable record is, for the line naming the variable. */
  usableIs: string
  /** The checks that use one record up (a run selecting none of them uses none). */
  consumedBy: string[]
  /** The MUST checks that skip when no record of the pool is usable. */
  mustNeed: string[]
  /** Why the record cannot serve this run, or undefined when it can; reads with the main key. */
  unusable?: (api: ApiClient, id: string) => Promise<string | undefined>
}

const isOk = (r: ApiResponse): boolean => r.status === 200 && r.body !== null && typeof r.body === 'object'

/** A record that cannot be read (404) is unusable; an answer that says nothing certain leaves the id to the checks. */
async function read(api: ApiClient, path: string): Promise<{ record?: Record<string, any>; reason?: string }> {
  const res = await api.get(path)
  if (res.status === 404) return { reason: `GET ${path} answered 404` }
  return isOk(res) ? { record: res.body } : {}
}

async function acceptedWithoutOrder(api: ApiClient, id: string): Promise<string | undefined> {
  const { record, reason } = await read(api, `${RESOURCES.quotation.path}/${encodeURIComponent(id)}`)
  if (reason) return reason
  // The accepted state's name is not shown (§3): only a draft is surely not accepted.
  if (record?.status === 'draft') return 'a draft'
  const orders = await api.get(RESOURCES.order.path, { quoteId: id, limit: 100 })
  const order = isOk(orders) && Array.isArray(orders.body.data) ? orders.body.data.find((o: any) => o?.quoteId === id) : undefined
  return order ? `has order ${String(order.number ?? order.id)}` : undefined
}

async function sentWithBalance(api: ApiClient, id: string): Promise<string | undefined> {
  const { record, reason } = await read(api, `${RESOURCES.invoice.path}/${encodeURIComponent(id)}`)
  if (reason || !record) return reason
  if (record.status === 'draft') return 'a draft'
  if (record.voidedAt != null) return 'void'
  // The API names no balance field (§2): what is left is totalSen - paidSen.
  const balance = Number(record.totalSen) - Number(record.paidSen)
  if (Number.isFinite(balance) && balance < MIN_INVOICE_BALANCE_SEN) return `${balance} sen outstanding, a run pays ${MIN_INVOICE_BALANCE_SEN}`
  return undefined
}

async function nonDraftQuotation(api: ApiClient, id: string): Promise<string | undefined> {
  const { record, reason } = await read(api, `${RESOURCES.quotation.path}/${encodeURIComponent(id)}`)
  if (reason) return reason
  return record?.status === 'draft' ? 'a draft' : undefined
}

export const POOLS: Record<FixtureName, PoolSpec> = {
  acceptedQuotationId: {
    label: 'accepted quotations',
    usableIs: 'accepted quotations without an order',
    consumedBy: ['state.order.from-accepted', 'idempotency.order.replays'],
    mustNeed: ['state.order.from-accepted', 'idempotency.order.replays'],
    unusable: acceptedWithoutOrder,
  },
  sentInvoiceId: {
    label: 'sent invoices',
    usableIs: `sent invoices with at least ${MIN_INVOICE_BALANCE_SEN} sen outstanding`,
    consumedBy: ['webhooks.invoice.paid'],
    mustNeed: ['state.payment.raises-paid', 'idempotency.payment.replays'],
    unusable: sentWithBalance,
  },
  sentQuotationId: {
    label: 'sent quotations',
    usableIs: 'quotations that are not drafts',
    consumedBy: [],
    mustNeed: [],
    unusable: nonDraftQuotation,
  },
  // A conversation is not read by id (§4.2 lists no such path) and no check uses one up.
  conversationId: { label: 'conversations', usableIs: 'conversations', consumedBy: [], mustNeed: [] },
}

/** One pool's health: the line report.json keeps (src/report/types.ts), its fixture named by the vocabulary. */
export type PoolHealth = FixturePoolLine & { fixture: FixtureName }

function describe(h: Omit<PoolHealth, 'line'>, spec: PoolSpec, fresh: boolean): string {
  if (h.configured === 0) return `${h.label}: ${h.variable} is not set; the checks look for one by listing`
  if (h.usable === 0) {
    const why = h.unusable.map((u) => `${u.id}: ${u.reason}`).join('; ')
    const skips =
      h.mustSkips.length > 0
        ? `MUST checks ${h.mustSkips.join(', ')} will skip, so the verdict can be at most partial; `
        : h.usesPerRun > 0 || spec.mustNeed.length > 0
          ? 'the checks that need one will skip; '
          : ''
    return `${h.label}: none of ${h.configured} usable (${why}); ${skips}set ${h.variable} to one or more ${spec.usableIs}`
  }
  // A server seeded afresh for this run (the embedded one) has no next night to count.
  const nights = fresh ? '' : ` (${h.runsLeft} night${h.runsLeft === 1 ? '' : 's'} left)`
  const use = h.usesPerRun > 0 ? `this run uses ${h.usesPerRun}${nights}` : 'no check of this run uses one up'
  const last = h.usesPerRun > 0 && h.runsLeft === 1 && !fresh ? `; add ids to ${h.variable} before the next run` : ''
  return `${h.label}: ${h.usable} usable of ${h.configured}, ${use}${last}`
}

/**
 * Reads each configured pool, picks its first usable id, and says how each pool stands. A pool none of whose
 * ids is usable keeps its first id, so the checks skip with their own reasons.
 */
export async function choosePoolFixtures(
  config: ResolvedConfig,
  transport: Transport,
  checks: readonly CheckDefinition[],
  /** The server was seeded for this run alone (the embedded one): no nights left to count. */
  fresh = false,
): Promise<{ fixtures: ResolvedConfig['fixtures']; health: PoolHealth[] }> {
  const api = new ApiClient(transport, 'main', () => undefined)
  const selected = new Set(checks.map((c) => c.id))
  const fixtures = { ...config.fixtures }
  const health: PoolHealth[] = []
  for (const [fixture, spec] of Object.entries(POOLS) as [FixtureName, PoolSpec][]) {
    // A fixture set on its own (not one of its pool's ids) is a pool of one.
    const single = config.fixtures[fixture]
    const pool = config.fixturePools?.[fixture] ?? []
    const ids = single && !pool.includes(single) ? [single] : pool
    const usesPerRun = config.profile === 'full' && spec.consumedBy.some((id) => selected.has(id)) ? 1 : 0
    const unusable: PoolHealth['unusable'] = []
    let usable = 0
    let chosen: string | undefined
    // Every id is read (a few requests), so the line counts the nights left, not only the next one.
    for (const id of ids) {
      const reason = spec.unusable ? await spec.unusable(api, id).catch(() => undefined) : undefined
      if (reason) unusable.push({ id, reason })
      else {
        usable++
        chosen ??= id
      }
    }
    if (chosen) fixtures[fixture] = chosen
    const mustSkips = ids.length > 0 && usable === 0 ? spec.mustNeed.filter((id) => selected.has(id) && config.profile === 'full') : []
    const h = {
      fixture,
      variable: FIXTURE_VARIABLES[fixture],
      label: spec.label,
      configured: ids.length,
      usable,
      unusable,
      chosen: chosen ?? ids[0],
      usesPerRun,
      runsLeft: usesPerRun > 0 ? Math.floor(usable / usesPerRun) : undefined,
      mustSkips,
    }
    health.push({ ...h, line: describe(h, spec, fresh) })
  }
  return { fixtures, health }
}
