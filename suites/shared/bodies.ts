// One valid create body per resource (§4.4), so that a refusal can only be about the key, never the body.
// Bodies that name another record take it from a fixture or from the workspace; each carries a unique label
// by which the record can be found if a server created it although it refused the call.
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

/** A valid create body for `resource`; throws MissingReference when a record it must name is not available. */
export async function validCreateBody(ctx: CheckContext, resource: ResourceName, purpose: string): Promise<ValidBody> {
  const label = runLabel(ctx, purpose)
  const email = safeEmail(label)
  switch (resource) {
    case 'account':
      return { body: { name: label, email }, label, references: [], lookup: { ...NEWEST, email } }
    case 'contact':
      return { body: { fullName: label, email }, label, references: [], lookup: { ...NEWEST, email } }
    case 'case':
      return { body: { subject: label, description: 'Written by the crm-conformance suite.' }, label, references: [], lookup: NEWEST }
    case 'comment': {
      const caseId = await someCaseId(ctx)
      // An internal note: a public reply would be emailed to the case contact (§1.6).
      return { body: { caseId, kind: 'internal', html: `<p>${label}</p>` }, label, references: ['case'], lookup: { ...NEWEST, caseId } }
    }
    case 'lead':
      return { body: { fullName: label, email, source: 'api' }, label, references: [], lookup: { ...NEWEST, email } }
    case 'opportunity':
      return { body: { name: label }, label, references: [], lookup: NEWEST }
    case 'quotation':
      return { body: { title: label }, label, references: [], lookup: NEWEST }
    case 'order': {
      const quoteId = fixture(ctx, 'acceptedQuotationId')
      return { body: { quoteId }, references: ['quotation'], lookup: { ...NEWEST, quoteId }, statefulFixture: `the accepted quotation ${quoteId} (some servers take one order per quotation)` }
    }
    case 'invoice':
      return { body: { title: label }, label, references: [], lookup: NEWEST }
    case 'payment': {
      const invoiceId = fixture(ctx, 'sentInvoiceId')
      return {
        body: { invoiceId, amountSen: 1, method: 'other', paidOn: today(), reference: label },
        label,
        references: ['invoice'],
        lookup: { ...NEWEST, invoiceId },
        statefulFixture: `the sent invoice ${invoiceId} (no payment is taken once it is paid in full)`,
      }
    }
    case 'product': {
      const sku = `CRMCONF-${ctx.runId}-${Math.random().toString(36).slice(2, 8)}`.toUpperCase()
      return { body: { sku, name: label, priceSen: 100 }, label, references: [], lookup: { ...NEWEST, sku } }
    }
    case 'task':
      return { body: { title: label }, label, references: [], lookup: NEWEST }
    case 'activity':
      return { body: { kind: 'note', title: label }, label, references: [], lookup: NEWEST }
    case 'message': {
      const conversationId = fixture(ctx, 'conversationId')
      // The conversation is seen through messages:read.
      return { body: { conversationId, text: label }, label, references: ['message'], lookup: { ...NEWEST, conversationId } }
    }
    default:
      throw new Error(`no create body for ${resource}: the API has no create for it (§4.2)`)
  }
}
