// The words every part of crm-conformance shares: levels, statuses, profiles, key roles, fixture names and the
// public variable names. A leaf: it imports nothing, so the checks, the configuration, the engine, the reference
// server and the reports can all depend on it without depending on each other.

/** MUST where the spec's words demand it, SHOULD where convention does, INFO for what the spec leaves open. */
export type Level = 'MUST' | 'SHOULD' | 'INFO'
export const LEVELS: readonly Level[] = ['MUST', 'SHOULD', 'INFO']

/** `error` is a harness fault (network, a bug of ours), kept apart from a server fault (`failed`). */
export type Status = 'passed' | 'failed' | 'skipped' | 'error'
export const STATUSES: readonly Status[] = ['passed', 'failed', 'skipped', 'error']

/** `read-only` sends no write; `safe` writes only what it can delete or tag, with no outward effect; `full` does everything. */
export type Profile = 'full' | 'safe' | 'read-only'
export const PROFILES: readonly Profile[] = ['full', 'safe', 'read-only']

/** `deep`: the full profile with the explorer's nightly budget (thousands of requests, CRM_EXPLORE_REQUESTS overrides it). */
export type ProfileWord = Profile | 'deep'
export const PROFILE_WORDS: readonly ProfileWord[] = [...PROFILES, 'deep']

/**
 * What a check writes: gates it by profile. `if-allowed` writes a fixture of its own (tagged, deletable) where the
 * profile allows writes and reads what the server already holds where it is read-only: no profile leaves it out.
 */
export type WriteNeed = 'none' | 'if-allowed' | 'safe' | 'full'

export type KeyRole = 'main' | 'restricted' | 'revoked' | 'foreign' | 'ipBlocked' | 'rateLimited' | 'roleLimited'

/** The public names of the optional keys; part of the interface, never rename. */
export const KEY_VARIABLES: Record<KeyRole, string> = {
  main: 'CRM_API_KEY',
  restricted: 'CRM_API_KEY_RESTRICTED',
  revoked: 'CRM_API_KEY_REVOKED',
  foreign: 'CRM_API_KEY_FOREIGN',
  ipBlocked: 'CRM_API_KEY_IP_BLOCKED',
  rateLimited: 'CRM_API_KEY_RATE_LIMITED',
  roleLimited: 'CRM_API_KEY_ROLE_LIMITED',
}

/** Values a key is useless without: named with it when either is missing. */
export const KEY_COMPANIONS: Partial<Record<KeyRole, string>> = { roleLimited: 'CRM_API_KEY_ROLE_LIMITED_DENIED' }

/** Records in states the API cannot create, which a user may name. */
export type FixtureName = 'acceptedQuotationId' | 'sentQuotationId' | 'sentInvoiceId' | 'conversationId'

export const FIXTURE_VARIABLES: Record<FixtureName, string> = {
  acceptedQuotationId: 'CRM_FIXTURE_ACCEPTED_QUOTATION_ID',
  sentQuotationId: 'CRM_FIXTURE_SENT_QUOTATION_ID',
  sentInvoiceId: 'CRM_FIXTURE_SENT_INVOICE_ID',
  conversationId: 'CRM_FIXTURE_CONVERSATION_ID',
}

// Every public variable name, for the "did you mean" warning and the embedded-target choice
// (src/config/env-names.ts, src/config/target-choice.ts). A new variable is added here too.
/** Every environment variable crm-conformance reads (the agreed names of this wave included). */
export const PUBLIC_VARIABLES: readonly string[] = [
  'CRM_BASE_URL',
  ...Object.values(KEY_VARIABLES),
  ...Object.values(KEY_COMPANIONS),
  'CRM_API_KEY_RESTRICTED_SCOPES',
  'CRM_WEBHOOK_SECRET',
  'CRM_WEBHOOK_SINK_HOST',
  'CRM_WEBHOOK_SINK_PORT',
  'CRM_WEBHOOK_TIMEOUT_S',
  'CRM_WEBHOOK_RETRY_WAIT_S',
  ...Object.values(FIXTURE_VARIABLES),
  'CRM_PROFILE',
  'CRM_SEED',
  'CRM_REQUEST_TIMEOUT_MS',
  'CRM_CHECK_TIMEOUT_MS',
  'CRM_RUN_TIMEOUT_S',
  'CRM_CONSISTENCY_WINDOW_MS',
  'CRM_CONCURRENCY',
  'CRM_REQUEST_BUDGET',
  'CRM_PBT_RUNS',
  'CRM_EXPLORE_REQUESTS',
  'CRM_EXTRA_HEADERS',
]

/** Variables that describe a server of the user's: set without CRM_BASE_URL, the embedded server would be tested with them by mistake. */
export const TARGET_VARIABLES: readonly string[] = [
  ...Object.values(KEY_VARIABLES),
  ...Object.values(KEY_COMPANIONS),
  'CRM_API_KEY_RESTRICTED_SCOPES',
  'CRM_WEBHOOK_SECRET',
  ...Object.values(FIXTURE_VARIABLES),
  'CRM_EXTRA_HEADERS',
]

/** Prefix of every run tag (`crmconf-run-<run id>`); `sweep` looks for it. */
export const RUN_TAG_PREFIX = 'crmconf-run-'
