// §5.8, §7.7, §8: the per-key per-minute limit and its headers. The presence of RateLimit-* on every response
// is the run-wide invariant `invariants.ratelimit-headers`; these checks judge what the values say.
import {
  expectErrorEnvelope,
  defineCheck,
  headerInt,
  resetForm,
  retryAfterForm,
  wellFormedRetryAfterMs,
  retryAfterProblem,
  tooManyRequestsHeadersProblem,
} from '../../src/checks/index.ts'
import type { CheckDefinition, Exchange } from '../../src/checks/index.ts'
import { checks as keyChecks } from './keys.ts'
import { ON_THE_RATE_LIMITED_KEY, PROBE_TIMEOUT_MS, mainSeries, probe, recovery, refusal, type Call } from './series.ts'

const area = 'rate-limits'
/** §5.8 "per-minute request limit": no wait is ever longer than the minute. */
const MINUTE_S = 60
/** The recovery check: the probe, then a Retry-After wait of at most maxRetryAfterS. */
const RECOVERY_TIMEOUT_MS = 180_000

const exchangesOf = (calls: Call[]): Exchange[] => calls.map((c) => c.response.exchange)

/**
 * Whether the calls show RateLimit-Remaining going down. `undefined`: no decrease, but a bucket refilling at
 * `limit` a minute could have given back every call between two responses, so nothing can be concluded.
 */
const REFILL_PER_GAP_THAT_MAY_HIDE = 0.9

function judgeDecrease(calls: Call[]): { decreased: boolean | undefined; values: (number | undefined)[]; limit?: number } {
  const values = calls.map((c) => headerInt(c.response.header('ratelimit-remaining')))
  const limit = headerInt(calls[0]?.response.header('ratelimit-limit'))
  for (let i = 1; i < values.length; i++) if (values[i]! < values[i - 1]!) return { decreased: true, values, limit }
  // A limit refilling continuously gives back `gap × limit / 60 s` per gap; at ~1 per gap (the client's own
  // pacing near the end of the quota spaces calls exactly so) Remaining may stay flat. The gap the server
  // may have seen is bounded from above only: from when the earlier call left to when the later one was
  // answered, plus a millisecond for the resolution of the recorded start. 0.9 allows timer jitter.
  const serverGapMs = (earlier: Call, later: Call) => later.sentAt + later.response.exchange.durationMs + 1 - earlier.sentAt
  const refillHides = limit !== undefined && calls.slice(1).every((c, i) => (serverGapMs(calls[i]!, c) * limit) / 60_000 >= REFILL_PER_GAP_THAT_MAY_HIDE)
  return { decreased: refillHides ? undefined : false, values, limit }
}

const seriesChecks: CheckDefinition[] = [
  // The mistake: a Remaining that is never decremented (or that reports the limit).
  defineCheck({
    id: 'rate-limits.remaining.decreases',
    clauses: ['§8', '§5.8'],
    level: 'MUST',
    area,
    title: 'RateLimit-Remaining goes down between consecutive calls on the same key',
    timeoutMs: PROBE_TIMEOUT_MS,
    async run(ctx) {
      const calls = await mainSeries(ctx)
      let judged = judgeDecrease(calls)
      let key = 'CRM_API_KEY'
      let shown = calls
      if (judged.values.some((v) => v === undefined)) {
        const bad = calls.find((c) => headerInt(c.response.header('ratelimit-remaining')) === undefined)!
        if (bad.response.header('ratelimit-remaining') === undefined) ctx.skip('a response has no RateLimit-Remaining (see invariants.ratelimit-headers)')
        ctx.fail(`RateLimit-Remaining is ${JSON.stringify(bad.response.header('ratelimit-remaining'))}, expected a non-negative integer (§8)`, {
          exchanges: [bad.response.exchange],
        })
      }
      if (judged.decreased === undefined && ctx.session.transport.hasKey('rateLimited')) {
        // The main key's limit refills faster than calls arrive: judge the key with a low limit instead.
        const p = await probe(ctx)
        const before429 = p.calls.filter((c) => c.response.status !== 429)
        if (before429.length >= 2) {
          judged = judgeDecrease(before429.slice(0, 5))
          key = 'CRM_API_KEY_RATE_LIMITED'
          shown = before429.slice(0, 5)
        }
      }
      ctx.observe('key', key)
      ctx.observe('remaining', judged.values)
      if (judged.decreased === undefined) {
        ctx.skip(
          `RateLimit-Remaining stayed at ${judged.values[0]}, but a limit of ${judged.limit} a minute may refill between calls; set CRM_API_KEY_RATE_LIMITED (a low limit) to judge it`,
        )
      }
      if (!judged.decreased) {
        ctx.fail(`RateLimit-Remaining did not go down over ${shown.length} consecutive calls on ${key}: ${judged.values.join(', ')} (§8)`, {
          expected: "each call spends one of the key's per-minute requests (§5.8), so Remaining goes down until the window refills",
          exchanges: exchangesOf(shown),
        })
      }
    },
  }),
  // The mistake: Limit carrying another number (the remaining count, a window length that changes).
  defineCheck({
    id: 'rate-limits.limit.constant',
    clauses: ['§8', '§5.8'],
    level: 'MUST',
    area,
    title: "RateLimit-Limit is a positive integer and the same on every response for one key (the key's per-minute limit)",
    timeoutMs: PROBE_TIMEOUT_MS,
    async run(ctx) {
      const series: [string, Call[]][] = [['CRM_API_KEY', await mainSeries(ctx)]]
      if (ctx.session.transport.hasKey('rateLimited')) series.push(['CRM_API_KEY_RATE_LIMITED', (await probe(ctx)).calls])
      let judged = 0
      for (const [key, calls] of series) {
        const limits = calls.map((c) => c.response.header('ratelimit-limit'))
        if (limits.every((l) => l === undefined)) continue
        judged++
        const bad = calls.find((c) => !headerInt(c.response.header('ratelimit-limit')))
        if (bad)
          ctx.fail(`RateLimit-Limit is ${JSON.stringify(bad.response.header('ratelimit-limit') ?? null)} on ${key}, expected a positive integer (§8)`, {
            exchanges: [bad.response.exchange],
          })
        const values = calls.map((c) => headerInt(c.response.header('ratelimit-limit')))
        ctx.observe(`limit.${key}`, values[0])
        const differs = calls.findIndex((_, i) => values[i] !== values[0])
        if (differs > 0) {
          ctx.fail(`RateLimit-Limit changes between calls on ${key}: ${values[0]} then ${values[differs]} (§5.8)`, {
            expected: 'the per-minute limit set when the key was created (§5.8), the same on every response',
            exchanges: [calls[0]!.response.exchange, calls[differs]!.response.exchange],
          })
        }
      }
      if (judged === 0) ctx.skip('no response carried RateLimit-Limit (invariants.ratelimit-headers judges its absence)')
    },
  }),
  // The mistake: RateLimit-Reset as an HTTP or ISO date, or a negative count.
  defineCheck({
    id: 'rate-limits.reset.number',
    clauses: ['§8', '§5.8'],
    level: 'SHOULD',
    area,
    title: 'RateLimit-Reset is a non-negative number of seconds (from now, or a Unix time); which one is reported',
    async run(ctx) {
      const calls = await mainSeries(ctx)
      const present = calls.filter((c) => c.response.header('ratelimit-reset') !== undefined)
      if (present.length === 0) ctx.skip('no response has RateLimit-Reset (see invariants.ratelimit-headers)')
      for (const c of present) {
        const value = c.response.header('ratelimit-reset')
        const form = resetForm(value)
        if (!form) {
          return ctx.fail(`RateLimit-Reset is ${JSON.stringify(value)}, expected a non-negative number of seconds (§8)`, {
            expected: 'delta seconds (RateLimit header fields draft) or a Unix time in seconds: the two forms clients read',
            exchanges: [c.response.exchange],
          })
        }
        ctx.observe('reset.form', form)
        ctx.noteCapability('ratelimit.reset', form)
      }
    },
  }),
]

const probeChecks: CheckDefinition[] = [
  // The mistake: a limit that is announced but never enforced.
  defineCheck({
    id: 'rate-limits.429.reached',
    clauses: ['§5.8', '§7.7', '§8'],
    level: 'MUST',
    area,
    title: 'A key that goes past its per-minute limit is answered 429',
    ...ON_THE_RATE_LIMITED_KEY,
    async run(ctx) {
      const p = await probe(ctx)
      if (p.unmet) ctx.skip(p.unmet)
      // A key refused before the probe spent anything was not driven past its limit here: nothing could fail.
      if (p.refused !== undefined && p.refused === p.calls[0])
        ctx.skip(
          "CRM_API_KEY_RATE_LIMITED was refused (429) at the probe's first call: its allowance was spent before the run, so going past the limit was not seen",
        )
      ctx.observe('limit', p.limit)
      ctx.observe('callsUntil429', p.refused ? p.calls.length : null)
      if (!p.refused) {
        ctx.fail(`no 429 after ${p.calls.length} calls within the minute on a key whose RateLimit-Limit is ${p.limit} (§5.8)`, {
          expected: 'past its per-minute limit a key is answered 429 (§7.7)',
          exchanges: exchangesOf(p.calls.slice(-3)),
        })
      }
    },
  }),
  // The mistake: a 429 without Retry-After, leaving clients to guess.
  defineCheck({
    id: 'rate-limits.429.retry-after',
    clauses: ['§7.7', '§8'],
    level: 'MUST',
    area,
    title: 'A 429 carries Retry-After: whole seconds to wait, or an HTTP date',
    ...ON_THE_RATE_LIMITED_KEY,
    async run(ctx) {
      const { refused } = await refusal(ctx)
      const value = refused.response.header('retry-after')
      const form = retryAfterForm(value)
      const problem = retryAfterProblem(value)
      if (problem) {
        ctx.fail(problem, {
          expected: 'Retry-After: a non-negative integer of seconds (§8), or an HTTP date (RFC 9110)',
          exchanges: [refused.response.exchange],
        })
      }
      ctx.observe('retryAfter.form', form)
      ctx.observe('retryAfter', value)
    },
  }),
  // The mistake: a Retry-After in milliseconds, or counted to the end of a longer window than the minute.
  defineCheck({
    id: 'rate-limits.429.retry-after-within-minute',
    clauses: ['§5.8', '§8'],
    level: 'SHOULD',
    area,
    title: 'The Retry-After of a 429 is at most 60 seconds: the limit is per minute',
    ...ON_THE_RATE_LIMITED_KEY,
    async run(ctx) {
      const { refused } = await refusal(ctx)
      const value = refused.response.header('retry-after')
      const ms = wellFormedRetryAfterMs(value, refused.sentAt + refused.response.exchange.durationMs, refused.response.header('date'))
      if (ms === undefined) return ctx.skip(`Retry-After is ${JSON.stringify(value ?? null)} (see rate-limits.429.retry-after)`)
      if (ms > MINUTE_S * 1000) {
        ctx.fail(`Retry-After asks for ${Math.ceil(ms / 1000)} s, more than the minute a per-minute limit needs (§5.8)`, {
          exchanges: [refused.response.exchange],
        })
      }
    },
  }),
  // The mistake: Remaining computed before the refusal, or rounded up from a fraction of a request.
  defineCheck({
    id: 'rate-limits.429.headers',
    clauses: ['§7.7', '§8'],
    level: 'MUST',
    area,
    title: 'A 429 carries RateLimit-Remaining: 0, RateLimit-Limit and RateLimit-Reset',
    ...ON_THE_RATE_LIMITED_KEY,
    async run(ctx) {
      const { refused } = await refusal(ctx)
      const res = refused.response
      const problem = tooManyRequestsHeadersProblem((h) => res.header(h))
      if (problem) ctx.fail(problem, { exchanges: [res.exchange] })
    },
  }),
  // The mistake: a 429 written by a proxy or middleware default (`Too Many Requests` as text).
  defineCheck({
    id: 'rate-limits.429.envelope',
    clauses: ['§7.7', '§7.1'],
    level: 'MUST',
    area,
    title: 'A 429 has the error envelope { error: { code, message } }',
    ...ON_THE_RATE_LIMITED_KEY,
    async run(ctx) {
      const { refused } = await refusal(ctx)
      if (refused.response.body?.error?.code !== undefined) ctx.observe('error.code', refused.response.body.error.code)
      expectErrorEnvelope(refused.response, '§7.7', { status: 429 })
    },
  }),
  // The mistake: a Retry-After shorter than the wait the limiter enforces (e.g. rounded down).
  defineCheck({
    id: 'rate-limits.retry-after.honoured',
    clauses: ['§8', '§7.7'],
    level: 'MUST',
    area,
    title: 'After waiting the Retry-After of a 429, the next call on that key is served',
    keys: ['rateLimited'],
    timeoutMs: RECOVERY_TIMEOUT_MS,
    async run(ctx) {
      const r = await recovery(ctx)
      if (r.unmet || !r.after) return ctx.skip(r.unmet ?? 'no call after the wait')
      ctx.observe('waitedMs', Math.round(r.waitedMs ?? 0))
      const first = r.probe.calls[0]!.response
      const res = r.after.response
      // The call is the probe's own (GET /me): served means what it was before the limit, a 2xx where it was one.
      const served = first.ok ? res.ok : res.status !== 429
      if (!served) {
        ctx.fail(`status is ${res.status} after waiting the ${r.probe.refused!.response.header('retry-after')} s Retry-After asked for (§8)`, {
          expected: 'a client that waits Retry-After seconds may call again (§8 "the client waits the number of seconds in Retry-After before calling again")',
          exchanges: [r.probe.refused!.response.exchange, res.exchange],
        })
      }
    },
  }),
]

/**
 * SHOULD, not MUST: the run paces the main key by its RateLimit-* headers, so a 429 on it means the headers
 * promised calls the server then refused, or that the harness misread them, or that other clients share the
 * key. Only the first is the server's fault, and the report cannot tell them apart; the evidence can.
 */
const pacingCheck = defineCheck({
  id: 'rate-limits.main-key.never-limited',
  clauses: ['§8', '§5.8'],
  level: 'SHOULD',
  area,
  title: 'A run that paces itself by the RateLimit-* headers never meets a 429 on the main key',
  phase: 'last',
  async run(ctx) {
    const stats = ctx.session.transport.stats
    const count = stats.rateLimited.main ?? 0
    ctx.observe('main.requests', stats.byKey.main ?? 0)
    ctx.observe('main.429s', count)
    if (count === 0) return
    const main = ctx.session.exchanges.filter((e) => e.keyRole === 'main' && e.response)
    const at = main.findIndex((e) => e.response!.status === 429)
    ctx.fail(`the main key met ${count} 429 responses in a run paced by its RateLimit-* headers (§8); first in ${main[at]?.checkId ?? 'the harness'}`, {
      expected: 'RateLimit-Remaining tells how many calls the key may still make (§8); a client that keeps to it is not refused',
      // The 429 and the response before it, whose Remaining promised more.
      exchanges: main.slice(Math.max(0, at - 1), at + 1),
    })
  },
})

export const checks: CheckDefinition[] = [...seriesChecks, ...probeChecks, pacingCheck, ...keyChecks]
