// The calls the rate-limit checks judge, each made once per run and shared (session memo): a few quick calls
// on the main key, and the probe that drives the rate-limited key into its 429 and back out.
// The factories return what they saw and never end a check, so that a verdict is never cached for another.
import { ME_PATH, headerInt, retryAfterForm, wellFormedRetryAfterMs } from '../../src/checks/index.ts'
import type { CheckContext, CheckDefinition, ApiClient, ApiResponse } from '../../src/checks/index.ts'

/** Consecutive calls on the main key: enough to see RateLimit-Remaining move, few enough to be cheap. */
export const MAIN_SERIES_LENGTH = 3
/** The probe needs a key whose limit is low: above this many calls a minute it is skipped (rule: frugal). */
export const MAX_PROBED_LIMIT = 100
/** Calls past the limit before the probe gives up on a 429 (a refill or two may land during the probe). */
export const PROBE_SLACK = 5

/** The time limit of a check that waits on the probe or the isolation measure: they spend at most a minute. */
export const PROBE_TIMEOUT_MS = 60_000

/**
 * What a check judging the rate-limited key's calls declares, for one reason: it reads what the probe or the
 * isolation measure saw on CRM_API_KEY_RATE_LIMITED, so it needs that key and a time limit covering them.
 */
export const ON_THE_RATE_LIMITED_KEY: Pick<CheckDefinition, 'keys' | 'timeoutMs'> = { keys: ['rateLimited'], timeoutMs: PROBE_TIMEOUT_MS }

export interface Call {
  response: ApiResponse
  /** Epoch ms when the call was sent. */
  sentAt: number
}

async function timed(client: ApiClient, unpaced = false): Promise<Call> {
  // GET /me: the one call every key can make (§4.2 "check a key").
  const response = await client.get(ME_PATH, undefined, unpaced ? { retryOn429: false, paced: false } : {})
  // When it left, after any wait in the pacer: the gaps between calls are what a refilling limit sees.
  return { response, sentAt: Date.parse(response.exchange.startedAt) }
}

export function mainSeries(ctx: CheckContext): Promise<Call[]> {
  return ctx.session.memo('rate-limits.main-series', async () => {
    const calls: Call[] = []
    for (let i = 0; i < MAIN_SERIES_LENGTH; i++) calls.push(await timed(ctx.api))
    return calls
  })
}

export interface Probe {
  calls: Call[]
  /** The limit the first response announced. */
  limit?: number
  /** The first 429. */
  refused?: Call
  /** Why the probe was not run or not finished (a skip reason). */
  unmet?: string
}

/** A per-minute limit is counted over a minute: a probe that takes longer proves nothing by meeting no 429. */
const MINUTE_MS = 60_000

/**
 * Sends on CRM_API_KEY_RATE_LIMITED, unpaced and without retries, until the first 429: at most the announced
 * limit plus PROBE_SLACK calls, plus what the limit may have given back meanwhile: the share of a minute's
 * quota the elapsed time refills (a bucket), or once more the limit if RateLimit-Remaining went up on the way
 * (a fixed window that reset during the probe), whichever is more.
 */
export function probe(ctx: CheckContext): Promise<Probe> {
  const client = ctx.as('rateLimited')
  return ctx.session.memo('rate-limits.probe', async (): Promise<Probe> => {
    // The keys' isolation is measured while the rate-limited key still has an allowance to spend.
    await isolation(ctx)
    const first = await timed(client, true)
    const calls = [first]
    if (first.response.status === 429) return { calls, refused: first, limit: headerInt(first.response.header('ratelimit-limit')) }
    const limit = headerInt(first.response.header('ratelimit-limit'))
    if (!limit)
      return {
        calls,
        unmet: `the first response of CRM_API_KEY_RATE_LIMITED has no usable RateLimit-Limit (${JSON.stringify(first.response.header('ratelimit-limit') ?? null)})`,
      }
    // A key that announces more than the probe may spend is still sent MAX_PROBED_LIMIT calls: a 429 among them
    // shows headers that do not count the key's own limit (rate-limits.limit.own); none leaves the probe unmet.
    const high = limit > MAX_PROBED_LIMIT
    let windowReset = false
    const bound = () => {
      if (high) return MAX_PROBED_LIMIT + PROBE_SLACK
      const refilled = Math.ceil(((Date.now() - first.sentAt) * limit) / MINUTE_MS)
      return limit + PROBE_SLACK + Math.max(windowReset ? limit + PROBE_SLACK : 0, refilled)
    }
    let previous = headerInt(first.response.header('ratelimit-remaining'))
    while (calls.length < bound()) {
      const call = await timed(client, true)
      calls.push(call)
      if (call.response.status === 429) return { calls, limit, refused: call }
      const remaining = headerInt(call.response.header('ratelimit-remaining'))
      if (remaining !== undefined && previous !== undefined && remaining > previous) windowReset = true
      previous = remaining
    }
    if (high) return { calls, limit, unmet: `CRM_API_KEY_RATE_LIMITED allows ${limit} calls a minute; the probe needs a key with at most ${MAX_PROBED_LIMIT}` }
    const tookMs = Date.now() - first.sentAt
    if (tookMs > MINUTE_MS)
      return { calls, limit, unmet: `the probe's ${calls.length} calls took ${Math.round(tookMs / 1000)} s, more than the minute the limit is counted over` }
    return { calls, limit }
  })
}

/**
 * The probe's 429, for a check that judges it, or a skip naming why there is none to judge
 * (`rate-limits.429.reached` fails for it). Not a factory: it ends the check that asks, never caches a verdict.
 */
export async function refusal(ctx: CheckContext): Promise<{ p: Probe; refused: Call }> {
  const p = await probe(ctx)
  if (p.unmet) ctx.skip(p.unmet)
  if (!p.refused) ctx.skip('the probe met no 429 (see rate-limits.429.reached)')
  return { p, refused: p.refused }
}

export interface Recovery {
  probe: Probe
  waitedMs?: number
  after?: Call
  unmet?: string
}

// Waits count from the 429's arrival, after the server computed them, so seconds need only a timer's margin; an
// HTTP date has whole-second precision and may round the wait down by up to one.
const MARGIN_MS = { 'delta-seconds': 100, 'http-date': 1000 } as const

/** After the probe's 429: waits what Retry-After asks (bounded by maxRetryAfterS) and calls once more. */
export function recovery(ctx: CheckContext): Promise<Recovery> {
  const client = ctx.as('rateLimited')
  return ctx.session.memo('rate-limits.recovery', async (): Promise<Recovery> => {
    const p = await probe(ctx)
    if (!p.refused) return { probe: p, unmet: p.unmet ?? 'the probe met no 429' }
    const refused = p.refused
    const header = refused.response.header('retry-after')
    const form = retryAfterForm(header)
    const receivedAt = refused.sentAt + refused.response.exchange.durationMs
    const waitMs = wellFormedRetryAfterMs(header, receivedAt, refused.response.header('date'))
    if (form === undefined || waitMs === undefined) return { probe: p, unmet: `the 429 has no usable Retry-After (${JSON.stringify(header ?? null)})` }
    if (waitMs > ctx.config.maxRetryAfterS * 1000) {
      return { probe: p, unmet: `Retry-After asks for ${Math.ceil(waitMs / 1000)} s, longer than the ${ctx.config.maxRetryAfterS} s a run waits` }
    }
    // Counted from the 429's arrival: a check that comes to this later waits only what is left.
    const waitedMs = Math.max(0, receivedAt + waitMs + MARGIN_MS[form] - Date.now())
    await new Promise((resolve) => setTimeout(resolve, waitedMs))
    return { probe: p, waitedMs, after: await timed(client, true) }
  })
}

/** Main-key calls between two looks at the rate-limited key's allowance. */
export const ISOLATION_SPEND = 4
/**
 * Rate-limited calls between two looks at the main key's: more than the main key's requests in flight (the
 * slack of that judgement), at most half of what the key has left, so that the probe still finds an allowance.
 */
export const MAX_LIMITED_SPEND = 10

export interface Isolation {
  /** The rate-limited key before and after the main key spent ISOLATION_SPEND calls (§5.8: not from its allowance). */
  limitedBefore: Call
  mainSpent: Call[]
  limitedAfter: Call
  /** The main key before and after the rate-limited key spent up to MAX_LIMITED_SPEND calls (limitedAfter among them). */
  mainBefore: Call
  limitedSpent: Call[]
  mainAfter: Call
  /** The main key's requests still unanswered once mainAfter was: the run's other checks', not yet recorded. */
  mainInFlight: number
}

/**
 * §5.8 "each key has its own per-minute request limit": one key's calls must not spend another's allowance. The
 * rate-limited key is used by no other area, so between two of its calls only the main key's spending can lower
 * its RateLimit-Remaining; the main key's other calls meanwhile are counted from the run's own exchanges.
 */
export function isolation(ctx: CheckContext): Promise<Isolation> {
  const limited = ctx.as('rateLimited')
  return ctx.session.memo('rate-limits.isolation', async (): Promise<Isolation> => {
    const limitedBefore = await timed(limited, true)
    const mainSpent: Call[] = []
    for (let i = 0; i < ISOLATION_SPEND; i++) mainSpent.push(await timed(ctx.api))
    const limitedSpent: Call[] = []
    const left = headerInt(limitedBefore.response.header('ratelimit-remaining')) ?? 0
    const spend = Math.max(1, Math.min(MAX_LIMITED_SPEND, Math.floor(left / 2)))
    for (let i = 0; i < spend; i++) limitedSpent.push(await timed(limited, true))
    const mainAfter = await timed(ctx.api)
    const mainInFlight = ctx.session.transport.inFlightFor('main')
    return { limitedBefore, mainSpent, limitedAfter: limitedSpent[0]!, mainBefore: mainSpent.at(-1)!, limitedSpent, mainAfter, mainInFlight }
  })
}
