// The gate of §5 in front of every route, in the order of the reference server: key (401), rate limit (429),
// IP allowlist (403). Every response, errors included, carries the RateLimit-* headers (§8).

import type { MiddlewareHandler } from 'hono'
import { ApiError } from '../api-error.ts'
import { bearerOf, ipAllowed, unauthorized } from '../auth.ts'
import type { FaultId, SwitchesOf } from '../faults.ts'
import { HTTP_DEFAULTS, type AppState, type Env } from './context.ts'
import type { RateDecision } from '../rate-limit.ts'
import { rateLimited, type Responses } from './responses.ts'

/** The faults this module plays (faults.ts): the only switches its code can read. */
export const GATE_FAULTS = [
  'auth.any-scheme',
  'rate-limits.retry-after-fixed-1s',
  'rate-limits.no-429',
  'rate-limits.hidden-burst-limit',
  'auth.ip-allowlist-ignored',
  'rate-limits.429-plain-text',
  'rate-limits.429-without-ratelimit-headers',
  'invariants.json-as-text',
  'auth.revoked-key-accepted-on-me',
  'auth.ip-allowlist-get-only',
  'rate-limits.limit-header-server-default',
  'rate-limits.bucket-per-workspace',
  'auth.me-anonymous-without-key',
  'auth.me-401-not-envelope',
  'auth.ip-allowlist-skips-me',
] as const satisfies readonly FaultId[]

/** The `rate-limits.hidden-burst-limit` fault's unannounced cap on one key's calls within a second. */
const HIDDEN_BURST_PER_SECOND = 100
/** The `rate-limits.limit-header-server-default` fault's limit: §8's default. */
const SERVER_DEFAULT_LIMIT = 600
/** How long the `rate-limits.retry-after-fixed-1s` fault keeps a refused key refused. */
const FIXED_1S_HOLD_MS = 20_000

export function gate(state: AppState, { errorResponse, rateHeaders }: Responses): MiddlewareHandler<Env> {
  const { clock } = state
  const faults: SwitchesOf<typeof GATE_FAULTS> = state.faults
  const heldUntil = new Map<string, number>()

  // The `rate-limits.hidden-burst-limit` fault: each key's calls of the last second, against a cap no header shows.
  const recentCalls = new Map<string, number[]>()
  const burstExceeded = (id: string, now: number): boolean => {
    const recent = (recentCalls.get(id) ?? []).filter((t) => now - t < 1000)
    recent.push(now)
    recentCalls.set(id, recent)
    return recent.length > HIDDEN_BURST_PER_SECOND
  }

  return async (c, next) => {
    const now = clock.now()
    const remote = c.env?.incoming?.socket?.remoteAddress
    const authorization = c.req.header('authorization')
    const isMe = c.req.path.endsWith('/me')
    // The fault: the token is the header's second word, whatever the scheme.
    // The fault: GET /me ("check a key") looks the key up itself, without the revocation check of every other call.
    const revokedAccepted = faults['auth.revoked-key-accepted-on-me'] && isMe
    const resolved = state.keys.resolve(faults['auth.any-scheme'] && authorization !== undefined ? authorization.split(' ')[1] : bearerOf(authorization), {
      revoked: revokedAccepted,
    })
    if (!('key' in resolved)) {
      // No valid key: a per-address bucket, so even a 401 carries rate headers and a flood of them is limited.
      const d = state.limiter.take(`ip:${remote ?? 'unknown'}`, HTTP_DEFAULTS.anonymousLimitPerMinute, now)
      let res: Response
      // The fault: GET /me is a public path whose "whoami" answers a signed-out caller with an anonymous profile.
      if (d.allowed && isMe && faults['auth.me-anonymous-without-key']) res = c.json({ authenticated: false, workspace: null, key: null, user: null })
      // The fault: GET /me ("check a key") answers a bad key with its own verdict, not the error envelope.
      else if (d.allowed && isMe && faults['auth.me-401-not-envelope']) res = c.json({ valid: false, reason: resolved.problem }, 401)
      else res = errorResponse(c, d.allowed ? unauthorized(resolved.problem, state.faults, authorization) : rateLimited())
      rateHeaders(res, d)
      return res
    }
    const key = resolved.key
    // The fault: one bucket per workspace, so every key of the workspace spends the same allowance.
    let d = state.limiter.take(faults['rate-limits.bucket-per-workspace'] ? `ws:${key.workspace}` : `key:${key.secret}`, key.limitPerMinute, now)
    // The `rate-limits.retry-after-fixed-1s` fault's real wait: a refused key stays refused for a while, so the
    // 1 s it announces is never enough, however late a loaded client comes back.
    if (faults['rate-limits.retry-after-fixed-1s']) {
      if (!d.allowed) heldUntil.set(key.secret, now + FIXED_1S_HOLD_MS)
      else if ((heldUntil.get(key.secret) ?? 0) > now) d = { ...d, allowed: false, remaining: 0, retryAfterSeconds: 1 }
    }
    // The fault: the headers count down from the server's default limit, not from the key's own (§5.8).
    const shown = (): RateDecision =>
      faults['rate-limits.limit-header-server-default']
        ? { ...d, limit: SERVER_DEFAULT_LIMIT, remaining: Math.max(0, SERVER_DEFAULT_LIMIT - (key.limitPerMinute - d.remaining)) }
        : d
    let refused: ApiError | undefined
    // Faults: the limit announced but not enforced; a burst cap no header announces; the allowlist not compared.
    if (!d.allowed && !faults['rate-limits.no-429']) refused = rateLimited()
    else if (faults['rate-limits.hidden-burst-limit'] && burstExceeded(key.secret, now)) refused = rateLimited({ 'Retry-After': '1' })
    // Faults: the allowlist is compared on reads only (it was written for a read-only reporting key); not on /me.
    else if (
      !faults['auth.ip-allowlist-ignored'] &&
      !ipAllowed(key, remote) &&
      !(faults['auth.ip-allowlist-get-only'] && c.req.method !== 'GET') &&
      !(faults['auth.ip-allowlist-skips-me'] && isMe)
    )
      refused = new ApiError(403, 'forbidden', "This key's IP allowlist does not include the caller's address.")
    if (refused) {
      const limited = refused.status === 429
      // Faults: a 429 written as text by a middleware default; a 429 with Retry-After only.
      const res = limited && faults['rate-limits.429-plain-text'] ? c.text('Too Many Requests', 429) : errorResponse(c, refused)
      if (limited && faults['rate-limits.429-without-ratelimit-headers']) res.headers.set('Retry-After', String(d.retryAfterSeconds ?? 1))
      else rateHeaders(res, shown())
      return res
    }
    c.set('key', key)
    await next()
    rateHeaders(c.res, shown())
    // The fault: a response wrapper sets every body's Content-Type to text/plain, JSON included.
    if (faults['invariants.json-as-text'] && c.res.headers.get('content-type')?.startsWith('application/json'))
      c.res.headers.set('Content-Type', 'text/plain; charset=UTF-8')
  }
}
