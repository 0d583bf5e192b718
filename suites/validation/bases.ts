// The valid bodies each probe starts from (one defect is then added), and the records that update and replace
// probes are sent to. A create that names its parent (a comment its case, a payment its invoice, a message its
// conversation) names a real one, so that a server which loads the parent first still judges the defect: the
// run's validation case, its draft invoice (every probe is refused anyway), and a conversation of the workspace.
// An order's only field is its quotation, so its probes are about that reference and no real one is needed.
import { randomUUID } from 'node:crypto'
import { CheckFailed } from '../../src/checks/define.ts'
import type { CheckContext } from '../../src/checks/types.ts'
import { createRecord, runLabel, type AnyRecord } from '../../src/engine/operations.ts'
import { RESOURCES, type ResourceName } from '../../src/spec/resources.ts'
import { listedOnce, recordsOf } from '../shared/fixtures.ts'

/** A uuid in RFC 4122 form that names no record. */
const NO_SUCH_RECORD = randomUUID()

const sku = (ctx: CheckContext) => `CRMCONF-${ctx.runId}-${Math.random().toString(36).slice(2, 8)}`.toUpperCase()

/** A valid create body with the required fields and nothing else (run tag aside); parents are added by createBase. */
export const CREATE_BASES: Partial<Record<ResourceName, (ctx: CheckContext) => AnyRecord>> = {
  account: (ctx) => ({ name: runLabel(ctx, 'validation account') }),
  contact: (ctx) => ({ firstName: 'Crmconf', lastName: runLabel(ctx, 'validation contact') }),
  case: (ctx) => ({ subject: runLabel(ctx, 'validation case') }),
  comment: () => ({ kind: 'internal', html: '<p>crm-conformance validation</p>' }),
  lead: (ctx) => ({ fullName: runLabel(ctx, 'validation lead') }),
  opportunity: (ctx) => ({ name: runLabel(ctx, 'validation opportunity') }),
  quotation: (ctx) => ({ title: runLabel(ctx, 'validation quotation') }),
  order: () => ({ quoteId: NO_SUCH_RECORD }),
  invoice: (ctx) => ({ title: runLabel(ctx, 'validation invoice') }),
  payment: () => ({ amountSen: 100, method: 'cash', paidOn: '2025-01-15' }),
  product: (ctx) => ({ sku: sku(ctx), name: runLabel(ctx, 'validation product'), priceSen: 1_000 }),
  task: (ctx) => ({ title: runLabel(ctx, 'validation task') }),
  activity: (ctx) => ({ kind: 'note', title: runLabel(ctx, 'validation activity') }),
  message: () => ({ text: 'crm-conformance validation' }),
}

interface Parent {
  field: string
  id(ctx: CheckContext): Promise<string>
}

/** The run's own record, or a skip naming it when the server would not create it (the records area judges that). */
async function ownTarget(ctx: CheckContext, resource: ResourceName, forWhat: string): Promise<string> {
  try {
    return String((await target(ctx, resource)).id)
  } catch (error) {
    if (error instanceof CheckFailed) ctx.skip(`the run's validation ${resource} for ${forWhat} to name could not be created: ${error.message}`)
    throw error
  }
}

/** The configured conversation, or that of a listed message (messages cannot make one, §4.2). */
async function someConversationId(ctx: CheckContext): Promise<string> {
  const configured = ctx.config.fixtures.conversationId
  if (configured) return configured
  const id = recordsOf(await listedOnce(ctx, 'message')).find((m) => typeof m?.conversationId === 'string')?.conversationId
  if (!id) ctx.skip(`no conversation for the message probes to name: GET ${RESOURCES.message.path} lists no message with a conversationId; set CRM_FIXTURE_CONVERSATION_ID`)
  return id
}

const PARENTS: Partial<Record<ResourceName, Parent>> = {
  comment: { field: 'caseId', id: (ctx) => ownTarget(ctx, 'case', 'the comment probes') },
  payment: { field: 'invoiceId', id: (ctx) => ownTarget(ctx, 'invoice', 'the payment probes') },
  message: { field: 'conversationId', id: someConversationId },
}

/** The valid create body of a probe, naming a real parent where the create has one. */
export async function createBase(ctx: CheckContext, resource: ResourceName): Promise<AnyRecord> {
  const base = CREATE_BASES[resource]!(ctx)
  const parent = PARENTS[resource]
  return parent ? { ...base, [parent.field]: await parent.id(ctx) } : base
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
