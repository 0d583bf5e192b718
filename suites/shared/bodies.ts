// One body builder per resource (§4.4): the minimal create (the required fields, a label in free text), the
// full create (every field a round trip can read back), and the complete replace body of a record.
// `validCreateBody` completes the minimal create with the record it must name and a way to find the record
// again, so that a refusal can only be about the key, never the body: each carries a unique label by which the
// record can be found if a server created it although it refused the call.
import { FIXTURE_VARIABLES, recordsNotInUse, runLabel, safeEmail, safePhone, RESOURCES } from '../../src/checks/index.ts'
import type { CheckContext, FixtureName, AnyRecord, Query, ResourceName } from '../../src/checks/index.ts'

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

/** The field by which a create names the record it belongs to (§4.4: required). */
const PARENT_FIELD: Partial<Record<ResourceName, string>> = {
  comment: 'caseId',
  order: 'quoteId',
  payment: 'invoiceId',
  message: 'conversationId',
}

/**
 * The minimal valid create body: the fields §4.4 requires, `label` in the first free-text one, and no parent
 * (see PARENT_FIELD and minimalCreate). A contact requires nothing (§4.4); it gets a first and last name.
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
  const field = PARENT_FIELD[resource]
  return field && parent !== undefined ? { [field]: parent, ...make(ctx, label) } : make(ctx, label)
}

/** Tags to write: the run's tag, by which `sweep` finds the record, and one of the body's own. */
export const runTags = (ctx: CheckContext, extra: string): string[] => [ctx.session.runTag, extra]

/**
 * The full create body: every field a round trip can read back (strings, nulls, tags, dates and date-times),
 * `label` in the first free-text one. Open-shaped objects (custom, address, fields, options, items,
 * recurrence: "not shown", §2) are written empty or null, since a conformant workspace may refuse keys it does
 * not define. `parent` is the record the body names (a comment's case, an activity's account).
 */
const FULL_CREATE: Partial<Record<ResourceName, (ctx: CheckContext, label: string, parent?: string) => AnyRecord>> = {
  account: (ctx, label) => ({
    name: label,
    legalName: null,
    // Of this run: a workspace may hold registration numbers unique.
    registrationNo: `CRMCONF-REG-${ctx.runId}`,
    industry: 'Testing',
    website: 'https://example.com/crmconf',
    email: safeEmail(`account ${ctx.runId}`),
    phone: safePhone(11),
    address: null,
    tier: null,
    parentId: null,
    backupOwnerId: null,
    tags: runTags(ctx, 'crmconf-created'),
    custom: {},
  }),
  contact: (ctx, label) => ({
    firstName: 'Crmconf',
    lastName: label,
    email: safeEmail(`contact ${ctx.runId}`),
    mobile: safePhone(12),
    office: null,
    home: null,
    title: 'Tester',
    department: 'Quality',
    locale: 'ms',
    tags: runTags(ctx, 'crmconf-created'),
    custom: {},
    accountId: null,
    accountRole: null,
  }),
  case: (ctx, label) => ({
    subject: label,
    description: 'Opened by crm-conformance.',
    categoryId: null,
    subCategoryId: null,
    accountId: null,
    contactId: null,
    tags: runTags(ctx, 'crmconf-created'),
    custom: {},
  }),
  // An internal note: a public reply would be emailed to the case contact (§1.6). Fixed markup: the round
  // trip reads its text back.
  comment: () => ({ kind: 'internal', html: '<p>Internal note by <strong>crm-conformance</strong>.</p>' }),
  lead: (ctx, label) => ({
    fullName: label,
    companyName: 'Crmconf Test Company',
    email: safeEmail(`lead ${ctx.runId}`),
    phone: safePhone(13),
    source: 'manual',
    sourceDetail: null,
    fields: {},
    language: 'en',
  }),
  opportunity: (_ctx, label) => ({
    name: label,
    accountId: null,
    contactId: null,
    amountSen: 1_234_500,
    expectedCloseDate: '2030-06-28',
    source: null,
    competitors: ['crmconf-rival'],
    nextStep: 'Send the proposal',
  }),
  quotation: (_ctx, label) => ({
    title: label,
    dealId: null,
    accountId: null,
    contactId: null,
    priceListId: null,
    tier: null,
    language: 'ms',
    validUntil: '2030-12-31',
    paymentTermsDays: 14,
    terms: null,
    notes: 'Drafted by crm-conformance.',
    items: [],
  }),
  invoice: (_ctx, label) => ({
    title: label,
    accountId: null,
    contactId: null,
    language: 'ms',
    issueDate: '2030-01-15',
    paymentTermsDays: 14,
    terms: 'Payment within 14 days.',
    notes: 'Drafted by crm-conformance.',
    items: [],
  }),
  product: (ctx, label) => ({
    // §4.3 products `sku` "exact SKU, upper case": written in upper case already.
    sku: runSku(ctx),
    name: label,
    description: null,
    unit: 'hour',
    priceSen: 15_000,
    costSen: null,
    taxCategoryId: null,
    parentId: null,
    options: {},
    status: 'active',
  }),
  task: (_ctx, label) => ({
    title: label,
    description: null,
    priority: 'high',
    // An offset other than Z: the same instant must come back, in whatever ISO 8601 form (§2).
    dueAt: '2030-01-15T09:30:00+08:00',
    remindAt: null,
    entityType: null,
    entityId: null,
    recurrence: null,
  }),
  activity: (_ctx, label, parent) => ({
    kind: 'note',
    accountId: parent ?? null,
    contactId: null,
    title: label,
    body: 'Logged by crm-conformance.',
    occurredAt: '2025-03-01T10:00:00+08:00',
  }),
}

/** The full create body of `resource` (FULL_CREATE), naming `parent` where the create names one (PARENT_FIELD). */
export function fullCreate(ctx: CheckContext, resource: ResourceName, label: string, parent?: string): AnyRecord {
  const make = FULL_CREATE[resource]
  if (!make) throw new Error(`no full create body for ${resource}`)
  const field = PARENT_FIELD[resource]
  return field && parent !== undefined ? { [field]: parent, ...make(ctx, label) } : make(ctx, label, parent)
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
      return {
        body: minimalCreate(ctx, resource, label, quoteId),
        references: ['quotation'],
        lookup: { ...NEWEST, quoteId },
        statefulFixture: `the accepted quotation ${quoteId} (some servers take one order per quotation)`,
      }
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
