// §5.8 "Each key has its own per-minute request limit", §8: judged across keys. The headers of a key count that
// key's own limit (not a server default), and one key's calls do not spend another key's allowance.
import { defineCheck, headerInt } from '../../src/checks/index.ts'
import type { CheckContext, CheckDefinition, Exchange } from '../../src/checks/index.ts'
import { ISOLATION_SPEND, ON_THE_RATE_LIMITED_KEY, PROBE_SLACK, isolation, refusal, type Call } from './series.ts'

const area = 'rate-limits'

const remainingOf = (c: Call): number | undefined => headerInt(c.response.header('ratelimit-remaining'))

/** The run's other main-key exchanges that may have reached the server between `from` and `to` (both excluded). */
function mainCallsBetween(ctx: CheckContext, from: Call, to: Call): number {
  const start = from.sentAt
  const end = to.sentAt + to.response.exchange.durationMs + 1
  const own = new Set<Exchange>([from.response.exchange, to.response.exchange])
  return ctx.session.exchanges.filter((e) => {
    if (e.keyRole !== 'main' || own.has(e)) return false
    const sent = Date.parse(e.startedAt)
    return sent <= end && (e.response === undefined || sent + e.durationMs + 1 >= start)
  }).length
}

export const checks: CheckDefinition[] = [
  // The mistake: the limiter keyed by workspace (or tenant), so every key of a workspace spends one allowance.
  defineCheck({
    id: 'rate-limits.keys.separate-allowance',
    clauses: ['§5.8', '§8'],
    level: 'MUST',
    area,
    title:
      "One key's calls do not spend another key's allowance: the main key's calls leave the rate-limited key's RateLimit-Remaining alone, and the other way round",
    ...ON_THE_RATE_LIMITED_KEY,
    async run(ctx) {
      const iso = await isolation(ctx)
      const a1 = remainingOf(iso.limitedBefore)
      const a2 = remainingOf(iso.limitedAfter)
      const m1 = remainingOf(iso.mainBefore)
      const m2 = remainingOf(iso.mainAfter)
      if ([a1, a2, m1, m2].some((v) => v === undefined)) ctx.skip('a response has no usable RateLimit-Remaining (see invariants.ratelimit-headers)')
      ctx.observe('rateLimitedRemaining', [a1, a2])
      ctx.observe('mainRemaining', [m1, m2])
      const expected =
        "§5.8: each key has its own per-minute limit; a call spends its own key's allowance (RateLimit-Remaining only ever drops by the key's own calls, and refills)"
      // Across the main key's calls, the rate-limited key made one call of its own (the second look): Remaining
      // may drop by that one. Its 429 before any spend of its own says nothing (a run a minute ago may have spent it).
      const spentBefore = iso.limitedBefore.response.status === 429 || a1! <= 0
      if (!spentBefore && (iso.limitedAfter.response.status === 429 || a2! < a1! - 1)) {
        ctx.fail(
          `CRM_API_KEY_RATE_LIMITED's RateLimit-Remaining went from ${a1} to ${iso.limitedAfter.response.status === 429 ? 'a 429' : a2} while it made one call and CRM_API_KEY made ${ISOLATION_SPEND} (§5.8)`,
          { expected, exchanges: [iso.limitedBefore, ...iso.mainSpent, iso.limitedAfter].map((c) => c.response.exchange) },
        )
      }
      // Across the rate-limited key's calls, the main key made one call of its own, and the run's other checks
      // theirs: those answered, and those still in flight when mainAfter was answered (an exchange is recorded
      // once answered), counted, not assumed to be the per-key cap, so a large CRM_CONCURRENCY cannot hide a spend.
      const others = mainCallsBetween(ctx, iso.mainBefore, iso.mainAfter)
      ctx.observe('mainCallsMeanwhile', others)
      ctx.observe('mainInFlight', iso.mainInFlight)
      if (m2! < m1! - 1 - others - iso.mainInFlight) {
        ctx.fail(
          `CRM_API_KEY's RateLimit-Remaining went from ${m1} to ${m2} while it made ${1 + others} call(s) (and ${iso.mainInFlight} more were still in flight) and CRM_API_KEY_RATE_LIMITED made ${iso.limitedSpent.length} (§5.8)`,
          { expected, exchanges: [iso.mainBefore, ...iso.limitedSpent, iso.mainAfter].map((c) => c.response.exchange) },
        )
      }
      // The other direction was judged; this one saw no allowance the main key's calls could have spent.
      if (spentBefore)
        ctx.skip(
          `CRM_API_KEY_RATE_LIMITED had no allowance left before its first call (${iso.limitedBefore.response.status === 429 ? '429' : `RateLimit-Remaining ${a1}`}): whether CRM_API_KEY's calls spend it was not seen`,
        )
    },
  }),
  // The mistake: the headers written from the server's default limit while the key's own, lower, limit is
  // enforced, so a client pacing by them is refused while they still promise calls.
  defineCheck({
    id: 'rate-limits.limit.own',
    clauses: ['§5.8', '§8', '§7.7'],
    level: 'MUST',
    area,
    title: "The rate-limited key's headers count its own limit: it is refused only once its RateLimit-Remaining has reached 0, not while they promise calls",
    ...ON_THE_RATE_LIMITED_KEY,
    async run(ctx) {
      const { p, refused } = await refusal(ctx)
      const at = p.calls.indexOf(refused)
      if (at < 1) ctx.skip("the probe's first call was refused: the key's allowance was spent before it, so no Remaining can be compared")
      const before = p.calls[at - 1]!
      const remaining = remainingOf(before)
      if (remaining === undefined) return ctx.skip('the response before the 429 has no usable RateLimit-Remaining (see invariants.ratelimit-headers)')
      ctx.observe('limit', p.limit)
      ctx.observe('remainingBefore429', remaining)
      ctx.observe('callsBefore429', at)
      // A few calls of slack: a limiter spread over several nodes may count a little ahead of one node's headers.
      if (remaining > PROBE_SLACK) {
        ctx.fail(
          `CRM_API_KEY_RATE_LIMITED was refused with 429 after ${at} calls, right after a response that announced RateLimit-Limit ${p.limit} and RateLimit-Remaining ${remaining} (§5.8, §8)`,
          {
            expected:
              "RateLimit-Limit is the key's own per-minute limit (§5.8) and RateLimit-Remaining what is left of it: a key is refused when it reaches 0 (§7.7)",
            exchanges: [before.response.exchange, refused.response.exchange],
          },
        )
      }
    },
  }),
]
