// The §8 rate headers read as a client must: leniently where the spec shows no format. One reading for the
// pacer that spends the quota and for the checks that judge the headers.

/**
 * The integer a RateLimit-Limit or RateLimit-Remaining value starts with: `600`, or `600, 600;w=60` as older
 * drafts of the RateLimit header fields write it. Undefined when the value is not a non-negative integer.
 */
export function headerInt(value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  const m = /^\s*(\d+)\s*(?:[,;].*)?$/.exec(value)
  return m ? Number(m[1]) : undefined
}

/** RateLimit-Reset as seconds from now or as a Unix time in seconds (both are seen in practice). */
export function parseResetHeader(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined
  const n = Number(value.trim())
  if (!Number.isFinite(n) || n < 0) return undefined
  return n > 1_000_000_000 ? n * 1000 : now + n * 1000
}

/**
 * Milliseconds a Retry-After asks to wait: seconds, or an HTTP date. A date is counted from the response's own
 * `Date` header when it has one, so a server clock apart from ours does not shorten or stretch the wait.
 */
export function parseRetryAfter(value: string | undefined, now: number, serverDate?: string): number | undefined {
  if (value === undefined) return undefined
  const n = Number(value.trim())
  if (Number.isFinite(n) && n >= 0) return n * 1000
  const date = Date.parse(value)
  if (Number.isNaN(date)) return undefined
  const serverNow = serverDate === undefined ? Number.NaN : Date.parse(serverDate)
  return Math.max(0, date - (Number.isNaN(serverNow) ? now : serverNow))
}
