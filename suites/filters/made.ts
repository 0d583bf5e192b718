// Records the run creates to be found by filters: a handful, created once per run (session.memo) and shared by
// every filter check, tagged where the resource has tags, example.com addresses and 555-01xx numbers, tracked for
// clean-up. Email addresses are created in mixed case: §4.3 filters them "lower case", whatever the record stores.
// Every field a filter names is written whenever §4.4 lets it be: no record relies on a default the spec does not
// name (an owner, an assignee, a pipeline), which a conformant server may leave null.
import { CheckFailed, createRecord, runLabel, safePhone, userIdInMe, ME_PATH, RESOURCES } from '../../src/checks/index.ts'
import type { CheckContext, WriteNeed, AnyRecord, FilterSpec, ResourceName } from '../../src/checks/index.ts'
import { randomUUID } from 'node:crypto'
import { sampleRecords } from './samples.ts'

const token = () => randomUUID().replace(/-/g, '').slice(0, 8)

/** `CrmConf.Account.1a2b3c4d@example.com`: upper case in the local part, so a case-sensitive filter misses it. */
function mixedCaseEmail(what: string): string {
  return `CrmConf.${what}.${token()}@example.com`
}

/** A shared record; a create the server refuses makes the checks that need it skipped (the records area judges creates). */
async function shared(ctx: CheckContext, key: string, factory: () => Promise<AnyRecord>): Promise<AnyRecord> {
  try {
    return await ctx.session.memo(`filters.made:${key}`, factory)
  } catch (error) {
    if (error instanceof CheckFailed) ctx.skip(`the run's shared ${key} could not be created: ${error.message}`)
    throw error
  }
}

async function create(ctx: CheckContext, resource: ResourceName, body: AnyRecord): Promise<AnyRecord> {
  return (await createRecord(ctx, resource, body)).record
}

/** An existing value of a field (a real team, a tier the workspace knows), so the create is not refused for it. */
async function existingValue(ctx: CheckContext, resource: ResourceName, field: string): Promise<string | undefined> {
  const records = await sampleRecords(ctx, resource).catch(() => [] as AnyRecord[])
  const found = records.find((r) => typeof r?.[field] === 'string' && r[field] !== '')
  return found?.[field]
}

/** The user the key acts as (GET /me), else an active listed user: the owner or assignee the run's records name. */
function keyUser(ctx: CheckContext): Promise<string | undefined> {
  return ctx.session.memo('filters.key-user', async () => {
    const [me, users] = await Promise.all([ctx.api.get(ME_PATH), ctx.api.get(RESOURCES.user.path, { limit: 100 })])
    const listed = (users.ok && Array.isArray(users.body?.data) ? users.body.data : []).filter((u: AnyRecord) => typeof u?.id === 'string') as AnyRecord[]
    const own = me.ok
      ? userIdInMe(
          me.body,
          listed.map((u) => String(u.id)),
        )
      : undefined
    return own ?? (listed.find((u) => u.status === 'active') ?? listed[0])?.id
  })
}

/** `{ [field]: the key's user }`, or nothing when no user could be found (the server's default then applies). */
async function byKeyUser(ctx: CheckContext, field: 'ownerId' | 'assigneeId'): Promise<AnyRecord> {
  const id = await keyUser(ctx)
  return id ? { [field]: id } : {}
}

export function account(ctx: CheckContext): Promise<AnyRecord> {
  return shared(ctx, 'account', async () => {
    const teamId = await existingValue(ctx, 'account', 'teamId')
    const tier = (await existingValue(ctx, 'account', 'tier')) ?? 'crmconf'
    return create(ctx, 'account', {
      name: runLabel(ctx, 'filters account'),
      email: mixedCaseEmail('Account'),
      tier,
      ...(teamId ? { teamId } : {}),
      ...(await byKeyUser(ctx, 'ownerId')),
    })
  })
}

export function childAccount(ctx: CheckContext): Promise<AnyRecord> {
  return shared(ctx, 'child account', async () =>
    create(ctx, 'account', { name: runLabel(ctx, 'filters child account'), parentId: (await account(ctx)).id, ...(await byKeyUser(ctx, 'ownerId')) }),
  )
}

export function contact(ctx: CheckContext): Promise<AnyRecord> {
  return shared(ctx, 'contact', async () =>
    create(ctx, 'contact', {
      firstName: 'Crmconf',
      lastName: `Filters ${token()}`,
      email: mixedCaseEmail('Contact'),
      mobile: safePhone(Math.floor(Math.random() * 100)),
      accountId: (await account(ctx)).id,
      ...(await byKeyUser(ctx, 'ownerId')),
    }),
  )
}

export function caseRecord(ctx: CheckContext): Promise<AnyRecord> {
  return shared(ctx, 'case', async () => {
    const [a, c, teamId] = await Promise.all([account(ctx), contact(ctx), existingValue(ctx, 'case', 'teamId')])
    // §1.6 routes new cases, but names no assignee or team: both are written.
    return create(ctx, 'case', {
      subject: runLabel(ctx, 'filters case'),
      accountId: a.id,
      contactId: c.id,
      ...(teamId ? { teamId } : {}),
      ...(await byKeyUser(ctx, 'assigneeId')),
    })
  })
}

export function lead(ctx: CheckContext): Promise<AnyRecord> {
  // §1.6 routes new leads to a sales rep, maybe later (from a queue): the owner is written, not awaited.
  return shared(ctx, 'lead', async () =>
    create(ctx, 'lead', { fullName: runLabel(ctx, 'filters lead'), email: mixedCaseEmail('Lead'), source: 'api', ...(await byKeyUser(ctx, 'ownerId')) }),
  )
}

export function opportunity(ctx: CheckContext): Promise<AnyRecord> {
  return shared(ctx, 'opportunity', async () => {
    // A pipeline and its stage as the workspace uses them (pipelines are no resource of the API, §4.2).
    const withPipeline = (await sampleRecords(ctx, 'opportunity').catch(() => [] as AnyRecord[])).filter(
      (o) => typeof o?.pipelineId === 'string' && typeof o?.stageKey === 'string',
    )
    const listed = withPipeline.find((o) => o.status === 'open') ?? withPipeline[0]
    const pipeline = listed ? { pipelineId: listed.pipelineId, stageKey: listed.stageKey } : {}
    return create(ctx, 'opportunity', {
      name: runLabel(ctx, 'filters deal'),
      accountId: (await account(ctx)).id,
      ...pipeline,
      ...(await byKeyUser(ctx, 'ownerId')),
    })
  })
}

export function quotation(ctx: CheckContext): Promise<AnyRecord> {
  return shared(ctx, 'quotation', async () => {
    const [a, o] = await Promise.all([account(ctx), opportunity(ctx)])
    return create(ctx, 'quotation', { title: runLabel(ctx, 'filters quotation'), accountId: a.id, dealId: o.id })
  })
}

/** §4.4: a task names what it is about by entityType/entityId; the record's accountId/contactId follow from it. */
export function task(ctx: CheckContext, about: 'account' | 'contact'): Promise<AnyRecord> {
  return shared(ctx, `task about a ${about}`, async () => {
    // The two tasks are made in one order whatever order the checks start in: the one about an account last,
    // so that it is the run's newest task for the filters every task matches (status, assignee).
    if (about === 'account') await task(ctx, 'contact')
    const entity = about === 'account' ? await account(ctx) : await contact(ctx)
    return create(ctx, 'task', {
      title: runLabel(ctx, `filters task about a ${about}`),
      entityType: about,
      entityId: entity.id,
      ...(await byKeyUser(ctx, 'assigneeId')),
    })
  })
}

// The API cannot delete these (§4.2): full profile only.

export function comment(ctx: CheckContext): Promise<AnyRecord> {
  return shared(ctx, 'comment', async () =>
    // An internal note: a public reply would be emailed to the case contact (§1.6).
    create(ctx, 'comment', { caseId: (await caseRecord(ctx)).id, kind: 'internal', html: `<p>${runLabel(ctx, 'filters note')}</p>` }),
  )
}

export function activity(ctx: CheckContext): Promise<AnyRecord> {
  return shared(ctx, 'activity', async () => {
    const [a, c] = await Promise.all([account(ctx), contact(ctx)])
    return create(ctx, 'activity', { kind: 'note', accountId: a.id, contactId: c.id, title: runLabel(ctx, 'filters activity') })
  })
}

export function product(ctx: CheckContext): Promise<AnyRecord> {
  return shared(ctx, 'product', () =>
    create(ctx, 'product', { sku: `CRMCONF-${token().toUpperCase()}`, name: runLabel(ctx, 'filters product'), priceSen: 100 }),
  )
}

export function invoice(ctx: CheckContext): Promise<AnyRecord> {
  return shared(ctx, 'invoice', async () => create(ctx, 'invoice', { title: runLabel(ctx, 'filters invoice'), accountId: (await account(ctx)).id }))
}

export interface Maker {
  writes: WriteNeed
  /** Filters a new record cannot match (a new draft invoice has no order). */
  unreachable?: string[]
  /** The run's record that the filter should find. */
  make(ctx: CheckContext, filter: FilterSpec): Promise<AnyRecord>
}

/**
 * The collections the run can write to. Orders, payments and messages are left out: they need seeded records
 * (an accepted quotation, a sent invoice, a conversation) that other areas use, and a message goes out to a
 * customer (§1.6); articles and users cannot be written (§4.2).
 */
export const MAKERS: Partial<Record<ResourceName, Maker>> = {
  // The child is the newer of the run's two accounts, so it is the newest match of the filter both match (ownerId).
  account: { writes: 'safe', make: (ctx, f) => (f.param === 'parentId' || f.param === 'ownerId' ? childAccount(ctx) : account(ctx)) },
  contact: { writes: 'safe', make: contact },
  case: { writes: 'safe', make: caseRecord },
  lead: { writes: 'safe', make: lead },
  opportunity: { writes: 'safe', make: opportunity },
  quotation: { writes: 'safe', make: quotation },
  task: { writes: 'safe', make: (ctx, f) => task(ctx, f.param === 'contactId' ? 'contact' : 'account') },
  comment: { writes: 'full', make: comment },
  activity: { writes: 'full', make: activity },
  product: { writes: 'full', make: product },
  invoice: { writes: 'full', make: invoice, unreachable: ['orderId'] },
}
