// One body builder per resource (§4.4): the minimal create (the required fields, a label in free text), and
// the complete replace body of a record. `validCreateBody` completes the minimal create with the record it
// must name and a way to find the record again, so that a refusal can only be about the key, never the body:
// each carries a unique label by which the record can be found if a server created it although it refused.
import type { CheckContext } from '../../src/checks/types.ts'
import { FIXTURE_VARIABLES, type FixtureName } from '../../src/config/config.ts'
import { recordsNotInUse, runLabel, safeEmail, type AnyRecord } from '../../src/engine/operations.ts'
import type { Query } from '../../src/http/transport.ts'
import { RESOURCES, type ResourceName } from '../../src/spec/resources.ts'

export interface ValidBody {
  body: AnyRecord
  /** Unique text inside the body, to find the record again; absent when the body has no free text. */
  label?: string
  /** Records the body names: a key that cannot read them may also be refused for that reason (order not shown). */
  references: ResourceName[]
  /** The list query that narrows the search for a record created from this body. */
  lookup: Query
  /** The fixture the body names, when its state may refuse the write whoever sends it. */
  statefulFixture?: string
}

/** What a body needs and lacks: the variable to set, or why nothing was found. */
export class MissingReference extends Error {}

const RESOURCES_WITH_CREATE = (Object.keys(RESOURCES) as ResourceName[]).filter((r) => RESOURCES[r].ops.create)

/** Resources with a create operation (§4.2), in table order. */
export function creatable(): ResourceName[] {
  return RESOURCES_WITH_CREATE
}

/**
 * The profile a create of this resource needs (rule 4): `safe` when the API can delete it again, `full` when it
 * cannot (comments, orders, invoices, payments, products, activities) or when it has an outward effect (a
 * message reply goes out through the conversation's channel, §1.6).
 */
export function createNeeds(resource: ResourceName): 'safe' | 'full' {
  return RESOURCES[resource].ops.delete && resource !== 'message' ? 'safe' : 'full'
}

function fixture(ctx: CheckContext, name: FixtureName): string {
  const id = ctx.config.fixtures[name]
  if (!id) throw new MissingReference(`${FIXTURE_VARIABLES[name]} is not set`)
  return id
}

/** A case of the workspace for comments to name, one no check of the run owns (it may be deleted): listed once per run. */
async function someCaseId(ctx: CheckContext): Promise<string> {
  const id = await ctx.session.memo('auth.some-case-id', async () => {
    const res = await ctx.api.get(RESOURCES.case.path, { limit: 100, sort: 'createdAt', order: 'asc' })
    const [found] = await recordsNotInUse(ctx, res.ok && Array.isArray(res.body?.data) ? res.body.data : [])
    return typeof found?.id === 'string' ? found.id : ''
  })
  if (!id) throw new MissingReference('the workspace has no case for a comment to name (GET /cases is empty)')
  return id
}

function today(): string {
  return new Date().toISOString().slice(0, 10)
}

const NEWEST: Query = { limit: 100, sort: 'createdAt', order: 'desc' }

/** The product SKU of this run: §4.3 products `sku` "exact SKU, upper case", so written in upper case already. */
export function runSku(ctx: CheckContext): string {
  return `CRMCONF-${ctx.runId}-${Math.random().toString(36).slice(2, 8)}`.toUpperCase()
}

/** The field by which a create names the record it belongs to (§4.4: required), and that record's resource. */
export const PARENTS: Partial<Record<ResourceName, { field: string; resource: ResourceName }>> = {
  comment: { field: 'caseId', resource: 'case' },
  order: { field: 'quoteId', resource: 'quotation' },
  payment: { field: 'invoiceId', resource: 'invoice' },
  message: { field: 'conversationId', resource: 'message' },
}

/**
 * The minimal valid create body: the fields §4.4 requires, `label` in the first free-text one, and no parent
 * (see PARENTS and minimalCreate). A contact requires nothing; it is named as the other suites name people.
 */
const MINIMAL_CREATE: Partial<Record<ResourceName, (ctx: CheckContext, label: string) => AnyRecord>> = {
  account: (_ctx, label) => ({ name: label }),
  contact: (_ctx, label) => ({ firstName: 'Crmconf', lastName: label }),
  case: (_ctx, label) => ({ subject: label }),
  // An internal note: a public reply would be emailed to the case contact (§1.6).
  comment: (_ctx, label) => ({ kind: 'internal', html: `<p>${label}</p>` }),
  lead: (_ctx, label) => ({ fullName: label }),
  opportunity: (_ctx, label) => ({ name: label }),
  quotation: (_ctx, label) => ({ title: label }),
  order: () => ({}),
  invoice: (_ctx, label) => ({ title: label }),
  // One sen: a payment a server takes although it should not uses up as little of the invoice as it can.
  payment: (_ctx, label) => ({ amountSen: 1, method: 'other', paidOn: today(), reference: label }),
  product: (ctx, label) => ({ sku: runSku(ctx), name: label, priceSen: 100 }),
  task: (_ctx, label) => ({ title: label }),
  activity: (_ctx, label) => ({ kind: 'note', title: label }),
  message: (_ctx, label) => ({ text: label }),
}

/** Whether the suite has a minimal create body for the resource (every resource with a create, §4.2). */
export function hasCreateBody(resource: ResourceName): boolean {
  return MINIMAL_CREATE[resource] !== undefined
}

/** The minimal valid create body of `resource`, naming `parent` (an id) where the create names one. */
export function minimalCreate(ctx: CheckContext, resource: ResourceName, label: string, parent?: string): AnyRecord {
  const make = MINIMAL_CREATE[resource]
  if (!make) throw new Error(`no create body for ${resource}: the API has no create for it (§4.2)`)
  const field = PARENTS[resource]?.field
  return field && parent !== undefined ? { [field]: parent, ...make(ctx, label) } : make(ctx, label)
}

/** A complete, valid replace body for a record (§4.4: replace sends every field and all line items). */
export const REPLACE_BODIES: Partial<Record<ResourceName, (record: AnyRecord) => AnyRecord>> = {
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

/** Resources found again by the email address their body carries. */
const BY_EMAIL: ReadonlySet<ResourceName> = new Set(['account', 'contact', 'lead'])

/** A valid create body for `resource`; throws MissingReference when a record it must name is not available. */
export async function validCreateBody(ctx: CheckContext, resource: ResourceName, purpose: string): Promise<ValidBody> {
  const label = runLabel(ctx, purpose)
  switch (resource) {
    case 'comment': {
      const caseId = await someCaseId(ctx)
      return { body: minimalCreate(ctx, resource, label, caseId), label, references: ['case'], lookup: { ...NEWEST, caseId } }
    }
    case 'order': {
      const quoteId = fixture(ctx, 'acceptedQuotationId')
      return { body: minimalCreate(ctx, resource, label, quoteId), references: ['quotation'], lookup: { ...NEWEST, quoteId }, statefulFixture: `the accepted quotation ${quoteId} (some servers take one order per quotation)` }
    }
    case 'payment': {
      const invoiceId = fixture(ctx, 'sentInvoiceId')
      return {
        body: minimalCreate(ctx, resource, label, invoiceId),
        label,
        references: ['invoice'],
        lookup: { ...NEWEST, invoiceId },
        statefulFixture: `the sent invoice ${invoiceId} (no payment is taken once it is paid in full)`,
      }
    }
    case 'product': {
      const body = minimalCreate(ctx, resource, label)
      return { body, label, references: [], lookup: { ...NEWEST, sku: body.sku } }
    }
    case 'message': {
      const conversationId = fixture(ctx, 'conversationId')
      // The conversation is seen through messages:read.
      return { body: minimalCreate(ctx, resource, label, conversationId), label, references: ['message'], lookup: { ...NEWEST, conversationId } }
    }
    default: {
      const body = minimalCreate(ctx, resource, label)
      if (!BY_EMAIL.has(resource)) return { body, label, references: [], lookup: NEWEST }
      const email = safeEmail(label)
      return { body: { ...body, email }, label, references: [], lookup: { ...NEWEST, email } }
    }
  }
}
