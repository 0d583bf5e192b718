// Quotations and invoices of this run, and the §4.4 replace bodies. A replace sends every field and all line
// items (§4.2); the inner shape of items is not shown (§2), so the only item list every server must take is [].
import { createRecord, runLabel, validate, ENUMS } from '../../src/checks/index.ts'
import type { CheckContext, AnyRecord, DraftResource } from '../../src/checks/index.ts'

const DAY_MS = 86_400_000

export function dateIn(days: number): string {
  return new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10)
}

function language(value: unknown): string {
  return (ENUMS.language as readonly unknown[]).includes(value) ? String(value) : 'en'
}

/** A harness guard: a body of ours that breaks §4.4 would make a refusal prove nothing. */
function checked(key: 'writes/quotation.replace' | 'writes/invoice.replace', body: AnyRecord): AnyRecord {
  const issues = validate(key, body)
  if (issues.length > 0) throw new Error(`our ${key} body breaks §4.4: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`)
  return body
}

/** Every field of the quotation replace body, taken from a record where the record shows it. */
export function quotationReplaceBody(from: AnyRecord, overrides: AnyRecord = {}): AnyRecord {
  return checked('writes/quotation.replace', {
    title: from.title,
    dealId: from.dealId ?? null,
    accountId: from.accountId ?? null,
    contactId: from.contactId ?? null,
    priceListId: null,
    tier: null,
    language: language(from.language),
    validUntil: from.validUntil ?? null,
    paymentTermsDays: from.paymentTermsDays ?? null,
    terms: from.terms ?? null,
    notes: null,
    items: [],
    ...overrides,
  })
}

/** Every field of the invoice replace body, taken from a record where the record shows it. */
export function invoiceReplaceBody(from: AnyRecord, overrides: AnyRecord = {}): AnyRecord {
  return checked('writes/invoice.replace', {
    title: from.title,
    accountId: from.accountId ?? null,
    contactId: from.contactId ?? null,
    language: language(from.language),
    issueDate: from.issueDate ?? null,
    paymentTermsDays: from.paymentTermsDays ?? null,
    terms: null,
    notes: null,
    items: [],
    ...overrides,
  })
}

export function newQuotationBody(ctx: CheckContext): AnyRecord {
  return {
    title: runLabel(ctx, 'quotation'),
    language: 'en',
    validUntil: dateIn(30),
    paymentTermsDays: 30,
    terms: 'crmconf draft terms',
    items: [],
  }
}

export function newInvoiceBody(ctx: CheckContext): AnyRecord {
  return {
    title: runLabel(ctx, 'invoice'),
    language: 'en',
    issueDate: dateIn(0),
    paymentTermsDays: 30,
    terms: 'crmconf draft terms',
    items: [],
  }
}

/** The §4.4 replace body of each draft resource, every field taken from `from` where the record shows it. */
export const REPLACE_BODIES: Record<DraftResource, (from: AnyRecord, overrides?: AnyRecord) => AnyRecord> = {
  quotation: quotationReplaceBody,
  invoice: invoiceReplaceBody,
}

const NEW_BODIES: Record<DraftResource, (ctx: CheckContext) => AnyRecord> = { quotation: newQuotationBody, invoice: newInvoiceBody }

/**
 * The run's draft of `resource`, created once and shared: a quotation is deleted at clean-up, an invoice cannot be
 * deleted (§4.2) and needs the full profile.
 */
export async function sharedDraft(ctx: CheckContext, resource: DraftResource): Promise<AnyRecord> {
  return ctx.session.memo(`state.draft-${resource}`, async () => (await createRecord(ctx, resource, NEW_BODIES[resource](ctx), { validate: false })).record)
}

/** `record` when it is a draft, else a skip: whether the server creates one as a draft is created-draft's verdict. */
export function draftOrSkip(ctx: CheckContext, resource: DraftResource, record: AnyRecord): AnyRecord {
  if (record.status !== 'draft')
    ctx.skip(`the created ${resource} has status ${JSON.stringify(record.status)}, not draft (see state.${resource}.created-draft)`)
  return record
}

/** The shared draft, or a skip when the server did not create it as a draft. */
export async function sharedDraftOrSkip(ctx: CheckContext, resource: DraftResource): Promise<AnyRecord> {
  return draftOrSkip(ctx, resource, await sharedDraft(ctx, resource))
}
