// What the client does when it meets a 429 anyway (§8): the pacer (pacer.ts) exists so that a run never does.
// The numbers are named in DEFAULTS (src/config/config.ts): max429Retries, retryAfterMissingMs.
import { DEFAULTS } from '../config/config.ts'
import { parseRetryAfter } from './rate-headers.ts'

/** The wait a response's Retry-After asks for, in ms (seconds or an HTTP date); undefined when it has none readable. */
export function retryAfterMs(headers: Record<string, string>, now: number): number | undefined {
  return parseRetryAfter(headers['retry-after'], now, headers.date)
}

/**
 * After the 429 of attempt `attempt` (0 for the first sending), how long to wait before sending the request
 * again; undefined when it is not sent again (its retries are spent, or Retry-After asks for longer than the
 * run waits, `maxWaitS`), the 429 being then its answer.
 */
export function waitBefore429Retry(headers: Record<string, string>, attempt: number, maxWaitS: number, now: number): number | undefined {
  if (attempt >= DEFAULTS.max429Retries) return undefined
  const waitMs = retryAfterMs(headers, now) ?? DEFAULTS.retryAfterMissingMs
  return waitMs > maxWaitS * 1000 ? undefined : waitMs
}
