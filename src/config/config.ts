// The only place that reads the environment. Everything else receives a ResolvedConfig.
import { parse as parseDotenv } from 'dotenv'
import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Profile } from '../checks/types.ts'
import { CrmConfError } from '../errors.ts'

export type KeyRole = 'main' | 'restricted' | 'revoked' | 'foreign' | 'ipBlocked' | 'rateLimited'

/** The public names of the optional keys; part of the interface, never rename. */
export const KEY_VARIABLES: Record<KeyRole, string> = {
  main: 'CRM_API_KEY',
  restricted: 'CRM_API_KEY_RESTRICTED',
  revoked: 'CRM_API_KEY_REVOKED',
  foreign: 'CRM_API_KEY_FOREIGN',
  ipBlocked: 'CRM_API_KEY_IP_BLOCKED',
  rateLimited: 'CRM_API_KEY_RATE_LIMITED',
}

export type FixtureName = 'acceptedQuotationId' | 'sentQuotationId' | 'sentInvoiceId' | 'conversationId'

export const FIXTURE_VARIABLES: Record<FixtureName, string> = {
  acceptedQuotationId: 'CRM_FIXTURE_ACCEPTED_QUOTATION_ID',
  sentQuotationId: 'CRM_FIXTURE_SENT_QUOTATION_ID',
  sentInvoiceId: 'CRM_FIXTURE_SENT_INVOICE_ID',
  conversationId: 'CRM_FIXTURE_CONVERSATION_ID',
}

/** What each optional value enables, printed when it is missing. */
export const OPTIONAL_PURPOSE: Record<string, string> = {
  CRM_API_KEY_RESTRICTED: 'scope checks (403 outside the key\'s scopes, §5.4, §5.6)',
  CRM_API_KEY_RESTRICTED_SCOPES: 'scope checks on servers whose /me does not show scopes',
  CRM_API_KEY_REVOKED: 'the revoked-key check (401, §5.5)',
  CRM_API_KEY_FOREIGN: 'workspace isolation checks (404 for another workspace\'s records, §5.7)',
  CRM_API_KEY_IP_BLOCKED: 'the IP allowlist check (403, §5.6)',
  CRM_API_KEY_RATE_LIMITED: 'the 429 probe (§7.7, §8)',
  CRM_WEBHOOK_SECRET: 'the webhook checks (§6)',
  CRM_FIXTURE_ACCEPTED_QUOTATION_ID: 'order creation from an accepted quotation (§3.2)',
  CRM_FIXTURE_SENT_QUOTATION_ID: 'draft-only rules on a non-draft quotation (§3.1)',
  CRM_FIXTURE_SENT_INVOICE_ID: 'draft-only rules on a non-draft invoice and invoice.paid (§3.1, §6.2)',
  CRM_FIXTURE_CONVERSATION_ID: 'message creation in a conversation (§4.4)',
}

/** Named defaults, documented once. */
export const DEFAULTS = {
  sinkHost: '127.0.0.1',
  sinkPort: 8787,
  webhookTimeoutS: 30,
  /** Per-request time limit: a broken server never hangs a check. */
  requestTimeoutMs: 15_000,
  /** Hard cap on a response body; larger bodies are cut and the exchange flagged. */
  maxResponseBytes: 4 * 1024 * 1024,
  /** Requests in flight at once per key. */
  concurrency: 4,
  /** Total request budget of one run (all keys); past it, checks error rather than hammer a server. */
  requestBudget: 5_000,
  /** Longest Retry-After the client will honour before giving up on a request. */
  maxRetryAfterS: 90,
  /** Generated cases per property-based check (each case costs a few requests). */
  pbtRuns: 3,
  /**
   * Requests in a row that got no answer at all (timeout, reset, refused) before the target is treated as
   * unreachable: later requests fail at once instead of each waiting out its timeout.
   */
  unreachableAfterFailures: 8,
  /** While the target is treated as unreachable, one request is let through this often to see if it is back. */
  unreachableRetryMs: 5_000,
  /** The whole run's bound (CRM_RUN_TIMEOUT_S): past it no check starts, running ones end as error, clean-up and reports still happen. */
  runTimeoutS: 3_600,
} as const

export interface ResolvedConfig {
  /** Base address including the version segment; undefined means the embedded reference server. */
  baseUrl?: string
  keys: Partial<Record<KeyRole, string>>
  restrictedScopes?: string[]
  webhookSecret?: string
  sinkHost: string
  sinkPort: number
  webhookTimeoutS: number
  fixtures: Partial<Record<FixtureName, string>>
  profile: Profile
  seed: number
  requestTimeoutMs: number
  maxResponseBytes: number
  concurrency: number
  requestBudget: number
  maxRetryAfterS: number
  /** CRM_PBT_RUNS: generated cases per property-based check. */
  pbtRuns: number
  /** CRM_RUN_TIMEOUT_S: the whole run's bound, in seconds. */
  runTimeoutS: number
}

export interface ConfigOverrides {
  baseUrl?: string
  profile?: Profile
  seed?: number
  /** The dotenv file to read (default `.env` in the working directory); false reads none. */
  envFile?: string | false
}

const PROFILES: Profile[] = ['full', 'safe', 'read-only']

/**
 * Resolves the configuration from the environment, a .env file and CLI overrides (in rising precedence:
 * .env, environment, flags). Throws CRMCONF_CONFIG_INVALID listing every problem at once.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: ConfigOverrides = {}): ResolvedConfig {
  const envFile = overrides.envFile === false ? undefined : resolve(overrides.envFile ?? '.env')
  const fromFile = envFile && existsSync(envFile) ? parseDotenv(readFileSync(envFile)) : {}
  const get = (name: string): string | undefined => {
    const value = env[name] ?? fromFile[name]
    return value === undefined || value.trim() === '' ? undefined : value.trim()
  }
  const problems: string[] = []

  const baseUrl = overrides.baseUrl ?? get('CRM_BASE_URL')
  if (baseUrl !== undefined) {
    let url: URL | undefined
    try {
      url = new URL(baseUrl)
    } catch {
      problems.push(`CRM_BASE_URL is not a URL: ${baseUrl}`)
    }
    if (url && !/^https?:$/.test(url.protocol)) problems.push(`CRM_BASE_URL must be http(s): ${baseUrl}`)
    // Credentials belong in CRM_API_KEY, where they are redacted; a URL is printed in every report.
    if (url && (url.username || url.password)) problems.push('CRM_BASE_URL must not carry credentials (user:password@): put the key in CRM_API_KEY')
    if (url && !/\/v1\/?$/.test(url.pathname)) {
      problems.push(`CRM_BASE_URL must end with the version segment /v1 (e.g. https://crm.example.com/v1 or https://acme.example.com/api/v1), got ${baseUrl}`)
    }
  }

  const keys: Partial<Record<KeyRole, string>> = {}
  for (const [role, variable] of Object.entries(KEY_VARIABLES) as [KeyRole, string][]) {
    const value = get(variable)
    if (value !== undefined) keys[role] = value
  }
  if (baseUrl !== undefined && keys.main === undefined) problems.push('CRM_API_KEY is required with CRM_BASE_URL: a key with every scope')

  const webhookSecret = get('CRM_WEBHOOK_SECRET')
  if (webhookSecret !== undefined && !/^whsec_[A-Za-z0-9+/]+=*$/.test(webhookSecret)) {
    problems.push('CRM_WEBHOOK_SECRET must be whsec_ followed by base64 text (§6.1)')
  }

  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const raw = get(name)
    if (raw === undefined) return fallback
    const value = Number(raw)
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name} must be an integer from ${min} to ${max}, got ${raw}`)
      return fallback
    }
    return value
  }

  const fixtures: Partial<Record<FixtureName, string>> = {}
  for (const [name, variable] of Object.entries(FIXTURE_VARIABLES) as [FixtureName, string][]) {
    const value = get(variable)
    if (value !== undefined) fixtures[name] = value
  }

  const profile = overrides.profile ?? (get('CRM_PROFILE') as Profile | undefined) ?? (baseUrl === undefined ? 'full' : 'safe')
  if (!PROFILES.includes(profile)) problems.push(`profile must be one of ${PROFILES.join(', ')}, got ${profile}`)

  const seed = overrides.seed ?? integer('CRM_SEED', Math.floor(Math.random() * 2 ** 31), 0, 2 ** 31 - 1)
  const restrictedScopes = get('CRM_API_KEY_RESTRICTED_SCOPES')?.split(/\s+/)

  const config: ResolvedConfig = {
    baseUrl: baseUrl?.replace(/\/+$/, ''),
    keys,
    restrictedScopes,
    webhookSecret,
    sinkHost: get('CRM_WEBHOOK_SINK_HOST') ?? DEFAULTS.sinkHost,
    sinkPort: integer('CRM_WEBHOOK_SINK_PORT', DEFAULTS.sinkPort, 0, 65535),
    webhookTimeoutS: integer('CRM_WEBHOOK_TIMEOUT_S', DEFAULTS.webhookTimeoutS, 1, 3600),
    fixtures,
    profile,
    seed,
    requestTimeoutMs: integer('CRM_REQUEST_TIMEOUT_MS', DEFAULTS.requestTimeoutMs, 100, 600_000),
    maxResponseBytes: DEFAULTS.maxResponseBytes,
    concurrency: integer('CRM_CONCURRENCY', DEFAULTS.concurrency, 1, 64),
    requestBudget: integer('CRM_REQUEST_BUDGET', DEFAULTS.requestBudget, 10, 1_000_000),
    maxRetryAfterS: DEFAULTS.maxRetryAfterS,
    pbtRuns: integer('CRM_PBT_RUNS', DEFAULTS.pbtRuns, 1, 1000),
    runTimeoutS: integer('CRM_RUN_TIMEOUT_S', DEFAULTS.runTimeoutS, 1, 7 * 86_400),
  }
  if (problems.length > 0) {
    throw new CrmConfError('CRMCONF_CONFIG_INVALID', `The configuration is not usable:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
  }
  return config
}

/** Lines saying which optional values are unset and which checks each would enable. */
export function describeMissingOptionals(config: ResolvedConfig): string[] {
  const set = new Set<string>()
  for (const [role, variable] of Object.entries(KEY_VARIABLES) as [KeyRole, string][]) if (config.keys[role]) set.add(variable)
  for (const [name, variable] of Object.entries(FIXTURE_VARIABLES) as [FixtureName, string][]) if (config.fixtures[name]) set.add(variable)
  if (config.webhookSecret) set.add('CRM_WEBHOOK_SECRET')
  if (config.restrictedScopes) set.add('CRM_API_KEY_RESTRICTED_SCOPES')
  return Object.entries(OPTIONAL_PURPOSE)
    .filter(([variable]) => !set.has(variable))
    .map(([variable, purpose]) => `${variable} unset: skips ${purpose}`)
}

/** Every secret value in the configuration, for redaction. */
export function secretsOf(config: ResolvedConfig): string[] {
  const values = Object.values(config.keys).filter((v): v is string => typeof v === 'string')
  if (config.webhookSecret) values.push(config.webhookSecret)
  return values
}

/** The configuration as it may appear in a report: every secret replaced by the variable that holds it. */
export function redactedConfig(config: ResolvedConfig): Record<string, unknown> {
  const keys: Record<string, string> = {}
  for (const [role, value] of Object.entries(config.keys)) if (value) keys[KEY_VARIABLES[role as KeyRole]] = `<redacted:${KEY_VARIABLES[role as KeyRole]}>`
  return {
    ...config,
    keys,
    webhookSecret: config.webhookSecret ? '<redacted:CRM_WEBHOOK_SECRET>' : undefined,
  }
}
