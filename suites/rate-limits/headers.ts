// Reading the §8 rate headers as a client must: leniently where the spec shows no format.

import { parseRetryAfter } from '../../src/http/rate-headers.ts'

export { headerInt } from '../../src/http/rate-headers.ts'

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

/** Milliseconds a Retry-After asks to wait (a date from the response's `Date`); undefined when it is neither form. */
export function retryAfterMs(value: string | undefined, now: number, serverDate?: string): number | undefined {
  return retryAfterForm(value) === undefined ? undefined : parseRetryAfter(value, now, serverDate)
}
