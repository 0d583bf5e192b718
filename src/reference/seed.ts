// Seeded, deterministic data: the workspaces, their users, the keys of every configuration role, the webhook
// secret, and the records the API cannot bring into being itself (sent and accepted quotations, a sent invoice,
// conversations with messages, articles). The same seed gives the same ids, keys and timestamps.

import type { FixtureName, KeyRole } from '../vocabulary.ts'
import { ALL_SCOPES, RESOURCES, type ResourceName } from '../spec/resources.ts'
import type { ApiKey, OwnerRole } from './auth.ts'
import { dateOf, isoOf } from './clock.ts'
import { STAGES, shape, totalsOf, type Workspace } from './models.ts'
import { Prng } from './prng.ts'
import type { Json, Kind, Store, StoredRecord } from './store.ts'

export const MAIN_WORKSPACE = 'ws_main'
export const OTHER_WORKSPACE = 'ws_other'

/** The restricted key's scopes: some areas read-only, one read-write, the rest none (§5.4). */
export const RESTRICTED_SCOPES = ['accounts:read', 'contacts:read', 'contacts:write', 'cases:read', 'leads:read']

/** The IP-blocked key's allowlist: TEST-NET-3, which never holds 127.0.0.1 or ::1. */
export const IP_BLOCKED_ALLOWLIST = ['203.0.113.0/24']
export const RATE_LIMITED_PER_MINUTE = 20

/**
 * What the role-limited key's owner (an agent, key with every scope) may not do (auth.ts ROLE_DENIES), as
 * CRM_API_KEY_ROLE_LIMITED_DENIED lists it; the update method is the variant's (§4.1: not shown).
 */
export function roleLimitedDenied(updateMethod: string): string[] {
  return ['POST /opportunities', `${updateMethod} /opportunities/{id}`, 'DELETE /opportunities/{id}', 'POST /quotations', 'PUT /quotations/{id}', 'DELETE /quotations/{id}', 'POST /products']
}

/** Seeded records are dated from here on, well before any record the API creates. */
const SEED_EPOCH = Date.UTC(2025, 0, 6, 1, 0, 0)

export interface SeedOptions {
  seed: number
  mainLimitPerMinute: number
}

export interface Seeded {
  workspaces: Map<string, Workspace & { userRoles: Map<string, OwnerRole> }>
  keys: ApiKey[]
  webhookSecret: string
  fixtures: Record<FixtureName, string>
}

interface UserSeed {
  name: string
  email: string
  role: OwnerRole
  title: string
  status?: string
  availability?: string
  locale?: string
}

class Seeder {
  private t: number

  constructor(
    private readonly store: Store,
    private readonly rng: Prng,
    readonly ws: string,
  ) {
    this.t = SEED_EPOCH
  }

  /** The next seeded time: strictly increasing, a few minutes to a few hours apart. */
  time(): number {
    this.t += this.rng.int(5, 240) * 60_000 + this.rng.int(0, 59_999)
    return this.t
  }

  number(kind: Kind, prefix: string): string {
    return `${prefix}-${String(this.store.nextNumber(this.ws, kind)).padStart(6, '0')}`
  }

  /** Stores a record shaped as §2 lists it; `touched` seconds after creation it was last updated. */
  add(kind: ResourceName, values: Json | ((createdMs: number) => Json), hidden: Json = {}, touchedSeconds = 0): Json {
    const created = this.time()
    if (typeof values === 'function') values = values(created)
    const updated = created + touchedSeconds * 1000
    const spec = RESOURCES[kind]
    const full: Json = { id: this.rng.uuid(), ...values }
    if ('createdAt' in spec.record) full.createdAt = isoOf(created)
    if ('updatedAt' in spec.record) full.updatedAt = isoOf(updated)
    const rec: StoredRecord = { id: String(full.id), createdAtMs: created, updatedAtMs: updated, record: shape(spec, full), hidden }
    this.store.put(this.ws, kind, rec)
    return rec.record
  }

  addConversation(values: Json): Json {
    const created = this.time()
    const record: Json = { id: this.rng.uuid(), ...values, createdAt: isoOf(created) }
    this.store.put(this.ws, 'conversation', { id: String(record.id), createdAtMs: created, updatedAtMs: created, record, hidden: {} })
    return record
  }
}

interface WorkspaceProfile {
  id: string
  name: string
  domain: string
  users: UserSeed[]
  accounts: { name: string; industry: string; tier: string | null; email: string | null; city: string }[]
  people: { first: string; last: string; mobile: string; locale: string }[]
  /** How many of each kind of sample record (the foreign workspace has fewer). */
  scale: number
}

const MAIN_PROFILE: WorkspaceProfile = {
  id: MAIN_WORKSPACE,
  name: 'Acme Malaysia Sdn Bhd',
  domain: 'acme.example',
  scale: 1,
  users: [
    { name: 'Aisyah Rahman', email: 'aisyah.rahman', role: 'admin', title: 'Operations Director' },
    { name: 'Daniel Tan', email: 'daniel.tan', role: 'sales', title: 'Account Executive' },
    { name: 'Priya Nair', email: 'priya.nair', role: 'sales', title: 'Account Executive', locale: 'en' },
    { name: 'Hafiz Ismail', email: 'hafiz.ismail', role: 'sales', title: 'Sales Manager', locale: 'ms' },
    { name: 'Mei Ling Wong', email: 'meiling.wong', role: 'agent', title: 'Support Agent', locale: 'zh-CN' },
    { name: 'Arjun Pillai', email: 'arjun.pillai', role: 'agent', title: 'Senior Support Agent', availability: 'away' },
    { name: 'Farah Aziz', email: 'farah.aziz', role: 'sales', title: 'Account Executive', status: 'inactive', availability: 'offline' },
  ],
  accounts: [
    { name: 'Perdana Logistics Sdn Bhd', industry: 'logistics', tier: 'gold', email: 'ops@perdana-logistics.example', city: 'Shah Alam' },
    { name: 'Kopi Kita Enterprise', industry: 'food_beverage', tier: 'silver', email: 'Hello@KopiKita.example', city: 'Ipoh' },
    { name: 'Borneo Timber Bhd', industry: 'manufacturing', tier: 'gold', email: 'admin@borneotimber.example', city: 'Kuching' },
    { name: 'Klinik Sejahtera', industry: 'healthcare', tier: 'bronze', email: 'frontdesk@kliniksejahtera.example', city: 'Johor Bahru' },
    { name: 'Nusantara Tech Sdn Bhd', industry: 'software', tier: 'gold', email: 'finance@nusantaratech.example', city: 'Cyberjaya' },
    { name: 'Lim & Partners', industry: 'professional_services', tier: null, email: null, city: 'George Town' },
  ],
  people: [
    { first: 'Nurul', last: 'Huda', mobile: '+60123456701', locale: 'ms' },
    { first: 'Kenneth', last: 'Lee', mobile: '+60123456702', locale: 'en' },
    { first: 'Siti', last: 'Aminah', mobile: '+60123456703', locale: 'ms' },
    { first: 'Wei Jie', last: 'Chong', mobile: '+60123456704', locale: 'zh-CN' },
    { first: 'Ravi', last: 'Kumar', mobile: '+60123456705', locale: 'en' },
    { first: 'Aina', last: 'Zulkifli', mobile: '+60123456706', locale: 'ms' },
    { first: 'Jason', last: 'Ong', mobile: '+60123456707', locale: 'en' },
    { first: 'Lakshmi', last: 'Devi', mobile: '+60123456708', locale: 'en' },
  ],
}

const OTHER_PROFILE: WorkspaceProfile = {
  id: OTHER_WORKSPACE,
  name: 'Globex Trading Pte Ltd',
  domain: 'globex.example',
  scale: 0,
  users: [
    { name: 'Grace Lim', email: 'grace.lim', role: 'admin', title: 'Managing Director' },
    { name: 'Omar Yusof', email: 'omar.yusof', role: 'sales', title: 'Sales Executive' },
    { name: 'Tan Bee Leng', email: 'beeleng.tan', role: 'agent', title: 'Customer Care' },
  ],
  accounts: [
    { name: 'Straits Shipping Pte Ltd', industry: 'logistics', tier: 'gold', email: 'desk@straitsshipping.example', city: 'Singapore' },
    { name: 'Merlion Foods', industry: 'food_beverage', tier: 'silver', email: 'buy@merlionfoods.example', city: 'Singapore' },
  ],
  people: [
    { first: 'Hui Min', last: 'Goh', mobile: '+6591234501', locale: 'en' },
    { first: 'Ahmad', last: 'Said', mobile: '+6591234502', locale: 'ms' },
  ],
}

function item(name: string, quantity: number, unitPriceSen: number, taxRatePct = 8, discountSen = 0): Json {
  return { name, quantity, unitPriceSen, discountSen, taxRatePct }
}

function seedWorkspace(store: Store, rng: Prng, p: WorkspaceProfile) {
  const s = new Seeder(store, rng, p.id)
  const salesTeamId = rng.uuid()
  const supportTeamId = rng.uuid()
  const pipelineId = rng.uuid()
  const categoryIds = [rng.uuid(), rng.uuid(), rng.uuid()]
  const big = p.scale > 0

  // Users (read only, §2): several, of every role, one inactive.
  const users = p.users.map((u) =>
    s.add('user', {
      email: `${u.email}@${p.domain}`,
      displayName: u.name,
      title: u.title,
      locale: u.locale ?? 'en',
      timezone: p.id === MAIN_WORKSPACE ? 'Asia/Kuala_Lumpur' : 'Asia/Singapore',
      status: u.status ?? 'active',
      availability: u.availability ?? 'online',
    }),
  )
  const userRoles = new Map(users.map((u, i) => [String(u.id), p.users[i].role]))
  const idsOf = (role: OwnerRole) => users.filter((u, i) => p.users[i].role === role && u.status === 'active').map((u) => String(u.id))
  const admin = String(users[0].id)
  const sales = idsOf('sales')
  const agents = idsOf('agent')

  const accounts = p.accounts.map((a, i) =>
    s.add(
      'account',
      {
        number: s.number('account', 'ACC'),
        name: a.name,
        legalName: a.name,
        registrationNo: `${202001000000 + rng.int(1000, 999999)}`,
        industry: a.industry,
        website: a.email ? `https://www.${a.email.split('@')[1].toLowerCase()}` : null,
        email: a.email,
        phone: `+603${rng.int(20000000, 99999999)}`,
        address: { line1: `${rng.int(1, 120)} Jalan ${rng.pick(['Ampang', 'Sultan', 'Bunga Raya', 'Merdeka'])}`, city: a.city, country: p.id === MAIN_WORKSPACE ? 'MY' : 'SG' },
        tier: a.tier,
        ownerId: sales[i % sales.length] ?? admin,
        teamId: salesTeamId,
        tags: i % 2 === 0 ? ['key-account'] : [],
        custom: { segment: i % 2 === 0 ? 'enterprise' : 'sme' },
        lastActivityAt: null,
      },
      { backupOwnerId: null },
      i * 3600,
    ),
  )
  // A child account (§4.3 parentId filter).
  if (accounts.length > 2) {
    const child = store.get(p.id, 'account', String(accounts[2].id))!
    store.put(p.id, 'account', { ...child, record: { ...child.record, parentId: accounts[0].id } })
  }

  const contacts = p.people.map((c, i) => {
    const account = accounts[i % accounts.length]
    return s.add(
      'contact',
      {
        number: s.number('contact', 'CON'),
        firstName: c.first,
        lastName: c.last,
        fullName: `${c.first} ${c.last}`,
        email: `${c.first.toLowerCase().replace(/\s+/g, '')}.${c.last.toLowerCase()}@${p.domain}`,
        mobile: c.mobile,
        office: null,
        home: null,
        title: rng.pick(['Procurement Manager', 'Finance Executive', 'Owner', 'IT Lead']),
        department: rng.pick(['Procurement', 'Finance', 'Management', 'IT']),
        locale: c.locale,
        primaryAccountId: account.id,
        ownerId: sales[i % sales.length] ?? admin,
        teamId: salesTeamId,
        tags: i === 0 ? ['decision-maker'] : [],
        custom: {},
      },
      { accountId: account.id, accountRole: 'member', fullNameGiven: false },
      i * 600,
    )
  })

  const caseStatuses = big ? ['new', 'open', 'pending', 'resolved', 'closed'] : ['open']
  const cases = caseStatuses.map((status, i) => {
    const category = status === 'resolved' || status === 'closed' ? status : status === 'new' ? 'new' : status === 'pending' ? 'pending' : 'open'
    const number = s.number('case', 'CASE')
    return s.add(
      'case',
      (created) => ({
        number,
        subject: ['Delivery arrived damaged', 'Cannot log in to the portal', 'Invoice amount looks wrong', 'Request for a product demo', 'Refund not received'][i],
        description: 'Reported by the customer.',
        channel: rng.pick(['email', 'chat', 'phone', 'web']),
        categoryId: categoryIds[i % categoryIds.length],
        subCategoryId: null,
        priority: ['high', 'normal', 'low', 'urgent', 'normal'][i],
        status,
        statusCategory: category,
        accountId: accounts[i % accounts.length].id,
        contactId: contacts[i % contacts.length].id,
        assigneeId: agents[i % agents.length] ?? admin,
        teamId: supportTeamId,
        tags: [],
        custom: {},
        resolution: status === 'resolved' || status === 'closed' ? 'Replaced the item.' : null,
        language: 'en',
        firstResponseDueAt: isoOf(created + 8 * 3_600_000),
        resolutionDueAt: isoOf(created + 72 * 3_600_000),
        firstRespondedAt: status === 'new' ? null : isoOf(created + 3_600_000),
        slaState: status === 'pending' ? 'breached' : 'active',
        resolvedAt: status === 'resolved' || status === 'closed' ? isoOf(created + 20 * 3_600_000) : null,
        closedAt: status === 'closed' ? isoOf(created + 30 * 3_600_000) : null,
      }),
      {},
      7200,
    )
  })

  cases.slice(0, big ? 3 : 1).forEach((c, i) => {
    s.add('comment', {
      caseId: c.id,
      kind: 'public',
      authorType: 'user',
      authorId: agents[0] ?? admin,
      authorName: p.users.find((u) => u.role === 'agent')?.name ?? p.users[0].name,
      body: '<p>Thank you for reaching out. We are looking into it.</p>',
      via: 'email',
    })
    if (i === 0 || !big) {
      s.add('comment', {
        caseId: c.id,
        kind: 'internal',
        authorType: 'user',
        authorId: admin,
        authorName: p.users[0].name,
        body: '<p>Check the courier report first.</p>',
        via: 'app',
      })
    }
  })

  const leadStatuses = big ? ['new', 'contacted', 'qualifying', 'converted', 'disqualified'] : ['new']
  leadStatuses.forEach((status, i) => {
    s.add(
      'lead',
      {
        number: s.number('lead', 'LEAD'),
        fullName: ['Zainal Abidin', 'Catherine Yeoh', 'Muthu Samy', 'Hannah Teo', 'Irfan Hakim'][i],
        companyName: ['Zainal Motors', 'Yeoh Bakery', null, 'Teo Design Studio', 'Hakim Farms'][i],
        email: [`Zainal@ZainalMotors.example`, 'catherine@yeohbakery.example', null, 'hannah@teodesign.example', 'irfan@hakimfarms.example'][i],
        phone: `+601${rng.int(10000000, 99999999)}`,
        source: ['web_form', 'email', 'chat', 'social', 'import'][i],
        sourceDetail: null,
        status,
        ownerId: sales[i % sales.length] ?? admin,
        teamId: salesTeamId,
        fields: { budget: ['< 10k', '10k-50k', '> 50k'][i % 3] },
        score: rng.int(10, 95),
        language: 'en',
        convertedAt: status === 'converted' ? isoOf(SEED_EPOCH + 86_400_000) : null,
        disqualifiedReason: status === 'disqualified' ? 'No budget this year' : null,
      },
      {},
      1800,
    )
  })

  const dealStages = big ? ['proposal', 'negotiation', 'closed_won', 'closed_lost'] : ['qualification']
  const deals = dealStages.map((stageKey, i) => {
    const status = stageKey === 'closed_won' ? 'won' : stageKey === 'closed_lost' ? 'lost' : 'open'
    return s.add(
      'opportunity',
      {
        number: s.number('opportunity', 'DEAL'),
        name: `${accounts[i % accounts.length].name}: ${['fleet tracking', 'coffee supply', 'ERP rollout', 'clinic software'][i]}`,
        accountId: accounts[i % accounts.length].id,
        contactId: contacts[i % contacts.length].id,
        pipelineId,
        stageKey,
        probability: STAGES[stageKey],
        amountSen: rng.int(50, 900) * 10_000,
        currency: 'MYR',
        expectedCloseDate: dateOf(SEED_EPOCH + (30 + i * 15) * 86_400_000),
        ownerId: sales[i % sales.length] ?? admin,
        teamId: salesTeamId,
        source: 'referral',
        competitors: i === 0 ? ['Globex'] : [],
        nextStep: status === 'open' ? 'Send the revised proposal' : null,
        status,
        wonAt: status === 'won' ? isoOf(SEED_EPOCH + 40 * 86_400_000) : null,
        lostAt: status === 'lost' ? isoOf(SEED_EPOCH + 41 * 86_400_000) : null,
        lostReason: status === 'lost' ? 'Price' : null,
      },
      {},
      5400,
    )
  })

  const products = (big ? ['SKU-ROAST-250', 'SKU-ROAST-1K', 'SKU-GRINDER-X2', 'SKU-SVC-INSTALL', 'SKU-OLD-BREWER'] : ['SKU-GLB-001']).map((sku, i) =>
    s.add('product', {
      sku,
      name: ['House roast 250 g', 'House roast 1 kg', 'Grinder X2', 'Installation service', 'Brewer (discontinued)'][i] ?? 'Sample product',
      description: i === 3 ? 'On-site installation, per visit' : null,
      unit: i === 3 ? 'visit' : 'unit',
      priceSen: [3500, 12000, 189900, 25000, 45000][i] ?? 1000,
      costSen: i === 3 ? null : ([2100, 7400, 120000, 0, 30000][i] ?? 500),
      currency: 'MYR',
      taxCategoryId: null,
      parentId: null,
      options: i === 0 ? { grind: ['whole', 'fine'] } : {},
      status: i === 4 ? 'archived' : 'active',
    }),
  )

  // Quotations in every state the API cannot reach itself (§3: created as drafts; transitions not shown).
  const quote = (status: string, i: number, extra: Json = {}) => {
    const items = [item(String(products[0].name), 10 + i, Number(products[0].priceSen)), item('Delivery', 1, 5000, 0)]
    const deal = deals[i % deals.length]
    return s.add(
      'quotation',
      {
        number: s.number('quotation', 'QUO'),
        version: 1,
        title: `Quotation for ${accounts[i % accounts.length].name}`,
        dealId: deal.id,
        accountId: deal.accountId,
        contactId: deal.contactId,
        ownerId: deal.ownerId,
        status,
        currency: 'MYR',
        language: 'en',
        validUntil: dateOf(SEED_EPOCH + 60 * 86_400_000),
        paymentTermsDays: 30,
        terms: 'Prices include delivery within the Klang Valley.',
        ...totalsOf(items),
        sentAt: status === 'draft' ? null : isoOf(SEED_EPOCH + 2 * 86_400_000),
        decidedAt: status === 'accepted' || status === 'declined' ? isoOf(SEED_EPOCH + 5 * 86_400_000) : null,
        ...extra,
      },
      { priceListId: null, tier: null, notes: null, items },
      3600,
    )
  }
  const draftQuote = quote('draft', 0)
  const sentQuote = quote('sent', 1)
  const acceptedQuote = quote('accepted', 2)
  let orderedQuote: Json | undefined
  if (big) {
    orderedQuote = quote('accepted', 3)
    quote('declined', 4)
  }
  void draftQuote

  let order: Json | undefined
  if (orderedQuote) {
    const q = orderedQuote
    order = s.add('order', {
      number: s.number('order', 'ORD'),
      quoteId: q.id,
      dealId: q.dealId,
      accountId: q.accountId,
      contactId: q.contactId,
      ownerId: q.ownerId,
      title: q.title,
      status: 'open',
      currency: q.currency,
      totalSen: q.totalSen,
      taxSen: q.taxSen,
      fulfilledAt: null,
      cancelledAt: null,
    })
  }

  const invoice = (status: string, i: number, paidSen = 0) => {
    const items = [item(String(products[i % products.length].name), 2 + i, Number(products[i % products.length].priceSen))]
    const t = totalsOf(items)
    const issue = SEED_EPOCH + (10 + i) * 86_400_000
    return s.add(
      'invoice',
      {
        number: s.number('invoice', 'INV'),
        orderId: i === 2 && order ? order.id : null,
        dealId: i === 2 && order ? order.dealId : null,
        accountId: accounts[i % accounts.length].id,
        contactId: contacts[i % contacts.length].id,
        ownerId: sales[i % sales.length] ?? admin,
        title: `Invoice ${i + 1} for ${accounts[i % accounts.length].name}`,
        status,
        currency: 'MYR',
        language: 'en',
        issueDate: dateOf(issue),
        dueDate: dateOf(issue + 30 * 86_400_000),
        paymentTermsDays: 30,
        totalSen: t.totalSen,
        taxSen: t.taxSen,
        paidSen: status === 'paid' ? t.totalSen : paidSen,
        sentAt: status === 'draft' ? null : isoOf(issue + 3_600_000),
        paidAt: status === 'paid' ? isoOf(issue + 5 * 86_400_000) : null,
        voidedAt: status === 'void' ? isoOf(issue + 2 * 86_400_000) : null,
      },
      { terms: 'Payment within 30 days.', notes: null, items },
      600,
    )
  }
  invoice('draft', 0)
  const sentInvoice = invoice('sent', 1)
  if (big) {
    const paid = invoice('paid', 2)
    invoice('void', 3)
    s.add('payment', {
      invoiceId: paid.id,
      number: s.number('payment', 'PAY'),
      amountSen: paid.totalSen,
      method: 'bank_transfer',
      reference: 'FPX-20250120-0001',
      paidOn: String(paid.issueDate),
      note: null,
      source: 'app',
      voidedAt: null,
    })
  }

  const taskStatuses = big ? ['open', 'open', 'done', 'cancelled', 'open'] : ['open']
  taskStatuses.forEach((status, i) => {
    const about = i % 2 === 0 ? { entityType: 'account', entityId: accounts[i % accounts.length].id, accountId: accounts[i % accounts.length].id } : { entityType: 'contact', entityId: contacts[i % contacts.length].id, contactId: contacts[i % contacts.length].id }
    s.add(
      'task',
      {
        number: s.number('task', 'TASK'),
        title: ['Call back about the proposal', 'Send the product catalogue', 'Confirm the delivery date', 'Book a site visit', 'Renewal reminder'][i],
        description: null,
        status,
        priority: ['high', 'medium', 'low', 'urgent', 'medium'][i],
        dueAt: isoOf(SEED_EPOCH + (i + 3) * 86_400_000),
        remindAt: null,
        assigneeId: sales[i % sales.length] ?? admin,
        teamId: null,
        ...about,
        completedAt: status === 'done' ? isoOf(SEED_EPOCH + 2 * 86_400_000) : null,
      },
      { recurrence: null },
      900,
    )
  })

  const kinds = big ? ['call', 'email', 'note', 'chat', 'meeting'] : ['note']
  kinds.forEach((kind, i) => {
    const contact = contacts[i % contacts.length]
    const long = i === 2 ? 'Meeting notes. '.repeat(60) : null
    const occurred = SEED_EPOCH + (i + 1) * 43_200_000
    s.add(
      'activity',
      {
        kind,
        subjectType: 'contact',
        subjectId: contact.id,
        accountId: contact.primaryAccountId,
        contactId: contact.id,
        title: [`Call with ${contact.fullName}`, 'Sent the price list', 'Internal note', 'Chat about delivery', 'Quarterly review'][i],
        // §2, §8: the record carries a preview of at most 500 characters.
        body: long ? long.slice(0, 500) : 'Discussed the next steps.',
        actorUserId: sales[i % sales.length] ?? admin,
        actorType: 'user',
        occurredAt: isoOf(occurred),
      },
      { fullBody: long },
    )
  })

  const articleRows = big
    ? [
        ['published', 'public', 'how-to-reset-your-password', 'How to reset your password'],
        ['published', 'internal', 'refund-approval-checklist', 'Refund approval checklist'],
        ['draft', 'public', 'delivery-times-by-region', 'Delivery times by region'],
        ['draft', 'internal', 'escalation-matrix', 'Escalation matrix'],
        ['archived', 'public', 'old-warranty-terms', 'Old warranty terms'],
      ]
    : [['published', 'public', 'shipping-policy', 'Shipping policy']]
  articleRows.forEach(([status, visibility, slug, title], i) => {
    s.add('article', {
      number: `KB-${String(i + 1).padStart(4, '0')}`,
      categoryId: categoryIds[i % categoryIds.length],
      slug,
      visibility,
      status,
      tags: visibility === 'internal' ? ['internal'] : ['help'],
      version: status === 'published' ? 2 : 1,
      publishedAt: status === 'published' || status === 'archived' ? isoOf(SEED_EPOCH + 86_400_000 * (i + 1)) : null,
      translations:
        status === 'draft'
          ? []
          : [
              { language: 'en', title, body: `<p>${title}.</p>` },
              ...(i === 0 ? [{ language: 'ms', title: 'Cara menetapkan semula kata laluan anda', body: '<p>Langkah demi langkah.</p>' }] : []),
            ],
    })
  })

  const conversations = (big ? ['whatsapp', 'web_chat'] : ['web_chat']).map((channel, i) =>
    s.addConversation({ channel, contactId: contacts[i % contacts.length].id, status: 'open' }),
  )
  conversations.forEach((conv, i) => {
    const rows: [string, string, string | null, string][] = [
      ['in', 'customer', null, 'Hi, is my order on the way?'],
      ['system', 'system', null, 'Conversation assigned to the support team.'],
      ['out', 'bot', null, 'Thanks! An agent will reply shortly.'],
      ['note', 'agent', agents[0] ?? admin, 'Customer is a gold-tier account.'],
      ['out', 'agent', agents[i % Math.max(1, agents.length)] ?? admin, 'Yes, it ships tomorrow.'],
    ]
    for (const [direction, author, authorUserId, body] of big ? rows : rows.slice(0, 2)) {
      s.add('message', { conversationId: conv.id, direction, author, authorUserId, body, status: direction === 'in' ? 'received' : direction === 'out' ? 'sent' : null })
    }
  })

  const workspace: Workspace & { userRoles: Map<string, OwnerRole> } = {
    id: p.id,
    name: p.name,
    salesUserIds: sales,
    supportUserIds: agents,
    salesTeamId,
    supportTeamId,
    pipelineId,
    userRoles,
  }
  return { workspace, users, admin, sales, agents, sentQuote, acceptedQuote, sentInvoice, conversation: conversations[0] }
}

/** Fills the store; returns the keys, the webhook secret and the fixture ids. Same seed, same everything. */
export function seedStore(store: Store, options: SeedOptions): Seeded {
  const rng = new Prng(options.seed)
  const main = seedWorkspace(store, rng, MAIN_PROFILE)
  const other = seedWorkspace(store, rng, OTHER_PROFILE)

  const secret = (ws: string) => `crm_${ws}_${rng.alnum(32)}`
  const key = (role: KeyRole, ws: string, userId: string, ownerRole: OwnerRole, name: string, extra: Partial<ApiKey> = {}): ApiKey => ({
    role,
    secret: secret(ws),
    name,
    workspace: ws,
    userId,
    ownerRole,
    scopes: ALL_SCOPES,
    revoked: false,
    limitPerMinute: options.mainLimitPerMinute,
    ...extra,
  })
  const keys: ApiKey[] = [
    key('main', MAIN_WORKSPACE, main.admin, 'admin', 'Conformance suite (every scope)'),
    key('restricted', MAIN_WORKSPACE, main.agents[0], 'agent', 'Helpdesk widget (restricted)', { scopes: RESTRICTED_SCOPES, limitPerMinute: 600 }),
    key('revoked', MAIN_WORKSPACE, main.sales[0], 'sales', 'Old import script (revoked)', { revoked: true, limitPerMinute: 600 }),
    key('foreign', OTHER_WORKSPACE, other.admin, 'admin', 'Globex integration', { limitPerMinute: 600 }),
    key('ipBlocked', MAIN_WORKSPACE, main.admin, 'admin', 'Office-only key (IP allowlist)', { ipAllowlist: IP_BLOCKED_ALLOWLIST, limitPerMinute: 600 }),
    key('rateLimited', MAIN_WORKSPACE, main.admin, 'admin', 'Low-limit key', { limitPerMinute: RATE_LIMITED_PER_MINUTE }),
  ]
  const webhookSecret = `whsec_${Buffer.from(rng.bytes(32)).toString('base64')}`
  // §5.3(b): every scope, but an agent owns it, and an agent's role may not write sales documents. Drawn after the
  // webhook secret, so the other keys and the secret stay as they were for the same seed.
  keys.push(key('roleLimited', MAIN_WORKSPACE, main.agents[1] ?? main.agents[0], 'agent', 'Support desk integration (agent, every scope)', { limitPerMinute: 600 }))

  return {
    workspaces: new Map([
      [MAIN_WORKSPACE, main.workspace],
      [OTHER_WORKSPACE, other.workspace],
    ]),
    keys,
    webhookSecret,
    fixtures: {
      acceptedQuotationId: String(main.acceptedQuote.id),
      sentQuotationId: String(main.sentQuote.id),
      sentInvoiceId: String(main.sentInvoice.id),
      conversationId: String(main.conversation.id),
    },
  }
}

/** The `pagination.limit-uncapped` fault's imported directory: `count` more users, so a collection outgrows a page of 100. */
export function seedExtraUsers(store: Store, workspace: string, count: number): void {
  const s = new Seeder(store, new Prng(0x5eed), workspace)
  for (let i = 1; i <= count; i++) {
    s.add('user', { email: `imported${i}@example.com`, displayName: `Imported User ${i}`, title: null, locale: 'en', timezone: 'Asia/Kuala_Lumpur', status: 'active', availability: 'offline' })
  }
}
