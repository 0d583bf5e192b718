// Seeded, deterministic data: the workspaces, their users, the keys of every configuration role, the webhook
// secret, and the records the API cannot bring into being itself (sent and accepted quotations, a sent invoice,
// conversations with messages, articles). The same seed gives the same ids, keys and timestamps.
// Each resource group is seeded by its module in seed/; seedWorkspace runs them in a fixed order.

import type { FixtureName, KeyRole } from '../vocabulary.ts'
import { ALL_SCOPES } from '../spec/resources.ts'
import type { ApiKey, OwnerRole } from './auth.ts'
import type { Workspace } from './model-kit.ts'
import { Prng } from './prng.ts'
import { seedArticles, seedCases, seedConversations } from './seed/helpdesk.ts'
import { seedPeople } from './seed/people.ts'
import { MAIN_PROFILE, MAIN_WORKSPACE, OTHER_PROFILE, OTHER_WORKSPACE } from './seed/profiles.ts'
import { seedSales } from './seed/sales.ts'
import { SEED_EPOCH, Seeder, type SeedContext, type WorkspaceProfile } from './seed/seeder.ts'
import { seedWork } from './seed/work.ts'
import type { Store } from './store.ts'

export { MAIN_WORKSPACE, OTHER_WORKSPACE } from './seed/profiles.ts'

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
  return [
    'POST /opportunities',
    `${updateMethod} /opportunities/{id}`,
    'DELETE /opportunities/{id}',
    'POST /quotations',
    'PUT /quotations/{id}',
    'DELETE /quotations/{id}',
    'POST /products',
  ]
}

export interface SeedOptions {
  seed: number
  mainLimitPerMinute: number
}

export interface Seeded {
  workspaces: Map<string, Workspace & { userRoles: Map<string, OwnerRole> }>
  keys: ApiKey[]
  webhookSecret: string
  fixtures: Record<FixtureName, string>
  /** Every seeded record each fixture variable may name (the fixture first): what `serve` prints as lists. */
  fixturePools: Record<FixtureName, string[]>
}

/** Accepted quotations and sent invoices seeded beyond the first: nights of a nightly run before a pool is used up. */
export const EXTRA_POOL_DOCUMENTS = 4
/** The pool documents' own draw, so adding them changed no other seeded record. */
const POOL_SEED_SALT = 0x9001
/** Their seeded times start here, after every other seeded record's (SEED_EPOCH + 120 days). */
const POOL_EPOCH_OFFSET_MS = 120 * 86_400_000

function seedWorkspace(store: Store, rng: Prng, p: WorkspaceProfile, seed: number) {
  const s = new Seeder(store, rng, p.id)
  const salesTeamId = rng.uuid()
  const supportTeamId = rng.uuid()
  const pipelineId = rng.uuid()
  const categoryIds = [rng.uuid(), rng.uuid(), rng.uuid()]
  const big = p.scale > 0
  const { users, userRoles, admin, sales, agents, accounts, contacts } = seedPeople(s, rng, p, salesTeamId)
  const ctx: SeedContext = { s, rng, p, big, admin, sales, agents, accounts, contacts, salesTeamId, supportTeamId, pipelineId, categoryIds }
  seedCases(ctx)
  const { sentQuote, acceptedQuote, sentInvoice, poolDocuments } = seedSales(ctx)
  seedWork(ctx)
  seedArticles(ctx)
  const conversations = seedConversations(ctx)
  const pool = big
    ? poolDocuments(new Seeder(store, new Prng((seed ^ POOL_SEED_SALT) >>> 0), p.id, SEED_EPOCH + POOL_EPOCH_OFFSET_MS), EXTRA_POOL_DOCUMENTS)
    : { acceptedQuotes: [], sentInvoices: [] }

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
  return {
    workspace,
    users,
    admin,
    sales,
    agents,
    sentQuote,
    acceptedQuote,
    sentInvoice,
    conversation: conversations[0],
    acceptedQuotes: [acceptedQuote, ...pool.acceptedQuotes],
    sentInvoices: [sentInvoice, ...pool.sentInvoices],
  }
}

/** Fills the store; returns the keys, the webhook secret and the fixture ids. Same seed, same everything. */
export function seedStore(store: Store, options: SeedOptions): Seeded {
  const rng = new Prng(options.seed)
  const main = seedWorkspace(store, rng, MAIN_PROFILE, options.seed)
  const other = seedWorkspace(store, rng, OTHER_PROFILE, options.seed)

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
  keys.push(
    key('roleLimited', MAIN_WORKSPACE, main.agents[1] ?? main.agents[0], 'agent', 'Support desk integration (agent, every scope)', { limitPerMinute: 600 }),
  )

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
    fixturePools: {
      acceptedQuotationId: main.acceptedQuotes.map((q) => String(q.id)),
      sentQuotationId: [String(main.sentQuote.id)],
      sentInvoiceId: main.sentInvoices.map((i) => String(i.id)),
      conversationId: [String(main.conversation.id)],
    },
  }
}

/** The `pagination.limit-uncapped` fault's imported directory: `count` more users, so a collection outgrows a page of 100. */
export function seedExtraUsers(store: Store, workspace: string, count: number): void {
  const s = new Seeder(store, new Prng(0x5eed), workspace)
  for (let i = 1; i <= count; i++) {
    s.add('user', {
      email: `imported${i}@example.com`,
      displayName: `Imported User ${i}`,
      title: null,
      locale: 'en',
      timezone: 'Asia/Kuala_Lumpur',
      status: 'active',
      availability: 'offline',
    })
  }
}
