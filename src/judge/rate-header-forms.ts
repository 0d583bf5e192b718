// The §8 rate headers judged for their form (which RateLimit-Reset and Retry-After forms a server sends), on top of
// the lenient reading the client spends its quota by (src/http/rate-headers.ts).

import { headerInt, parseRetryAfter } from '../http/rate-headers.ts'

export { headerInt } from '../http/rate-headers.ts'

export type ResetForm = 'delta-seconds' | 'unix-time'

/** RateLimit-Reset as a non-negative number: seconds from now, or (past 10^9) a Unix time. Undefined otherwise. */
export function resetForm(value: string | undefined): ResetForm | undefined {
  if (value === undefined || !/^\s*\d+(\.\d+)?\s*$/.test(value)) return undefined
  return Number(value) > 1_000_000_000 ? 'unix-time' : 'delta-seconds'
}

export type RetryAfterForm = 'delta-seconds' | 'http-date'

/** Retry-After (RFC 9110 §10.2.3): a non-negative integer of seconds, or an HTTP date. */
export function retryAfterForm(value: string | undefined): RetryAfterForm | undefined {
  if (value === undefined) return undefined
  if (/^\s*\d+\s*$/.test(value)) return 'delta-seconds'
  // An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) or the obsolete forms Date.parse also reads.
  return /GMT\s*$/.test(value) && !Number.isNaN(Date.parse(value)) ? 'http-date' : undefined
}

/**
 * Milliseconds a Retry-After asks to wait (a date from the response's `Date`); undefined when it is neither form
 * of RFC 9110. The client's own wait (src/http/rate-limit-policy.ts `retryAfterMs`) reads any number leniently.
 */
export function wellFormedRetryAfterMs(value: string | undefined, now: number, serverDate?: string): number | undefined {
  return retryAfterForm(value) === undefined ? undefined : parseRetryAfter(value, now, serverDate)
}

/** Why a 429's Retry-After is not a wait a client can read (§8, RFC 9110), or undefined when it is. */
export function retryAfterProblem(value: string | undefined): string | undefined {
  return retryAfterForm(value) ? undefined : `Retry-After is ${JSON.stringify(value ?? null)} on the 429, expected seconds to wait (§8)`
}

/** §7.7: why a 429's rate headers are not `RateLimit-Limit`, `RateLimit-Remaining: 0` and `RateLimit-Reset`, or undefined. */
export function tooManyRequestsHeadersProblem(header: (name: string) => string | undefined): string | undefined {
  const missing = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'].filter((h) => header(h) === undefined)
  if (missing.length > 0) return `the 429 lacks ${missing.join(', ')} (§7.7)`
  if (headerInt(header('ratelimit-remaining')) !== 0)
    return `RateLimit-Remaining is ${JSON.stringify(header('ratelimit-remaining'))} on the 429, expected 0 (§7.7)`
  if (!headerInt(header('ratelimit-limit')))
    return `RateLimit-Limit is ${JSON.stringify(header('ratelimit-limit'))} on the 429, expected a positive integer (§7.7)`
  return undefined
}
