// The only place that reads the environment. Everything else receives a ResolvedConfig.
import { parse as parseDotenv } from 'dotenv'
import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { CrmConfError } from '../errors.ts'
import { parseBaseUrl } from './base-url.ts'
import { detectCi } from './ci.ts'
import {
  FIXTURE_VARIABLES,
  KEY_COMPANIONS,
  KEY_VARIABLES,
  PROFILE_WORDS,
  type FixtureName,
  type KeyRole,
  type Profile,
  type ProfileWord,
} from '../vocabulary.ts'

// The names live in the vocabulary (src/vocabulary.ts); re-exported for the modules that read them with the configuration.
export { FIXTURE_VARIABLES, KEY_COMPANIONS, KEY_VARIABLES, PUBLIC_VARIABLES, TARGET_VARIABLES } from '../vocabulary.ts'
export type { FixtureName, KeyRole } from '../vocabulary.ts'

/** Why a check needing this key cannot run. */
export function keyUnset(role: KeyRole): string {
  const companion = KEY_COMPANIONS[role]
  return `${KEY_VARIABLES[role]} is not set${companion ? ` (it goes with ${companion})` : ''}`
}

/** What each optional value enables, printed when it is missing. */
export const OPTIONAL_PURPOSE: Record<string, string> = {
  CRM_API_KEY_RESTRICTED: "scope checks (403 outside the key's scopes, §5.4, §5.6)",
  CRM_API_KEY_RESTRICTED_SCOPES: 'scope checks on servers whose /me does not show scopes',
  CRM_API_KEY_REVOKED: 'the revoked-key check (401, §5.5)',
  CRM_API_KEY_FOREIGN: "workspace isolation checks (404 for another workspace's records, §5.7)",
  CRM_API_KEY_IP_BLOCKED: 'the IP allowlist check (403, §5.6)',
  CRM_API_KEY_RATE_LIMITED: 'the 429 probe (§7.7, §8)',
  CRM_API_KEY_ROLE_LIMITED: "owner's role checks (403 for what the owner's role may not do, §5.3 b, §5.6); a key with every scope",
  CRM_API_KEY_ROLE_LIMITED_DENIED: "the operations that key's owner may not perform, `METHOD /path` pairs: DELETE /accounts/{id} POST /products",
  CRM_WEBHOOK_SECRET: 'the webhook checks (§6)',
  CRM_FIXTURE_ACCEPTED_QUOTATION_ID: 'order creation from an accepted quotation (§3.2)',
  CRM_FIXTURE_SENT_QUOTATION_ID: 'draft-only rules on a non-draft quotation (§3.1)',
  CRM_FIXTURE_SENT_INVOICE_ID: 'draft-only rules on a non-draft invoice and invoice.paid (§3.1, §6.2)',
  CRM_FIXTURE_CONVERSATION_ID: 'message creation in a conversation (§4.4)',
}

/** What the environment (and .env) says about the target, beyond the resolved values: for the embedded-target choice and typo warnings. */
export interface EnvironmentFacts {
  /** A pipeline (src/config/ci.ts: any CI service ci-info knows, or `CI` set), where a silent embedded run would be a false green. */
  ci: boolean
  /** The CI service detected, by name (`Jenkins`); undefined when none is named. */
  ciName?: string
  /** Every variable set (environment and .env), by name. */
  names: string[]
}

export function environmentFacts(env: NodeJS.ProcessEnv = process.env, overrides: Pick<ConfigOverrides, 'envFile'> = {}): EnvironmentFacts {
  const fromFile = readEnvFile(overrides)
  const set = (value: string | undefined) => value !== undefined && value.trim() !== ''
  const names = [...new Set([...Object.keys(env).filter((n) => set(env[n])), ...Object.keys(fromFile).filter((n) => set(fromFile[n]))])].sort()
  const { ci, name: ciName } = detectCi(env)
  return { ci, ciName, names }
}

function readEnvFile(overrides: Pick<ConfigOverrides, 'envFile'>): Record<string, string> {
  const envFile = overrides.envFile === false ? undefined : resolve(overrides.envFile ?? '.env')
  return envFile && existsSync(envFile) ? parseDotenv(readFileSync(envFile)) : {}
}

/** Named defaults, documented once. */
export const DEFAULTS = {
  sinkHost: '127.0.0.1',
  sinkPort: 8787,
  webhookTimeoutS: 30,
  /** How long after a non-2xx answer of the sink a retry is awaited before the SHOULD of §6.7 fails. */
  webhookRetryWaitS: 60,
  /** Per-request time limit: a broken server never hangs a check. */
  requestTimeoutMs: 15_000,
  /** One check's own deadline: its requests and deliberate waits, never its time queued for the rate limit. */
  checkTimeoutMs: 30_000,
  /** Hard cap on a response body; larger bodies are cut and the exchange flagged. */
  maxResponseBytes: 4 * 1024 * 1024,
  /**
   * The traffic verifier's bound on a body decoded from its content-coding (gzip, br, zstd…): a 600 kB gzip answer
   * can inflate to 600 MiB. Past it the body is left unjudged, with a note; forwarding is never affected.
   */
  maxDecodedBytes: 16 * 1024 * 1024,
  /**
   * The ceiling of the main key's requests in flight (CRM_CONCURRENCY); the cap adapts below it
   * (src/http/adaptive-concurrency.ts). 16: enough to fill the spec's 600/min against a server answering in
   * 1.5 s (10/s × 1.5 s), and no more than a small staging server (a few workers behind a gateway) serves
   * without queueing; a run never holds more connections to it than twice that.
   */
  concurrency: 16,
  /** Where the adaptive cap starts and the least its Little's-law bound allows; also the fixed cap of every other key (the 429 probe's). */
  concurrencyStart: 4,
  /** Checks in flight at least; the scheduler admits up to twice the main key's current cap when that is more. */
  checksInFlightMin: 8,
  /** A check with no request on its way for this long is waiting deliberately, and the scheduler starts another beside it. */
  checkIdleMs: 1_000,
  /** Adaptive concurrency: weight of the newest answer in the fast latency EWMA. */
  adaptiveLatencyAlpha: 0.3,
  /** Adaptive concurrency: weight of the newest answer in the baseline latency EWMA (slow, so it follows a lasting change only). */
  adaptiveBaselineAlpha: 0.05,
  /** Adaptive concurrency: latency has climbed once the fast EWMA exceeds the baseline this many times… */
  adaptiveLatencyRise: 2,
  /** …and by at least this many ms (a loaded CI machine's event-loop lag is not a server queueing). */
  adaptiveLatencyRiseMinMs: 100,
  /** Adaptive concurrency: the cap is multiplied by this on a 429, a 503, a connection error (halved, as TCP does). */
  adaptiveOverloadFactor: 0.5,
  /** Adaptive concurrency: the cap is multiplied by this when latency climbs (gentler: a slower answer is a hint, not a refusal). */
  adaptiveLatencyFactor: 0.75,
  /** Adaptive concurrency: steps of one the cap grows by per round trip while requests wait for a slot. */
  adaptiveGrowthPerRound: 2,
  /** Adaptive concurrency: Little's law's bound (allowed rate × latency) is multiplied by this, for jitter. */
  adaptiveHeadroom: 1.5,
  /** Total request budget of one run (all keys); past it, checks error rather than hammer a server. */
  requestBudget: 5_000,
  /** Longest Retry-After the client will honour before giving up on a request. */
  maxRetryAfterS: 90,
  /** Generated cases per property-based check (each case costs a few requests). */
  pbtRuns: 3,
  /**
   * Requests to the target the explorer (suites/explore/) may spend in a CI run, shrinking included (70% explores,
   * the rest shrinks a failure): about 140, and a delete per record it made at clean-up, against a conformant
   * server. Below about 120 its faults of src/selfcheck/fault-catches.ts are no longer caught on every seed; 200 is
   * what a full CI run leaves under the main key's 1,800 (docs/evidence-and-budget.md).
   */
  exploreRequests: 200,
  /** …and with `--profile deep`, a nightly job's (about 5 minutes at 600/min). */
  exploreRequestsDeep: 3_000,
  /**
   * Requests in a row that got no answer at all (timeout, reset, refused) before the target is treated as
   * unreachable: later requests fail at once instead of each waiting out its timeout.
   */
  unreachableAfterFailures: 8,
  /** While the target is treated as unreachable, one request is let through this often to see if it is back. */
  unreachableRetryMs: 5_000,
  /** How long a list may take to show a write (lists fed by a search index) before a check judges what it shows. */
  consistencyWindowMs: 5_000,
  /** The whole run's bound (CRM_RUN_TIMEOUT_S): past it no check starts, running ones end as error, clean-up and reports still happen. */
  runTimeoutS: 3_600,
  // Rate-limit pacing (src/http/pacer.ts names the files that make it up).
  /** 429s in a row one request is sent again after (§8: wait Retry-After, then call again); the last 429 is then its answer. */
  max429Retries: 3,
  /** The wait before sending again after a 429 that has no readable Retry-After. */
  retryAfterMissingMs: 1_000,
  /**
   * How much of one answer's wait counts on the sending check's clock. Past it the check is waiting for the
   * server, not doing its own work: a server that answers every request 2 s late must get the verdict a fast one
   * gets, and each request is bounded on its own (CRM_REQUEST_TIMEOUT_MS), the run by CRM_RUN_TIMEOUT_S.
   */
  serverTimeCountedMs: 250,
  /** The embedded reference server's limit for the main key, per minute: high, so a local run is not paced (`--rate-limit 600` restores the spec's). */
  embeddedRateLimitPerMinute: 100_000,
  /** The longest a run's clean-up waits for a key's spent rate-limit window (the spec's minute, plus the header's rounding); past it the records are named as left behind. */
  cleanupWindowWaitS: 65,
  /** After an interrupt, the longest clean-up waits for a spent window: CI kills a cancelled job 10 s after its SIGINT (GitHub Actions). */
  interruptedCleanupWindowWaitS: 3,
  /** From the first signal to exit, whatever the server does: GitHub Actions sends SIGKILL 10 s after SIGINT. */
  interruptExitS: 9,
  /**
   * What the traffic rules that judge an answer by what the traffic showed before it keep per verification (least
   * recently used first out): records with their last seen state, keys with the scopes their /me showed.
   */
  trafficRecordsRemembered: 10_000,
  trafficKeysRemembered: 1_000,
  // The proxy's judging thread (src/traffic/judge-thread.ts): rules run off the forwarding path.
  /** At stop, how long the proxy waits for the judging thread to judge what it was handed; past it the rest is left unjudged (counted). */
  judgeDrainMs: 5_000,
  /** Bytes of captured exchanges handed to the judging thread and not yet judged; past it exchanges are forwarded but not judged (counted), so memory stays bounded. */
  judgeBacklogBytes: 256 * 1024 * 1024,
  /** Times a judging thread that crashed (hostile input, out of memory) is started again; after that the rest is judged on the proxy's own thread. */
  judgeRestarts: 3,
  /** Heap of the judging thread: a body that makes the rules use more ends that thread (restarted), never the proxy. */
  judgeHeapMb: 1_024,
} as const

export interface ResolvedConfig {
  /** Base address including the version segment; undefined means the embedded reference server. */
  baseUrl?: string
  keys: Partial<Record<KeyRole, string>>
  restrictedScopes?: string[]
  /** CRM_API_KEY_ROLE_LIMITED_DENIED: what the role-limited key's owner may not do, each `METHOD /path`. */
  roleLimitedDenied?: string[]
  webhookSecret?: string
  sinkHost: string
  sinkPort: number
  webhookTimeoutS: number
  /** CRM_WEBHOOK_RETRY_WAIT_S: the wait for a retry after the sink answered non-2xx (§6.7). */
  webhookRetryWaitS: number
  /** The fixture each check uses: the first id of its pool, or (once the run starts) the pool's usable one (src/engine/fixture-pools.ts). */
  fixtures: Partial<Record<FixtureName, string>>
  /** CRM_FIXTURE_*: every id the variable names (separated by spaces or commas), in the order given. */
  fixturePools?: Partial<Record<FixtureName, string[]>>
  profile: Profile
  seed: number
  requestTimeoutMs: number
  /** CRM_CHECK_TIMEOUT_MS: a check's deadline when it declares none (time queued in the pacer excluded). */
  checkTimeoutMs: number
  /** CRM_EXTRA_HEADERS (`Name: value; Name2: value2`): sent with every request to the target, redacted like keys. */
  extraHeaders: Record<string, string>
  /** HTTP_PROXY / HTTPS_PROXY / NO_PROXY (or lower case), for requests to the target only. */
  proxy: { httpProxy?: string; httpsProxy?: string; noProxy?: string }
  maxResponseBytes: number
  concurrency: number
  requestBudget: number
  maxRetryAfterS: number
  /** CRM_PBT_RUNS: generated cases per property-based check. */
  pbtRuns: number
  /** CRM_EXPLORE_REQUESTS (`--explore-requests`): the explorer's requests to the target, shrinking included. */
  exploreRequests: number
  /** CRM_CONSISTENCY_WINDOW_MS: the bounded wait for a list to show a write (src/checks/eventually.ts). */
  consistencyWindowMs: number
  /** CRM_RUN_TIMEOUT_S: the whole run's bound, in seconds. */
  runTimeoutS: number
}

export interface ConfigOverrides {
  baseUrl?: string
  /** `deep` is the full profile with the explorer's nightly budget. */
  profile?: ProfileWord
  seed?: number
  exploreRequests?: number
  /** The dotenv file to read (default `.env` in the working directory); false reads none. */
  envFile?: string | false
}

/**
 * Resolves the configuration from the environment, a .env file and CLI overrides (in rising precedence:
 * .env, environment, flags). Throws CRMCONF_CONFIG_INVALID listing every problem at once.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: ConfigOverrides = {}): ResolvedConfig {
  const fromFile = readEnvFile(overrides)
  const get = (name: string): string | undefined => {
    const value = env[name] ?? fromFile[name]
    return value === undefined || value.trim() === '' ? undefined : value.trim()
  }
  const problems: string[] = []

  const baseUrl = overrides.baseUrl ?? get('CRM_BASE_URL')
  if (baseUrl !== undefined) problems.push(...parseBaseUrl(baseUrl, 'CRM_BASE_URL', 'CRM_API_KEY').problems)

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
  const fixturePools: Partial<Record<FixtureName, string[]>> = {}
  for (const [name, variable] of Object.entries(FIXTURE_VARIABLES) as [FixtureName, string][]) {
    const ids = parseFixturePool(get(variable))
    if (ids.length === 0) continue
    fixtures[name] = ids[0]
    fixturePools[name] = ids
  }

  const profileWord = overrides.profile ?? (get('CRM_PROFILE') as ProfileWord | undefined) ?? (baseUrl === undefined ? 'full' : 'safe')
  if (!PROFILE_WORDS.includes(profileWord)) problems.push(`profile must be one of ${PROFILE_WORDS.join(', ')}, got ${profileWord}`)
  const deep = profileWord === 'deep'
  const profile: Profile = deep ? 'full' : (profileWord as Profile)

  const seed = overrides.seed ?? integer('CRM_SEED', Math.floor(Math.random() * 2 ** 31), 0, 2 ** 31 - 1)
  const restrictedScopes = get('CRM_API_KEY_RESTRICTED_SCOPES')?.split(/\s+/)
  const deniedWords = get('CRM_API_KEY_ROLE_LIMITED_DENIED')?.split(/\s+/)
  const roleLimitedDenied =
    deniedWords && Array.from({ length: Math.ceil(deniedWords.length / 2) }, (_, i) => `${deniedWords[2 * i]} ${deniedWords[2 * i + 1] ?? ''}`.trim())
  const badDenial = roleLimitedDenied?.find((d) => !/^(GET|POST|PUT|PATCH|DELETE) \/\S*$/.test(d))
  if (badDenial)
    problems.push(`CRM_API_KEY_ROLE_LIMITED_DENIED must be METHOD /path pairs (e.g. DELETE /accounts/{id} POST /products), got ${JSON.stringify(badDenial)}`)

  const config: ResolvedConfig = {
    baseUrl: baseUrl?.replace(/\/+$/, ''),
    keys,
    restrictedScopes,
    roleLimitedDenied,
    webhookSecret,
    sinkHost: get('CRM_WEBHOOK_SINK_HOST') ?? DEFAULTS.sinkHost,
    sinkPort: integer('CRM_WEBHOOK_SINK_PORT', DEFAULTS.sinkPort, 0, 65535),
    webhookTimeoutS: integer('CRM_WEBHOOK_TIMEOUT_S', DEFAULTS.webhookTimeoutS, 1, 3600),
    webhookRetryWaitS: integer('CRM_WEBHOOK_RETRY_WAIT_S', DEFAULTS.webhookRetryWaitS, 1, 3600),
    fixtures,
    fixturePools,
    profile,
    seed,
    requestTimeoutMs: integer('CRM_REQUEST_TIMEOUT_MS', DEFAULTS.requestTimeoutMs, 100, 600_000),
    checkTimeoutMs: integer('CRM_CHECK_TIMEOUT_MS', DEFAULTS.checkTimeoutMs, 100, 3_600_000),
    extraHeaders: parseExtraHeaders(get('CRM_EXTRA_HEADERS'), problems),
    // Lower case first, as curl and undici read them.
    proxy: {
      httpProxy: get('http_proxy') ?? get('HTTP_PROXY'),
      httpsProxy: get('https_proxy') ?? get('HTTPS_PROXY'),
      noProxy: get('no_proxy') ?? get('NO_PROXY'),
    },
    maxResponseBytes: DEFAULTS.maxResponseBytes,
    concurrency: integer('CRM_CONCURRENCY', DEFAULTS.concurrency, 1, 64),
    requestBudget: integer('CRM_REQUEST_BUDGET', DEFAULTS.requestBudget, 10, 1_000_000),
    maxRetryAfterS: DEFAULTS.maxRetryAfterS,
    pbtRuns: integer('CRM_PBT_RUNS', DEFAULTS.pbtRuns, 1, 1000),
    exploreRequests: overrides.exploreRequests ?? integer('CRM_EXPLORE_REQUESTS', deep ? DEFAULTS.exploreRequestsDeep : DEFAULTS.exploreRequests, 0, 1_000_000),
    consistencyWindowMs: integer('CRM_CONSISTENCY_WINDOW_MS', DEFAULTS.consistencyWindowMs, 0, 600_000),
    runTimeoutS: integer('CRM_RUN_TIMEOUT_S', DEFAULTS.runTimeoutS, 1, 7 * 86_400),
  }
  if (problems.length > 0) {
    throw new CrmConfError('CRMCONF_CONFIG_INVALID', `The configuration is not usable:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
  }
  return config
}

/** A CRM_FIXTURE_* value as ids: one or several, separated by spaces or commas; repeats dropped, order kept. */
export function parseFixturePool(raw: string | undefined): string[] {
  return [...new Set((raw ?? '').split(/[\s,]+/).filter((id) => id !== ''))]
}

/** `X-Gateway-Key: abc; X-Env: staging` as headers; a malformed entry is a configuration problem. */
export function parseExtraHeaders(raw: string | undefined, problems: string[]): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const entry of (raw ?? '').split(';')) {
    if (entry.trim() === '') continue
    const colon = entry.indexOf(':')
    const name = colon > 0 ? entry.slice(0, colon).trim() : ''
    const value = colon > 0 ? entry.slice(colon + 1).trim() : ''
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) || value === '' || /[\r\n]/.test(value)) {
      problems.push(`CRM_EXTRA_HEADERS must be \`Name: value; Name2: value2\`, got an entry \`${name || entry.trim().slice(0, 40)}\``)
      continue
    }
    headers[name] = value
  }
  return headers
}

/** Lines saying which optional values are unset and which checks each would enable. */
export function describeMissingOptionals(config: ResolvedConfig): string[] {
  const set = new Set<string>()
  for (const [role, variable] of Object.entries(KEY_VARIABLES) as [KeyRole, string][]) if (config.keys[role]) set.add(variable)
  for (const [name, variable] of Object.entries(FIXTURE_VARIABLES) as [FixtureName, string][]) if (config.fixtures[name]) set.add(variable)
  if (config.webhookSecret) set.add('CRM_WEBHOOK_SECRET')
  if (config.restrictedScopes) set.add('CRM_API_KEY_RESTRICTED_SCOPES')
  if (config.roleLimitedDenied) set.add('CRM_API_KEY_ROLE_LIMITED_DENIED')
  return Object.entries(OPTIONAL_PURPOSE)
    .filter(([variable]) => !set.has(variable))
    .map(([variable, purpose]) => `${variable} unset: skips ${purpose}`)
}

/** The configuration as it may appear in a report: every secret replaced by the variable that holds it. */
export function redactedConfig(config: ResolvedConfig): Record<string, unknown> {
  const keys: Record<string, string> = {}
  for (const [role, value] of Object.entries(config.keys)) if (value) keys[KEY_VARIABLES[role as KeyRole]] = `<redacted:${KEY_VARIABLES[role as KeyRole]}>`
  return {
    ...config,
    keys,
    webhookSecret: config.webhookSecret ? '<redacted:CRM_WEBHOOK_SECRET>' : undefined,
    extraHeaders: Object.fromEntries(Object.keys(config.extraHeaders ?? {}).map((name) => [name, '<redacted:CRM_EXTRA_HEADERS>'])),
    // A proxy URL may carry user:password@.
    proxy: Object.fromEntries(
      Object.entries(config.proxy ?? {}).map(([name, value]) => [name, typeof value === 'string' ? value.replace(/\/\/[^/@]*@/, '//<redacted>@') : value]),
    ),
  }
}
