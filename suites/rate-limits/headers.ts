// Reading the §8 rate headers as a client must: leniently where the spec shows no format.

/**
 * The integer a RateLimit-Limit or RateLimit-Remaining value starts with: `600`, or `600, 600;w=60` as older
 * drafts of the RateLimit header fields write it. Undefined when the value is not a non-negative integer.
 */
export function headerInt(value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  const m = /^\s*(\d+)\s*(?:[,;].*)?$/.exec(value)
  return m ? Number(m[1]) : undefined
}

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

/** Milliseconds a Retry-After asks to wait, from `now`; undefined when it is neither form. */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  const form = retryAfterForm(value)
  if (form === 'delta-seconds') return Number(value) * 1000
  if (form === 'http-date') return Math.max(0, Date.parse(value!) - now)
  return undefined
}
