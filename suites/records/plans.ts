// What the round trip of each creatable resource writes: a create body that exercises strings, nulls, tags,
// dates and date-times, and an update (or, for quotations, invoices and products, a full replace) that changes
// some of them. Orders and payments belong to the state area. Open-shaped objects (custom, address, fields,
// options, items, recurrence: "not shown", §2) are written empty or null, since a conformant workspace may
// refuse keys it does not define.
import type { CheckContext, WriteNeed } from '../../src/checks/types.ts'
import { createRecord, runLabel, safeEmail, safePhone, type AnyRecord } from '../../src/engine/operations.ts'
import type { ResourceName } from '../../src/spec/resources.ts'
import { REPLACE_BODIES, runSku } from '../shared/bodies.ts'

export interface ChangePlan {
  op: 'update' | 'replace'
  body(ctx: CheckContext, created: AnyRecord, sent: AnyRecord): AnyRecord
}

/** A body field that the record shows under another name (§4.4 comment `html` → record `body`). */
export interface Alias {
  sent: string
  field: string
}

export interface RoundTripPlan {
  resource: ResourceName
  writes: WriteNeed
  create(ctx: CheckContext): Promise<AnyRecord>
  change?: ChangePlan
  alias?: Alias
}

const runTags = (ctx: CheckContext, extra: string): string[] => [ctx.session.runTag, extra]

/** A record the round trip hangs its record on (a case for a comment, an account for an activity): made once. */
function parent(ctx: CheckContext, resource: 'case' | 'account'): Promise<string> {
  return ctx.session.memo(`records:parent:${resource}`, async () => {
    const body = resource === 'case' ? { subject: runLabel(ctx, 'comment parent case') } : { name: runLabel(ctx, 'activity parent account') }
    return (await createRecord(ctx, resource, body, { validate: false })).record.id as string
  })
}

export const PLANS: RoundTripPlan[] = [
  {
    resource: 'account',
    writes: 'safe',
    create: async (ctx) => ({
      name: runLabel(ctx, 'account'),
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
    change: {
      op: 'update',
      body: (ctx, _created, sent) => ({ name: `${sent.name} renamed`, legalName: 'Crmconf Legal Sdn Bhd', industry: null, tags: runTags(ctx, 'crmconf-updated') }),
    },
  },
  {
    resource: 'contact',
    writes: 'safe',
    create: async (ctx) => ({
      firstName: 'Crmconf',
      lastName: runLabel(ctx, 'contact'),
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
    change: {
      op: 'update',
      body: (ctx) => ({ title: 'Lead tester', department: null, locale: 'zh-CN', tags: runTags(ctx, 'crmconf-updated') }),
    },
  },
  {
    resource: 'case',
    writes: 'safe',
    create: async (ctx) => ({
      subject: runLabel(ctx, 'case'),
      description: 'Opened by crm-conformance.',
      categoryId: null,
      subCategoryId: null,
      accountId: null,
      contactId: null,
      tags: runTags(ctx, 'crmconf-created'),
      custom: {},
    }),
    change: {
      op: 'update',
      body: (ctx, _created, sent) => ({
        subject: `${sent.subject} renamed`,
        description: 'Updated by crm-conformance.',
        resolution: 'Resolved by crm-conformance.',
        tags: runTags(ctx, 'crmconf-updated'),
      }),
    },
  },
  {
    resource: 'lead',
    writes: 'safe',
    create: async (ctx) => ({
      fullName: runLabel(ctx, 'lead'),
      companyName: 'Crmconf Test Company',
      email: safeEmail(`lead ${ctx.runId}`),
      phone: safePhone(13),
      source: 'manual',
      sourceDetail: null,
      fields: {},
      language: 'en',
    }),
    change: {
      op: 'update',
      // §3: `contacted` is one of the three values settable on update.
      body: (_ctx, _created, sent) => ({ fullName: `${sent.fullName} renamed`, companyName: null, status: 'contacted' }),
    },
  },
  {
    resource: 'opportunity',
    writes: 'safe',
    create: async (ctx) => ({
      name: runLabel(ctx, 'opportunity'),
      accountId: null,
      contactId: null,
      amountSen: 1_234_500,
      expectedCloseDate: '2030-06-28',
      source: null,
      competitors: ['crmconf-rival'],
      nextStep: 'Send the proposal',
    }),
    change: {
      op: 'update',
      body: (_ctx, _created, sent) => ({ name: `${sent.name} renamed`, amountSen: 2_500_000, expectedCloseDate: null, competitors: [], nextStep: null }),
    },
  },
  {
    resource: 'quotation',
    writes: 'safe',
    create: async (ctx) => ({
      title: runLabel(ctx, 'quotation'),
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
    change: {
      // §4.4: replace sends every field and all line items.
      op: 'replace',
      body: (_ctx, created, sent) => ({ ...REPLACE_BODIES.quotation!(created), title: `${sent.title} revised`, paymentTermsDays: 30, terms: 'Payment within 30 days.' }),
    },
  },
  {
    resource: 'task',
    writes: 'safe',
    create: async (ctx) => ({
      title: runLabel(ctx, 'task'),
      description: null,
      priority: 'high',
      // An offset other than Z: the same instant must come back, in whatever ISO 8601 form (§2).
      dueAt: '2030-01-15T09:30:00+08:00',
      remindAt: null,
      entityType: null,
      entityId: null,
      recurrence: null,
    }),
    change: {
      op: 'update',
      // A reminder before the due time, which stays set: a server may require one at or before the other.
      body: () => ({ description: 'Updated by crm-conformance.', priority: 'low', dueAt: '2030-01-16T18:00:00+08:00', remindAt: '2030-01-14T09:00:00Z' }),
    },
  },
  {
    resource: 'product',
    writes: 'full',
    create: async (ctx) => ({
      // §4.3 products `sku` "exact SKU, upper case": written in upper case already.
      sku: runSku(ctx),
      name: runLabel(ctx, 'product'),
      description: null,
      unit: 'hour',
      priceSen: 15_000,
      costSen: null,
      taxCategoryId: null,
      parentId: null,
      options: {},
      status: 'active',
    }),
    change: {
      op: 'replace',
      // Archived: the product the API cannot delete is at least out of use after the run.
      body: (_ctx, created, sent) => ({
        ...REPLACE_BODIES.product!(created),
        sku: sent.sku,
        name: `${sent.name} revised`,
        description: 'Revised by crm-conformance.',
        unit: 'day',
        priceSen: 20_000,
        costSen: 5_000,
        status: 'archived',
      }),
    },
  },
  {
    resource: 'invoice',
    writes: 'full',
    create: async (ctx) => ({
      title: runLabel(ctx, 'invoice'),
      accountId: null,
      contactId: null,
      language: 'ms',
      issueDate: '2030-01-15',
      paymentTermsDays: 14,
      terms: 'Payment within 14 days.',
      notes: 'Drafted by crm-conformance.',
      items: [],
    }),
    change: {
      op: 'replace',
      body: (_ctx, created, sent) => ({ ...REPLACE_BODIES.invoice!(created), title: `${sent.title} revised`, issueDate: '2030-02-03' }),
    },
  },
  {
    resource: 'comment',
    writes: 'full',
    // An internal note: a public reply would be emailed to the case contact (§1.6).
    create: async (ctx) => ({ caseId: await parent(ctx, 'case'), kind: 'internal', html: '<p>Internal note by <strong>crm-conformance</strong>.</p>' }),
    alias: { sent: 'html', field: 'body' },
  },
  {
    resource: 'activity',
    writes: 'full',
    create: async (ctx) => ({
      kind: 'note',
      accountId: await parent(ctx, 'account'),
      contactId: null,
      title: runLabel(ctx, 'activity'),
      body: 'Logged by crm-conformance.',
      occurredAt: '2025-03-01T10:00:00+08:00',
    }),
  },
]
