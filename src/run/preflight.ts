// Credentials checked before the run. The main key must be accepted by GET /me, or the run does not start (a
// wrong key would otherwise read as hundreds of server failures). Each optional key is asked once whether it
// answers as its role says; one that does not is a configuration warning at start and a note on the checks that
// use it, never a verdict: the same answer can come from a misconfigured key or a broken server, and the
// checks judge the server.
import type { CheckDefinition, CheckResult } from '../checks/types.ts'
import { KEY_VARIABLES, type KeyRole, type ResolvedConfig } from '../config/config.ts'
import { CrmConfError } from '../errors.ts'
import type { Exchange } from '../http/exchange.ts'
import { transportFor } from '../http/for-config.ts'
import { headerInt } from '../http/rate-headers.ts'
import type { Transport } from '../http/transport.ts'
import { ALL_SCOPES, RESOURCE_LIST } from '../spec/resources.ts'
import { scopesFromMe } from '../judge/me.ts'

const PROBE = 'preflight'

export interface KeyWarning {
  role: KeyRole
  /** One line naming the variable, what it answered and what its role expects. */
  message: string
}

export interface PreflightResult {
  /** The run must not start: one line (the target did not answer, or refused the main key). */
  refusal?: string
  warnings: KeyWarning[]
  /** The main key's per-minute limit as its /me answer announced it (RateLimit-Limit), for the run's estimate. */
  limitPerMinute?: number
}

/** What one probe saw: a status and body, or no answer. */
export interface Seen {
  status?: number
  body?: unknown
  error?: string
}

const ok = (seen: Seen) => seen.status !== undefined && seen.status >= 200 && seen.status < 300

/** The main key's /me: a refusal when the key is refused or the target is silent, else undefined. */
export function judgeMain(seen: Seen, baseUrl: string): string | undefined {
  // A sentence first; the stable code last, for a script to match.
  if (seen.status === undefined)
    return `the target did not answer GET /me at ${baseUrl}: ${seen.error ?? 'no response'}; check CRM_BASE_URL (${new CrmConfError('CRMCONF_TARGET_UNREACHABLE', '').code})`
  if (seen.status === 401)
    return `${KEY_VARIABLES.main} was refused: GET /me answered 401 at ${baseUrl}; set ${KEY_VARIABLES.main} to a valid key of that workspace with every scope`
  if (seen.status === 403)
    return `${KEY_VARIABLES.main} may not call GET /me: 403 at ${baseUrl}; set ${KEY_VARIABLES.main} to a key with every scope whose IP allowlist admits this machine`
  return undefined
}

/** The workspace a /me body names, where the spec leaves its shape open (§2): `workspace` as an id or `{ id }`, or `workspaceId`. */
export function workspaceOf(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined
  const b = body as Record<string, unknown>
  const ws = b.workspace
  if (typeof ws === 'string' || typeof ws === 'number') return String(ws)
  if (ws && typeof ws === 'object' && 'id' in ws && (typeof ws.id === 'string' || typeof ws.id === 'number')) return String(ws.id)
  for (const name of ['workspaceId', 'workspace_id']) if (typeof b[name] === 'string') return b[name] as string
  return undefined
}

/**
 * The main key's scopes against those the selected checks need: one line naming what is missing and the variable,
 * or undefined (nothing missing, or the /me body shows no scopes this suite can read: then the run cannot tell).
 */
export function judgeMainScopes(me: Seen, needed: readonly string[]): string | undefined {
  const held = scopesFromMe(me.body, { complete: true })
  const missing = held ? needed.filter((scope) => !held.includes(scope)) : []
  if (missing.length === 0) return undefined
  const variable = KEY_VARIABLES.main
  return `${variable} lacks ${missing.length} scope${missing.length === 1 ? '' : 's'} the selected checks need (GET /me, §5.4): ${missing.join(' ')}; set ${variable} to a key with every scope, or select checks that do not need them (--only, --skip, --profile read-only)`
}

/** A read of a collection the scopes exclude (§5.4), for the restricted key's probe; undefined when every read scope is held. */
export function outOfScopeRead(scopes: readonly string[]): { path: string; scope: string } | undefined {
  const held = new Set(scopes)
  const resource = RESOURCE_LIST.find((r) => r.ops.list && !held.has(`${r.scopeArea}:read`))
  return resource ? { path: resource.path, scope: `${resource.scopeArea}:read` } : undefined
}

/** Judges an optional key's /me answer against its role; `main` is the main key's /me. */
export function judgeOptional(role: KeyRole, me: Seen, main: Seen): string | undefined {
  const variable = KEY_VARIABLES[role]
  if (me.status === undefined) return undefined
  if (role === 'revoked') {
    return ok(me)
      ? `${variable} is accepted (GET /me answered ${me.status}): a revoked key gets 401 (§5.5); revoke it, or the server ignores revocation`
      : undefined
  }
  if (me.status === 401) return `${variable} was refused (GET /me answered 401): it is not a valid key, so the checks that use it cannot judge its role`
  if (role === 'ipBlocked' && ok(me))
    return `${variable} is accepted from this machine (GET /me answered ${me.status}): its IP allowlist must exclude this machine (403, §5.6), or the server ignores the allowlist`
  if (role === 'foreign' && ok(me)) {
    const mine = workspaceOf(main.body)
    const theirs = workspaceOf(me.body)
    // The id is the server's text, printed on the console: one short line.
    if (mine !== undefined && mine === theirs)
      return `${variable} belongs to the main key's workspace (${mine.replace(/\s+/g, ' ').slice(0, 80)}, GET /me): it must be a key of another workspace (§5.7)`
  }
  if (role === 'restricted' && ok(me)) {
    const scopes = scopesFromMe(me.body)
    if (scopes && ALL_SCOPES.every((s) => scopes.includes(s)))
      return `${variable} has every scope (GET /me): it must lack some (§5.4), or the scope checks test nothing`
  }
  return undefined
}

const OPTIONAL_PROBED: KeyRole[] = ['restricted', 'revoked', 'foreign', 'ipBlocked']

/**
 * GET /me with the main key (one request), then with each configured optional key but the rate-limited one
 * (whose small budget the 429 probe needs whole), and for the restricted key one read outside its scopes:
 * at most six requests. Every request goes through the run's transport and its redaction.
 */
export async function preflight(config: ResolvedConfig, transport: Transport, needed: readonly string[] = []): Promise<PreflightResult> {
  const baseUrl = config.baseUrl ?? ''
  const probe = async (role: KeyRole, path: string, query?: Record<string, string>): Promise<Seen> =>
    seenOf(await transport.send({ method: 'GET', path, query, retryOn429: false }, role, PROBE))
  const mainExchange = await transport.send({ method: 'GET', path: '/me', retryOn429: false }, 'main', PROBE)
  const main = seenOf(mainExchange)
  const refusal = judgeMain(main, baseUrl) ?? (ok(main) ? judgeMainScopes(main, needed) : undefined)
  if (refusal) return { refusal, warnings: [] }
  const limitPerMinute = headerInt(mainExchange.response?.headers['ratelimit-limit'])

  const warnings: KeyWarning[] = []
  if (main.status === 404)
    warnings.push({ role: 'main', message: `GET /me answered 404 at ${baseUrl}: is CRM_BASE_URL the base address with its version segment (/v1)?` })
  for (const [role, value] of Object.entries(config.keys) as [KeyRole, string][]) {
    if (role !== 'main' && value === config.keys.main)
      warnings.push({ role, message: `${KEY_VARIABLES[role]} is the same key as ${KEY_VARIABLES.main}: it cannot play its own role` })
  }
  const probed = OPTIONAL_PROBED.filter((role) => transport.hasKey(role) && !warnings.some((w) => w.role === role))
  const answers = await Promise.all(probed.map(async (role) => [role, await probe(role, '/me')] as const))
  for (const [role, me] of answers) {
    const message = judgeOptional(role, me, main)
    if (message) {
      warnings.push({ role, message })
      continue
    }
    // A restricted key may be refused /me (its scope is not stated, §5.9): the read below still tells.
    if (role === 'restricted' && (ok(me) || me.status === 403)) {
      const declared = config.restrictedScopes ?? scopesFromMe(me.body)
      const read = declared && outOfScopeRead(declared)
      if (read) {
        const seen = await probe('restricted', read.path, { limit: '1' })
        if (ok(seen))
          warnings.push({
            role,
            message: `${KEY_VARIABLES.restricted} read ${read.path} (GET answered ${seen.status}) although its scopes (${declared.join(' ')}) lack ${read.scope}: the key has more scopes than declared, or the server ignores scopes (§5.4)`,
          })
      }
    }
  }
  return { warnings, limitPerMinute: limitPerMinute && limitPerMinute > 0 ? limitPerMinute : undefined }
}

/** `preflight` on a transport of its own, closed afterwards; `needed`: the scopes the selected checks need of the main key. */
export async function preflightTarget(config: ResolvedConfig, needed: readonly string[] = []): Promise<PreflightResult> {
  const transport = transportFor(config)
  try {
    return await preflight(config, transport, needed)
  } finally {
    await transport.close()
  }
}

function seenOf(exchange: Exchange): Seen {
  if (!exchange.response) return { error: exchange.error?.message }
  return { status: exchange.response.status, body: exchange.response.body }
}

/**
 * The checks a warned key touches carry the warning as a note: those that declare the key, and those whose
 * evidence shows a request made with it (the checks that call `ctx.as(role)` without declaring it).
 */
export function annotateResults(results: CheckResult[], catalogue: readonly CheckDefinition[], warnings: readonly KeyWarning[]): CheckResult[] {
  if (warnings.length === 0) return results
  const declared = new Map(catalogue.map((c) => [c.id, new Set(c.keys ?? [])]))
  return results.map((result) => {
    const used = new Set<string>([...(declared.get(result.id) ?? []), ...result.evidence.map((e) => e.exchange.keyRole)])
    const notes = warnings.filter((w) => w.role !== 'main' && used.has(w.role)).map((w) => `configuration warning: ${w.message}`)
    return notes.length > 0 ? { ...result, notes: [...result.notes, ...notes] } : result
  })
}
