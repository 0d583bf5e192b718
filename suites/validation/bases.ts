// The valid bodies each probe starts from (one defect is then added), and the records that update and replace
// probes are sent to. Creates that need another record (a comment its case, a payment its invoice, a message its
// conversation, an order its quotation) name a well-formed uuid that no record has: every probe built on them has
// a defect elsewhere, so a conformant server refuses it whatever the reference, and a broken one that overlooks
// the defect still cannot create anything (§4.4, §7.3).
import { randomUUID } from 'node:crypto'
import type { CheckContext } from '../../src/checks/types.ts'
import { createRecord, runLabel, type AnyRecord } from '../../src/engine/operations.ts'
import type { ResourceName } from '../../src/spec/resources.ts'

/** A uuid in RFC 4122 form that names no record. */
const NO_SUCH_RECORD = randomUUID()

const sku = (ctx: CheckContext) => `CRMCONF-${ctx.runId}-${Math.random().toString(36).slice(2, 8)}`.toUpperCase()

/** A valid create body with the required fields and nothing else (run tag aside). */
export const CREATE_BASES: Partial<Record<ResourceName, (ctx: CheckContext) => AnyRecord>> = {
  account: (ctx) => ({ name: runLabel(ctx, 'validation account') }),
  contact: (ctx) => ({ firstName: 'Crmconf', lastName: runLabel(ctx, 'validation contact') }),
  case: (ctx) => ({ subject: runLabel(ctx, 'validation case') }),
  comment: () => ({ caseId: NO_SUCH_RECORD, kind: 'internal', html: '<p>crm-conformance validation</p>' }),
  lead: (ctx) => ({ fullName: runLabel(ctx, 'validation lead') }),
  opportunity: (ctx) => ({ name: runLabel(ctx, 'validation opportunity') }),
  quotation: (ctx) => ({ title: runLabel(ctx, 'validation quotation') }),
  order: () => ({ quoteId: NO_SUCH_RECORD }),
  invoice: (ctx) => ({ title: runLabel(ctx, 'validation invoice') }),
  payment: () => ({ amountSen: 100, method: 'cash', paidOn: '2025-01-15', invoiceId: NO_SUCH_RECORD }),
  product: (ctx) => ({ sku: sku(ctx), name: runLabel(ctx, 'validation product'), priceSen: 1_000 }),
  task: (ctx) => ({ title: runLabel(ctx, 'validation task') }),
  activity: (ctx) => ({ kind: 'note', title: runLabel(ctx, 'validation activity') }),
  message: () => ({ conversationId: NO_SUCH_RECORD, text: 'crm-conformance validation' }),
}

/** A record of this run that update and replace probes are sent to: created once, removed by clean-up. */
export function target(ctx: CheckContext, resource: ResourceName): Promise<AnyRecord> {
  return ctx.session.memo(`validation:target:${resource}`, async () => (await createRecord(ctx, resource, CREATE_BASES[resource]!(ctx), { validate: false })).record)
}

/** A complete, valid replace body for the target (§4.4: replace sends every field and all line items). */
export const REPLACE_BASES: Partial<Record<ResourceName, (target: AnyRecord) => AnyRecord>> = {
  quotation: (t) => ({
    title: t.title,
    dealId: null,
    accountId: null,
    contactId: null,
    priceListId: null,
    tier: null,
    language: 'en',
    validUntil: null,
    paymentTermsDays: null,
    terms: null,
    notes: null,
    items: [],
  }),
  invoice: (t) => ({
    title: t.title,
    accountId: null,
    contactId: null,
    language: 'en',
    issueDate: '2030-01-15',
    paymentTermsDays: 30,
    terms: null,
    notes: null,
    items: [],
  }),
  product: (t) => ({
    sku: t.sku,
    name: t.name,
    description: null,
    unit: typeof t.unit === 'string' ? t.unit : 'unit',
    priceSen: 1_000,
    costSen: null,
    currency: t.currency,
    taxCategoryId: null,
    parentId: null,
    options: {},
    status: 'active',
  }),
}
