// What each resource does on create, update, replace and delete: defaults, derived fields, the §3 state rules and
// the §1.6 side effects that the API can show. Field lists come from src/spec/resources.ts.

import sanitizeHtml from 'sanitize-html'
import { RESOURCES, parseFieldType, type BodySpec, type FieldType, type ResourceName, type ResourceSpec } from '../spec/resources.ts'
import { ApiError, invalidField } from './api-error.ts'
import { dateOf, isoOf, parseDate, parseDateTime } from './clock.ts'
import type { FaultId, SwitchesOf } from './faults.ts'
import type { Json, Kind, Store, StoredRecord } from './store.ts'
import type { Variant } from './variants.ts'

/** The faults this module plays (faults.ts): the only switches its code can read. */
export const MODEL_FAULTS = [
  'side-effects.contact-account-ignored', 'side-effects.comment-unsanitised', 'side-effects.lead-not-routed',
  'side-effects.opportunity-fixed-fields-updatable', 'state.created-not-draft', 'state.order-accepted-refused', 'state.order-from-any-quotation',
  'state.second-order-accepted', 'state.order-total-before-tax', 'state.payment-not-applied', 'side-effects.activity-body-uncut',
] as const satisfies readonly FaultId[]

/** Workspace settings the API cannot show but its behaviour depends on (routing, default pipeline). */
export interface Workspace {
  id: string
  name: string
  /** Round-robin targets for new leads (§1.6 "New leads are routed to a sales rep"). */
  salesUserIds: string[]
  /** Round-robin targets for new cases (§1.6 "New cases are routed like any other case"). */
  supportUserIds: string[]
  salesTeamId: string
  supportTeamId: string
  pipelineId: string
}

/** The default pipeline's stages and their win probability; `closed_*` stages close the deal. */
export const STAGES: Record<string, number> = {
  qualification: 10,
  proposal: 40,
  negotiation: 70,
  closed_won: 100,
  closed_lost: 0,
}
export const FIRST_STAGE = 'qualification'
export const DEFAULT_CURRENCY = 'MYR'
export const DEFAULT_PAYMENT_TERMS_DAYS = 30
export const ACTIVITY_BODY_MAX = 500

/** Hours to first response and to resolution, by case priority. */
const SLA_HOURS: Record<string, [number, number]> = { urgent: [1, 4], high: [4, 24], normal: [8, 72], low: [24, 168] }

export interface WriteCtx {
  store: Store
  workspace: Workspace
  actor: { userId: string; displayName: string }
  /** This write's time (ms): strictly after every earlier write. */
  at: number
  /** Another write time, for a second record changed by the same call. */
  stamp(): number
  /** The variant's refusal of a write the record's state does not allow (§3). */
  refuse(message: string): ApiError
  /** A webhook event, sent after the call succeeds (§6). */
  emit(event: { type: string; entityType: string; object: Json; changes: Json }): void
  /** The faults switched on, for the mistakes a model makes (self-validation). */
  faults: SwitchesOf<typeof MODEL_FAULTS>
  /** The legal choices of this server (workspace rules a model applies). */
  variant: Variant
}

export interface Draft {
  record: Json
  hidden: Json
}

export interface Model {
  /** Body fields naming another record: checked to exist in the workspace (400 naming the field otherwise). */
  refs: Record<string, Kind>
  /** Record number prefix (`ACC-000001`); none for records without a number. */
  numberPrefix?: string
  create?(w: WriteCtx, body: Json, number: string | null): Draft
  /** Runs after the created record is stored (side effects on other records). */
  afterCreate?(w: WriteCtx, rec: StoredRecord): void
  update?(w: WriteCtx, current: StoredRecord, body: Json): Draft
  replace?(w: WriteCtx, current: StoredRecord, body: Json): Draft
  /** A message when the record's state refuses the replace (§3.1). */
  refuseReplace?(current: StoredRecord): string | undefined
  refuseDelete?(current: StoredRecord): string | undefined
}

// ---------------------------------------------------------------------------------------------------------------
// Generic helpers

/** The empty value of a record field that the model left unset (every §2 field is always present). */
function emptyOf(type: FieldType): unknown {
  const t = parseFieldType(type)
  if (t.nullable) return null
  switch (t.base) {
    case 'string[]':
    case 'object[]':
      return []
    case 'object':
      return {}
    case 'integer':
      return 0
    default:
      return ''
  }
}

/** The record in the spec's field order, every field present, nothing else. */
export function shape(spec: ResourceSpec, values: Json): Json {
  const out: Json = {}
  for (const [field, type] of Object.entries(spec.record)) out[field] = values[field] === undefined ? emptyOf(type) : values[field]
  return out
}

export function normalizeUuid(value: string): string {
  return value.replace(/^urn:uuid:/i, '').toLowerCase()
}

/** A body value as the record keeps it: uuids lower case, date-times as ISO UTC with ms, dates as YYYY-MM-DD. */
function normalize(field: string, recordType: FieldType, bodyType: FieldType, value: unknown): unknown {
  if (value === null || value === undefined) return null
  if (bodyType === 'email' && value === '') return null
  const base = parseFieldType(recordType).base
  if (typeof value === 'string') {
    if (base === 'uuid') return normalizeUuid(value)
    if (base === 'date-time') {
      const ms = parseDateTime(value)
      if (ms === undefined) throw invalidField(field, `${field} must be an ISO 8601 date-time with a zone`)
      return isoOf(ms)
    }
    if (base === 'date') {
      const d = parseDate(value)
      if (d === undefined) throw invalidField(field, `${field} must be a date (YYYY-MM-DD)`)
      return d
    }
  }
  if (Array.isArray(value)) return [...value]
  return value
}

/** Copies the fields of `body` that `bodySpec` declares: record fields into the record, the others into hidden. */
function copyBody(spec: ResourceSpec, bodySpec: BodySpec, body: Json, record: Json, hidden: Json): void {
  for (const [field, value] of Object.entries(body)) {
    const bodyType = own(bodySpec.fields, field)
    if (bodyType === undefined || value === undefined) continue
    const recordType = own(spec.record, field)
    if (recordType !== undefined && field !== 'id') record[field] = normalize(field, recordType, bodyType, value)
    else if (own(spec.writeOnly, field) !== undefined) hidden[field] = typeof value === 'string' && parseFieldType(bodyType).base === 'uuid' ? normalizeUuid(value) : value
  }
}

/** A table entry by a key that came from a request: never an inherited property such as `constructor`. */
export function own<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined
}

function has(body: Json, field: string): boolean {
  return Object.prototype.hasOwnProperty.call(body, field) && body[field] !== undefined
}

function str(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null
}

function roundRobin(ids: readonly string[], n: number): string | null {
  return ids.length === 0 ? null : ids[(n - 1) % ids.length]
}

/** The n of a record number such as `LEAD-000007`. */
function numberOf(number: string | null): number {
  return number ? Number(number.replace(/\D+/g, '')) || 1 : 1
}

/** The key's user as owner or assignee of a record created without one; none where the variant sets no default §4.4 does not name. */
function keyUserDefault(w: WriteCtx): string | null {
  return w.variant.noUnnamedDefaults ? null : w.actor.userId
}

function createOf(name: ResourceName, body: Json, base: Json): Draft {
  const spec = RESOURCES[name]
  const record: Json = { ...base }
  const hidden: Json = {}
  copyBody(spec, spec.create!, body, record, hidden)
  return { record, hidden }
}

function mergeOf(name: ResourceName, op: 'update' | 'replace', current: StoredRecord, body: Json): Draft {
  const spec = RESOURCES[name]
  const record: Json = { ...current.record }
  const hidden: Json = { ...current.hidden }
  copyBody(spec, spec[op]!, body, record, hidden)
  return { record, hidden }
}

function isDraft(rec: StoredRecord): boolean {
  return rec.record.status === 'draft'
}

// ---------------------------------------------------------------------------------------------------------------
// Money: line items are open objects (§2 "not shown"); this server reads { quantity, unitPriceSen, discountSen,
// taxRatePct } from each and treats anything missing or not a number as 0.

export interface Totals {
  grossSen: number
  discountSen: number
  taxSen: number
  totalSen: number
}

export function totalsOf(items: unknown): Totals {
  const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0)
  let grossSen = 0
  let discountSen = 0
  let taxSen = 0
  for (const item of Array.isArray(items) ? items : []) {
    if (item === null || typeof item !== 'object') continue
    const it = item as Json
    const gross = Math.round(num(it.quantity) * num(it.unitPriceSen))
    const discount = Math.round(num(it.discountSen))
    grossSen += gross
    discountSen += discount
    taxSen += Math.round(((gross - discount) * num(it.taxRatePct)) / 100)
  }
  const totalSen = grossSen - discountSen + taxSen
  if (![grossSen, discountSen, taxSen, totalSen].every(Number.isSafeInteger)) throw invalidField('items', 'items add up to amounts too large to hold')
  return { grossSen, discountSen, taxSen, totalSen }
}

// ---------------------------------------------------------------------------------------------------------------
// Per resource

function contactFullName(record: Json): string {
  const name = [str(record.firstName), str(record.lastName)].filter((s) => s !== null).join(' ')
  return name || str(record.email) || str(record.mobile) || ''
}

/** Whether the fullName is composed from the names: when none was given, or when the variant composes it from names written. */
function composesFullName(w: WriteCtx, body: Json, given: boolean): boolean {
  return !given || (w.variant.composedFullName === true && (str(body.firstName) !== null || str(body.lastName) !== null))
}

/** The variant's rule that no two live contacts (or leads) of a workspace share an address, compared in any case. */
function refuseDuplicateEmail(w: WriteCtx, kind: 'contact' | 'lead', email: unknown): void {
  const choice = w.variant.duplicateEmail
  const address = str(email)?.toLowerCase()
  if (!choice || !address) return
  if (w.store.sorted(w.workspace.id, kind, 'createdAt').some((r) => str(r.record.email)?.toLowerCase() === address)) {
    throw new ApiError(choice.status, choice.code, `A ${kind} with the email ${address} already exists.`)
  }
}

/** The variant's rule that a reminder comes at or before the due time. */
function checkReminder(w: WriteCtx, record: Json): void {
  if (!w.variant.reminderAfterDueRefused || typeof record.remindAt !== 'string' || typeof record.dueAt !== 'string') return
  if (Date.parse(record.remindAt) > Date.parse(record.dueAt)) throw invalidField('remindAt', 'remindAt must be at or before dueAt')
}

function statusCategoryOf(status: string): string {
  if (status === 'new') return 'new'
  if (status === 'pending' || status === 'on_hold') return 'pending'
  if (status === 'resolved') return 'resolved'
  if (status === 'closed') return 'closed'
  return 'open'
}

function caseTimes(record: Json, at: number): void {
  const [respond, resolve] = own(SLA_HOURS, String(record.priority)) ?? SLA_HOURS.normal
  const created = typeof record.createdAt === 'string' ? Date.parse(record.createdAt) : at
  record.firstResponseDueAt = isoOf(created + respond * 3_600_000)
  record.resolutionDueAt = isoOf(created + resolve * 3_600_000)
}

function stageFields(record: Json, at: number): void {
  const stage = String(record.stageKey)
  record.probability = own(STAGES, stage) ?? 10
  record.status = stage === 'closed_won' ? 'won' : stage === 'closed_lost' ? 'lost' : 'open'
  record.wonAt = record.status === 'won' ? isoOf(at) : null
  record.lostAt = record.status === 'lost' ? isoOf(at) : null
}

function addDays(date: string, days: number): string {
  return dateOf(Date.parse(`${date}T00:00:00.000Z`) + days * 86_400_000)
}

/** Invoice payment terms this server accepts: the due date must stay a real date. */
export const MAX_PAYMENT_TERMS_DAYS = 3650

function invoiceDerived(record: Json, hidden: Json, at: number): void {
  record.issueDate ??= dateOf(at)
  record.paymentTermsDays ??= DEFAULT_PAYMENT_TERMS_DAYS
  const days = Number(record.paymentTermsDays)
  if (days < 0 || days > MAX_PAYMENT_TERMS_DAYS) throw invalidField('paymentTermsDays', `paymentTermsDays must be from 0 to ${MAX_PAYMENT_TERMS_DAYS}`)
  record.dueDate = addDays(String(record.issueDate), days)
  if (!/^\d{4}-\d{2}-\d{2}$/.test(String(record.dueDate))) throw invalidField('issueDate', 'issueDate plus paymentTermsDays is past the year 9999')
  const t = totalsOf(hidden.items)
  record.totalSen = t.totalSen
  record.taxSen = t.taxSen
}

function quotationDerived(w: WriteCtx, record: Json, hidden: Json): void {
  const deal = typeof record.dealId === 'string' ? w.store.get(w.workspace.id, 'opportunity', record.dealId) : undefined
  if (deal) record.currency = deal.record.currency
  Object.assign(record, totalsOf(hidden.items))
}

/** Task `entityType`/`entityId` name what the task is about; an account or contact also fills accountId/contactId. */
function taskAbout(record: Json): void {
  record.accountId = record.entityType === 'account' ? record.entityId : null
  record.contactId = record.entityType === 'contact' ? record.entityId : null
}

const TASK_ENTITY_KINDS: Record<string, Kind> = {
  account: 'account',
  contact: 'contact',
  case: 'case',
  lead: 'lead',
  opportunity: 'opportunity',
  deal: 'opportunity',
  quotation: 'quotation',
  order: 'order',
  invoice: 'invoice',
}

/** A task about a known kind of record must name one that exists. */
function checkTaskEntity(w: WriteCtx, record: Json): void {
  const kind = typeof record.entityType === 'string' ? own(TASK_ENTITY_KINDS, record.entityType) : undefined
  if (kind && typeof record.entityId === 'string' && !w.store.get(w.workspace.id, kind, record.entityId)) {
    throw invalidField('entityId', `entityId names no ${record.entityType} of this workspace`)
  }
}

/** Code units, not splitting a surrogate pair: at most 500 by any count (§2, §8). */
function preview(body: unknown): string | null {
  if (typeof body !== 'string') return null
  if (body.length <= ACTIVITY_BODY_MAX) return body
  let cut = body.slice(0, ACTIVITY_BODY_MAX)
  const last = cut.charCodeAt(cut.length - 1)
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1)
  return cut
}

/** §2 comment body: "sanitised HTML": no scripts, no event handlers, no javascript: URLs. */
export function sanitizeComment(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: sanitizeHtml.defaults.allowedTags,
    allowedAttributes: { a: ['href', 'name', 'target', 'rel'], img: ['src', 'alt', 'title', 'width', 'height'] },
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    allowProtocolRelative: false,
  })
}

export const MODELS: Record<ResourceName, Model> = {
  account: {
    refs: { parentId: 'account', ownerId: 'user', backupOwnerId: 'user' },
    numberPrefix: 'ACC',
    create: (w, body, number) => createOf('account', body, { number, ownerId: keyUserDefault(w), tags: [], custom: {} }),
    update(_w, current, body) {
      const d = mergeOf('account', 'update', current, body)
      if (d.record.parentId === current.id) throw invalidField('parentId', 'parentId cannot be the account itself')
      return d
    },
  },

  contact: {
    refs: { ownerId: 'user', accountId: 'account' },
    numberPrefix: 'CON',
    create(w, body, number) {
      refuseDuplicateEmail(w, 'contact', body.email)
      const d = createOf('contact', body, { number, ownerId: keyUserDefault(w), tags: [], custom: {} })
      d.hidden.fullNameGiven = str(body.fullName) !== null
      if (composesFullName(w, body, d.hidden.fullNameGiven === true)) d.record.fullName = contactFullName(d.record)
      // §2: accountId "sets the primary account".
      d.record.primaryAccountId = w.faults['side-effects.contact-account-ignored'] ? null : (d.hidden.accountId ?? null)
      return d
    },
    update(w, current, body) {
      const d = mergeOf('contact', 'update', current, body)
      if (has(body, 'fullName')) d.hidden.fullNameGiven = str(body.fullName) !== null
      if (composesFullName(w, body, d.hidden.fullNameGiven === true)) d.record.fullName = contactFullName(d.record)
      return d
    },
  },

  case: {
    refs: { accountId: 'account', contactId: 'contact', assigneeId: 'user' },
    numberPrefix: 'CASE',
    create(w, body, number) {
      const d = createOf('case', body, { number, description: '', channel: 'api', tags: [], custom: {}, slaState: 'active' })
      d.record.priority ??= 'normal'
      d.record.status ??= 'new'
      d.record.statusCategory = statusCategoryOf(String(d.record.status))
      // §1.6: routed like any other case, when the caller did not choose an assignee.
      if (!has(body, 'assigneeId')) d.record.assigneeId = roundRobin(w.workspace.supportUserIds, numberOf(number))
      if (!has(body, 'teamId')) d.record.teamId = w.workspace.supportTeamId
      d.record.createdAt = isoOf(w.at)
      caseTimes(d.record, w.at)
      if (d.record.statusCategory === 'resolved' || d.record.statusCategory === 'closed') d.record.resolvedAt = isoOf(w.at)
      if (d.record.statusCategory === 'closed') d.record.closedAt = isoOf(w.at)
      return d
    },
    update(w, current, body) {
      const d = mergeOf('case', 'update', current, body)
      if (d.record.priority !== current.record.priority) caseTimes(d.record, w.at)
      return d
    },
  },

  comment: {
    refs: { caseId: 'case' },
    create(w, body) {
      const d = createOf('comment', body, {})
      Object.assign(d.record, {
        authorType: 'user',
        authorId: w.actor.userId,
        authorName: w.actor.displayName,
        body: w.faults['side-effects.comment-unsanitised'] ? String(body.html) : sanitizeComment(String(body.html)),
        via: 'api',
      })
      return d
    },
  },

  lead: {
    refs: { ownerId: 'user' },
    numberPrefix: 'LEAD',
    create(w, body, number) {
      refuseDuplicateEmail(w, 'lead', body.email)
      const d = createOf('lead', body, { number, source: 'api', status: 'new', fields: {} })
      // §1.6: "New leads are routed to a sales rep" when the caller names no owner.
      if (!has(body, 'ownerId') && !w.faults['side-effects.lead-not-routed']) {
        d.record.ownerId = roundRobin(w.workspace.salesUserIds, numberOf(number))
        if (!has(body, 'teamId')) d.record.teamId = w.workspace.salesTeamId
      }
      return d
    },
    update: (_w, current, body) => mergeOf('lead', 'update', current, body),
  },

  opportunity: {
    refs: { accountId: 'account', contactId: 'contact', ownerId: 'user' },
    numberPrefix: 'DEAL',
    create(w, body, number) {
      const d = createOf('opportunity', body, {
        number,
        pipelineId: w.variant.noUnnamedDefaults ? null : w.workspace.pipelineId,
        amountSen: 0,
        currency: DEFAULT_CURRENCY,
        ownerId: keyUserDefault(w),
        competitors: [],
      })
      d.record.stageKey ??= FIRST_STAGE
      stageFields(d.record, w.at)
      return d
    },
    // §4.4: pipeline, stage and currency are not in the update body, so they are never changed here.
    update(w, current, body) {
      const d = mergeOf('opportunity', 'update', current, body)
      if (w.faults['side-effects.opportunity-fixed-fields-updatable']) {
        for (const f of ['pipelineId', 'stageKey', 'currency']) if (has(body, f)) d.record[f] = body[f]
      }
      return d
    },
  },

  quotation: {
    refs: { dealId: 'opportunity', accountId: 'account', contactId: 'contact' },
    numberPrefix: 'QUO',
    create(w, body, number) {
      // §3: created as a draft.
      const status = w.faults['state.created-not-draft'] ? 'open' : 'draft'
      const d = createOf('quotation', body, { number, version: 1, ownerId: keyUserDefault(w), status, currency: DEFAULT_CURRENCY, language: 'en' })
      quotationDerived(w, d.record, d.hidden)
      return d
    },
    replace(w, current, body) {
      const d = mergeOf('quotation', 'replace', current, body)
      d.record.version = Number(current.record.version) + 1
      quotationDerived(w, d.record, d.hidden)
      return d
    },
    refuseReplace: (q) => (isDraft(q) ? undefined : `Quotation ${q.record.number} is ${q.record.status}: only a draft can be replaced.`),
    refuseDelete: (q) => (isDraft(q) ? undefined : `Quotation ${q.record.number} is ${q.record.status}: only a draft can be deleted.`),
  },

  order: {
    refs: { quoteId: 'quotation' },
    numberPrefix: 'ORD',
    create(w, body, number) {
      // §3.2: an order is created from an accepted quotation, at most once.
      const quote = w.store.get(w.workspace.id, 'quotation', normalizeUuid(String(body.quoteId)))!
      const accepted = w.faults['state.order-accepted-refused'] ? 'approved' : 'accepted'
      if (quote.record.status !== accepted && !w.faults['state.order-from-any-quotation']) throw w.refuse(`Quotation ${quote.record.number} is ${quote.record.status}, not accepted.`)
      // The fault: the one-order rule is left to the client; a quotation takes any number of orders.
      if (!w.faults['state.second-order-accepted'] && w.store.sorted(w.workspace.id, 'order', 'createdAt').some((o) => o.record.quoteId === quote.id)) {
        throw w.refuse(`Quotation ${quote.record.number} already has an order.`)
      }
      const q = quote.record
      const record: Json = {
        number,
        quoteId: quote.id,
        dealId: q.dealId,
        accountId: q.accountId,
        contactId: q.contactId,
        ownerId: q.ownerId,
        title: q.title,
        status: 'open',
        currency: q.currency,
        totalSen: w.faults['state.order-total-before-tax'] ? q.grossSen : q.totalSen,
        taxSen: q.taxSen,
      }
      return { record, hidden: {} }
    },
  },

  invoice: {
    refs: { accountId: 'account', contactId: 'contact' },
    numberPrefix: 'INV',
    create(w, body, number) {
      // §3: created as a draft.
      const status = w.faults['state.created-not-draft'] ? 'open' : 'draft'
      const d = createOf('invoice', body, { number, ownerId: keyUserDefault(w), status, currency: DEFAULT_CURRENCY, language: 'en', paidSen: 0 })
      invoiceDerived(d.record, d.hidden, w.at)
      return d
    },
    replace(w, current, body) {
      const d = mergeOf('invoice', 'replace', current, body)
      invoiceDerived(d.record, d.hidden, w.at)
      return d
    },
    refuseReplace: (i) => (isDraft(i) ? undefined : `Invoice ${i.record.number} is ${i.record.status}: only a draft can be replaced.`),
  },

  payment: {
    refs: { invoiceId: 'invoice' },
    numberPrefix: 'PAY',
    create(w, body, number) {
      const invoice = w.store.get(w.workspace.id, 'invoice', normalizeUuid(String(body.invoiceId)))!
      const inv = invoice.record
      if (inv.status === 'draft') throw w.refuse(`Invoice ${inv.number} is a draft: send it before recording payments.`)
      if (inv.voidedAt != null || inv.status === 'void') throw w.refuse(`Invoice ${inv.number} is void.`)
      if (inv.status === 'paid') throw w.refuse(`Invoice ${inv.number} is already paid.`)
      const due = Number(inv.totalSen) - Number(inv.paidSen)
      const amount = Number(body.amountSen)
      if (amount < 1) throw invalidField('amountSen', 'amountSen must be at least 1')
      if (amount > due) throw invalidField('amountSen', `amountSen exceeds the amount due on the invoice (${due})`)
      return createOf('payment', body, { number, source: 'api' })
    },
    afterCreate(w, payment) {
      // Payments raise the invoice's paidSen; paid in full, the invoice becomes paid (§2, §6.2 invoice.paid).
      const invoice = w.store.get(w.workspace.id, 'invoice', String(payment.record.invoiceId))!
      const at = w.stamp()
      const before = invoice.record
      const paidSen = Number(before.paidSen) + (w.faults['state.payment-not-applied'] ? 0 : Number(payment.record.amountSen))
      const paid = paidSen >= Number(before.totalSen)
      const record: Json = { ...before, paidSen, status: paid ? 'paid' : 'partially_paid', paidAt: paid ? isoOf(at) : before.paidAt, updatedAt: isoOf(at) }
      w.store.put(w.workspace.id, 'invoice', { ...invoice, record, updatedAtMs: at })
      w.emit({ type: 'invoice.updated', entityType: 'invoice', object: record, changes: changesOf(before, record) })
      if (paid) w.emit({ type: 'invoice.paid', entityType: 'invoice', object: record, changes: changesOf(before, record) })
    },
  },

  product: {
    refs: { parentId: 'product' },
    create: (_w, body) => createOf('product', body, { unit: 'unit', currency: DEFAULT_CURRENCY, options: {}, status: 'active' }),
    replace(_w, current, body) {
      const d = mergeOf('product', 'replace', current, body)
      if (d.record.parentId === current.id) throw invalidField('parentId', 'parentId cannot be the product itself')
      return d
    },
  },

  task: {
    refs: { assigneeId: 'user' },
    numberPrefix: 'TASK',
    create(w, body, number) {
      const d = createOf('task', body, { number, status: 'open', priority: 'medium', assigneeId: keyUserDefault(w) })
      checkTaskEntity(w, d.record)
      checkReminder(w, d.record)
      taskAbout(d.record)
      return d
    },
    update(w, current, body) {
      const d = mergeOf('task', 'update', current, body)
      checkTaskEntity(w, d.record)
      checkReminder(w, d.record)
      taskAbout(d.record)
      return d
    },
  },

  activity: {
    refs: { accountId: 'account', contactId: 'contact' },
    create(w, body) {
      const d = createOf('activity', body, { actorUserId: w.actor.userId, actorType: 'user' })
      // The subject is the most specific record named: the contact, else the account, else the acting user.
      const [subjectType, subjectId] = d.record.contactId
        ? ['contact', d.record.contactId]
        : d.record.accountId
          ? ['account', d.record.accountId]
          : ['user', w.actor.userId]
      Object.assign(d.record, { subjectType, subjectId, body: w.faults['side-effects.activity-body-uncut'] ? (d.record.body ?? null) : preview(d.record.body) })
      d.hidden.fullBody = body.body ?? null
      d.record.occurredAt ??= isoOf(w.at)
      return d
    },
  },

  message: {
    refs: { conversationId: 'conversation' },
    create(w, body) {
      // §1.6: a reply goes out through the conversation's channel: outbound, by an agent.
      const d = createOf('message', body, { direction: 'out', author: 'agent', authorUserId: w.actor.userId, status: 'sent' })
      d.record.body = body.text
      return d
    },
  },

  article: { refs: {} },
  user: { refs: {} },
}

/** `{ field: { from, to } }` for every field that changed, `updatedAt` aside. */
export function changesOf(before: Json, after: Json): Json {
  const changes: Json = {}
  for (const [field, to] of Object.entries(after)) {
    if (field === 'updatedAt') continue
    const from = before[field]
    if (JSON.stringify(from) !== JSON.stringify(to)) changes[field] = { from: from ?? null, to }
  }
  return changes
}
