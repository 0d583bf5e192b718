// What the resource models (models.ts) are built from: the write context and model shapes, the named workspace
// defaults, the generic body-to-record helpers, money, and the per-resource rules (derived fields, checks).

import sanitizeHtml from 'sanitize-html'
import { RESOURCES, parseFieldType, type BodySpec, type FieldType, type ResourceName, type ResourceSpec } from '../spec/resources.ts'
import { ApiError, invalidField } from './api-error.ts'
import { dateOf, isoOf, parseDate, parseDateTime } from './clock.ts'
import type { FaultId, SwitchesOf } from './faults.ts'
import type { Json, Kind, Store, StoredRecord } from './store.ts'
import type { Variant } from './variants.ts'

/** The faults the models of models.ts play (faults.ts), read through `WriteCtx.faults`: the only switches they can read. */
export const MODEL_FAULTS = [
  'side-effects.contact-account-ignored',
  'side-effects.comment-unsanitised',
  'side-effects.lead-not-routed',
  'side-effects.opportunity-fixed-fields-updatable',
  'state.created-not-draft',
  'state.order-accepted-refused',
  'state.order-from-any-quotation',
  'state.second-order-accepted',
  'state.order-total-before-tax',
  'state.payment-not-applied',
  'side-effects.activity-body-uncut',
  'state.order-refused-only-from-draft',
  'state.create-body-status-honoured',
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
export const SLA_HOURS: Record<string, [number, number]> = { urgent: [1, 4], high: [4, 24], normal: [8, 72], low: [24, 168] }

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
export function emptyOf(type: FieldType): unknown {
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
export function normalize(field: string, recordType: FieldType, bodyType: FieldType, value: unknown): unknown {
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
export function copyBody(spec: ResourceSpec, bodySpec: BodySpec, body: Json, record: Json, hidden: Json): void {
  for (const [field, value] of Object.entries(body)) {
    const bodyType = own(bodySpec.fields, field)
    if (bodyType === undefined || value === undefined) continue
    const recordType = own(spec.record, field)
    if (recordType !== undefined && field !== 'id') record[field] = normalize(field, recordType, bodyType, value)
    else if (own(spec.writeOnly, field) !== undefined)
      hidden[field] = typeof value === 'string' && parseFieldType(bodyType).base === 'uuid' ? normalizeUuid(value) : value
  }
}

/** A table entry by a key that came from a request: never an inherited property such as `constructor`. */
export function own<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined
}

export function has(body: Json, field: string): boolean {
  return Object.prototype.hasOwnProperty.call(body, field) && body[field] !== undefined
}

export function str(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null
}

export function roundRobin(ids: readonly string[], n: number): string | null {
  return ids.length === 0 ? null : ids[(n - 1) % ids.length]
}

/** The n of a record number such as `LEAD-000007`. */
export function numberOf(number: string | null): number {
  return number ? Number(number.replace(/\D+/g, '')) || 1 : 1
}

/** The key's user as owner or assignee of a record created without one; none where the variant sets no default §4.4 does not name. */
export function keyUserDefault(w: WriteCtx): string | null {
  return w.variant.noUnnamedDefaults ? null : w.actor.userId
}

export function createOf(name: ResourceName, body: Json, base: Json): Draft {
  const spec = RESOURCES[name]
  const record: Json = { ...base }
  const hidden: Json = {}
  copyBody(spec, spec.create!, body, record, hidden)
  return { record, hidden }
}

export function mergeOf(name: ResourceName, op: 'update' | 'replace', current: StoredRecord, body: Json): Draft {
  const spec = RESOURCES[name]
  const record: Json = { ...current.record }
  const hidden: Json = { ...current.hidden }
  copyBody(spec, spec[op]!, body, record, hidden)
  return { record, hidden }
}

/** §3: quotations and invoices are created as drafts, whatever status the body names (it is not a §4.4 field). */
export function statusOnCreate(w: WriteCtx, body: Json): string {
  // The faults: created open instead of draft; or the body is mass-assigned, status included.
  if (w.faults['state.created-not-draft']) return 'open'
  return w.faults['state.create-body-status-honoured'] && typeof body.status === 'string' ? body.status : 'draft'
}

export function isDraft(rec: StoredRecord): boolean {
  return rec.record.status === 'draft'
}

/** §3.1 "only while it is a draft": a refusal (refuseReplace, refuseDelete) of a record that is no longer one. */
export function onlyDraft(noun: 'Quotation' | 'Invoice', action: 'replaced' | 'deleted'): (rec: StoredRecord) => string | undefined {
  return (rec) => (isDraft(rec) ? undefined : `${noun} ${rec.record.number} is ${rec.record.status}: only a draft can be ${action}.`)
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

/** The fields an order takes from its quotation (§3.2), as created through the API and as seeded. */
export function orderFromQuotation(number: unknown, quoteId: unknown, q: Json, totalSen: unknown = q.totalSen): Json {
  return {
    number,
    quoteId,
    dealId: q.dealId,
    accountId: q.accountId,
    contactId: q.contactId,
    ownerId: q.ownerId,
    title: q.title,
    status: 'open',
    currency: q.currency,
    totalSen,
    taxSen: q.taxSen,
  }
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

export function contactFullName(record: Json): string {
  const name = [str(record.firstName), str(record.lastName)].filter((s) => s !== null).join(' ')
  return name || str(record.email) || str(record.mobile) || ''
}

/** Whether the fullName is composed from the names: when none was given, or when the variant composes it from names written. */
export function composesFullName(w: WriteCtx, body: Json, given: boolean): boolean {
  return !given || (w.variant.composedFullName === true && (str(body.firstName) !== null || str(body.lastName) !== null))
}

/** The variant's rule that no two live contacts (or leads) of a workspace share an address, compared in any case. */
export function refuseDuplicateEmail(w: WriteCtx, kind: 'contact' | 'lead', email: unknown): void {
  const choice = w.variant.duplicateEmail
  const address = str(email)?.toLowerCase()
  if (!choice || !address) return
  if (w.store.sorted(w.workspace.id, kind, 'createdAt').some((r) => str(r.record.email)?.toLowerCase() === address)) {
    throw new ApiError(choice.status, choice.code, `A ${kind} with the email ${address} already exists.`)
  }
}

/** The variant's rule that a reminder comes at or before the due time. */
export function checkReminder(w: WriteCtx, record: Json): void {
  if (!w.variant.reminderAfterDueRefused || typeof record.remindAt !== 'string' || typeof record.dueAt !== 'string') return
  if (Date.parse(record.remindAt) > Date.parse(record.dueAt)) throw invalidField('remindAt', 'remindAt must be at or before dueAt')
}

export function statusCategoryOf(status: string): string {
  if (status === 'new') return 'new'
  if (status === 'pending' || status === 'on_hold') return 'pending'
  if (status === 'resolved') return 'resolved'
  if (status === 'closed') return 'closed'
  return 'open'
}

export function caseTimes(record: Json, at: number): void {
  const [respond, resolve] = own(SLA_HOURS, String(record.priority)) ?? SLA_HOURS.normal
  const created = typeof record.createdAt === 'string' ? Date.parse(record.createdAt) : at
  record.firstResponseDueAt = isoOf(created + respond * 3_600_000)
  record.resolutionDueAt = isoOf(created + resolve * 3_600_000)
}

export function stageFields(record: Json, at: number): void {
  const stage = String(record.stageKey)
  record.probability = own(STAGES, stage) ?? 10
  record.status = stage === 'closed_won' ? 'won' : stage === 'closed_lost' ? 'lost' : 'open'
  record.wonAt = record.status === 'won' ? isoOf(at) : null
  record.lostAt = record.status === 'lost' ? isoOf(at) : null
}

export function addDays(date: string, days: number): string {
  return dateOf(Date.parse(`${date}T00:00:00.000Z`) + days * 86_400_000)
}

/** Invoice payment terms this server accepts: the due date must stay a real date. */
export const MAX_PAYMENT_TERMS_DAYS = 3650

export function invoiceDerived(record: Json, hidden: Json, at: number): void {
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

export function quotationDerived(w: WriteCtx, record: Json, hidden: Json): void {
  const deal = typeof record.dealId === 'string' ? w.store.get(w.workspace.id, 'opportunity', record.dealId) : undefined
  if (deal) record.currency = deal.record.currency
  Object.assign(record, totalsOf(hidden.items))
}

/** Task `entityType`/`entityId` name what the task is about; an account or contact also fills accountId/contactId. */
export function taskAbout(record: Json): void {
  record.accountId = record.entityType === 'account' ? record.entityId : null
  record.contactId = record.entityType === 'contact' ? record.entityId : null
}

export const TASK_ENTITY_KINDS: Record<string, Kind> = {
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
export function checkTaskEntity(w: WriteCtx, record: Json): void {
  const kind = typeof record.entityType === 'string' ? own(TASK_ENTITY_KINDS, record.entityType) : undefined
  if (kind && typeof record.entityId === 'string' && !w.store.get(w.workspace.id, kind, record.entityId)) {
    throw invalidField('entityId', `entityId names no ${record.entityType} of this workspace`)
  }
}

/** Code units, not splitting a surrogate pair: at most 500 by any count (§2, §8). */
export function preview(body: unknown): string | null {
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
