// What the round trip of each creatable resource writes: the full create body (suites/shared/bodies.ts), and an
// update (or, for quotations, invoices and products, a full replace) that changes some of its fields. Orders
// and payments belong to the state area.
import { createRecord, runLabel } from '../../src/checks/index.ts'
import type { CheckContext, WriteNeed, AnyRecord, ResourceName } from '../../src/checks/index.ts'
import { fullCreate, minimalCreate, REPLACE_BODIES, runTags } from '../shared/bodies.ts'

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
  /** The record the create hangs on (a case for a comment, an account for an activity). */
  parent?: 'case' | 'account'
  change?: ChangePlan
  alias?: Alias
}

/** A record the round trip hangs its record on (a case for a comment, an account for an activity): made once. */
function parent(ctx: CheckContext, resource: 'case' | 'account'): Promise<string> {
  return ctx.session.memo(`records:parent:${resource}`, async () => {
    const body = minimalCreate(ctx, resource, runLabel(ctx, resource === 'case' ? 'comment parent case' : 'activity parent account'))
    return (await createRecord(ctx, resource, body, { validate: false })).record.id as string
  })
}

/** What the round trip creates: the full create body of the plan's resource, labelled for the run, on its parent. */
export async function createBody(ctx: CheckContext, plan: RoundTripPlan): Promise<AnyRecord> {
  return fullCreate(ctx, plan.resource, runLabel(ctx, plan.resource), plan.parent && (await parent(ctx, plan.parent)))
}

export const PLANS: RoundTripPlan[] = [
  {
    resource: 'account',
    writes: 'safe',
    change: {
      op: 'update',
      body: (ctx, _created, sent) => ({
        name: `${sent.name} renamed`,
        legalName: 'Crmconf Legal Sdn Bhd',
        industry: null,
        tags: runTags(ctx, 'crmconf-updated'),
      }),
    },
  },
  {
    resource: 'contact',
    writes: 'safe',
    change: {
      op: 'update',
      body: (ctx) => ({ title: 'Lead tester', department: null, locale: 'zh-CN', tags: runTags(ctx, 'crmconf-updated') }),
    },
  },
  {
    resource: 'case',
    writes: 'safe',
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
    change: {
      op: 'update',
      // §3: `contacted` is one of the three values settable on update.
      body: (_ctx, _created, sent) => ({ fullName: `${sent.fullName} renamed`, companyName: null, status: 'contacted' }),
    },
  },
  {
    resource: 'opportunity',
    writes: 'safe',
    change: {
      op: 'update',
      body: (_ctx, _created, sent) => ({ name: `${sent.name} renamed`, amountSen: 2_500_000, expectedCloseDate: null, competitors: [], nextStep: null }),
    },
  },
  {
    resource: 'quotation',
    writes: 'safe',
    change: {
      // §4.4: replace sends every field and all line items.
      op: 'replace',
      body: (_ctx, created, sent) => ({
        ...REPLACE_BODIES.quotation!(created),
        title: `${sent.title} revised`,
        paymentTermsDays: 30,
        terms: 'Payment within 30 days.',
      }),
    },
  },
  {
    resource: 'task',
    writes: 'safe',
    change: {
      op: 'update',
      // A reminder before the due time, which stays set: a server may require one at or before the other.
      body: () => ({ description: 'Updated by crm-conformance.', priority: 'low', dueAt: '2030-01-16T18:00:00+08:00', remindAt: '2030-01-14T09:00:00Z' }),
    },
  },
  {
    resource: 'product',
    writes: 'full',
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
    change: {
      op: 'replace',
      body: (_ctx, created, sent) => ({ ...REPLACE_BODIES.invoice!(created), title: `${sent.title} revised`, issueDate: '2030-02-03' }),
    },
  },
  {
    resource: 'comment',
    writes: 'full',
    parent: 'case',
    alias: { sent: 'html', field: 'body' },
  },
  {
    resource: 'activity',
    writes: 'full',
    parent: 'account',
  },
]
