// What each resource does on create, update, replace and delete: defaults, derived fields, the §3 state rules and
// the §1.6 side effects that the API can show. Field lists come from src/spec/resources.ts; the helpers and rules
// the table is built from are in model-kit.ts.

import { LIMITS, type ResourceName } from '../spec/resources.ts'
import { invalidField } from './api-error.ts'
import { isoOf } from './clock.ts'
import {
  caseTimes,
  checkReminder,
  checkTaskEntity,
  composesFullName,
  contactFullName,
  createOf,
  DEFAULT_CURRENCY,
  FIRST_STAGE,
  has,
  invoiceDerived,
  onlyDraft,
  statusOnCreate,
  keyUserDefault,
  mergeOf,
  normalizeUuid,
  numberOf,
  preview,
  quotationDerived,
  refuseDuplicateEmail,
  roundRobin,
  sanitizeComment,
  stageFields,
  statusCategoryOf,
  str,
  taskAbout,
  orderFromQuotation,
  type Model,
  type WriteCtx,
} from './model-kit.ts'
import type { Json } from './store.ts'

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
        body: w.faults['side-effects.comment-unsanitised'] ? String(body.html) : sanitizeComment(refuseUnsafe(w, String(body.html))),
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
      const status = statusOnCreate(w, body)
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
    refuseReplace: onlyDraft('Quotation', 'replaced'),
    refuseDelete: onlyDraft('Quotation', 'deleted'),
  },

  order: {
    refs: { quoteId: 'quotation' },
    numberPrefix: 'ORD',
    create(w, body, number) {
      // §3.2: an order is created from an accepted quotation, at most once.
      const quote = w.store.get(w.workspace.id, 'quotation', normalizeUuid(String(body.quoteId)))!
      const accepted = w.faults['state.order-accepted-refused'] ? 'approved' : 'accepted'
      // The fault: the rule is written as "not a draft", so a sent quotation, not yet decided, takes an order.
      const refused = w.faults['state.order-refused-only-from-draft'] ? quote.record.status === 'draft' : quote.record.status !== accepted
      if (refused && !w.faults['state.order-from-any-quotation']) throw w.refuse(`Quotation ${quote.record.number} is ${quote.record.status}, not accepted.`)
      // The fault: the one-order rule is left to the client; a quotation takes any number of orders.
      if (!w.faults['state.second-order-accepted'] && w.store.sorted(w.workspace.id, 'order', 'createdAt').some((o) => o.record.quoteId === quote.id)) {
        throw w.refuse(`Quotation ${quote.record.number} already has an order.`)
      }
      const q = quote.record
      // The fault: the order's total is the quotation's before tax.
      const record = orderFromQuotation(number, quote.id, q, w.faults['state.order-total-before-tax'] ? q.grossSen : q.totalSen)
      return { record, hidden: {} }
    },
  },

  invoice: {
    refs: { accountId: 'account', contactId: 'contact' },
    numberPrefix: 'INV',
    create(w, body, number) {
      const status = statusOnCreate(w, body)
      const d = createOf('invoice', body, { number, ownerId: keyUserDefault(w), status, currency: DEFAULT_CURRENCY, language: 'en', paidSen: 0 })
      invoiceDerived(d.record, d.hidden, w.at)
      return d
    },
    replace(w, current, body) {
      const d = mergeOf('invoice', 'replace', current, body)
      invoiceDerived(d.record, d.hidden, w.at)
      return d
    },
    refuseReplace: onlyDraft('Invoice', 'replaced'),
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
      // The variant's rule: a body longer than the preview is refused (under the fault no limit is applied at all).
      if (
        w.variant.longActivityBodyRefused &&
        !w.faults['side-effects.activity-body-uncut'] &&
        typeof body.body === 'string' &&
        body.body.length > LIMITS.activityBodyMaxLength
      )
        throw invalidField('body', `body must be at most ${LIMITS.activityBodyMaxLength} characters`)
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

/** The variant's rule: HTML with a script, an event handler or a javascript: URL is refused, not cleaned. */
function refuseUnsafe(w: WriteCtx, html: string): string {
  if (w.variant.unsafeHtmlRefused && /<script\b|\son[a-z]+\s*=|javascript:/i.test(html))
    throw invalidField('html', 'html may not hold scripts, event handlers or javascript: URLs')
  return html
}
