// Responses and errors: the §7 error envelope with the variant's detail paths, the §8 RateLimit-* and
// Retry-After headers, and records as sent (with the record faults switched on).

import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { RESOURCE_LIST, parseFieldType, type ResourceSpec } from '../../spec/resources.ts'
import { ApiError } from '../api-error.ts'
import type { FaultId, SwitchesOf } from '../faults.ts'
import type { RateDecision } from '../rate-limit.ts'
import type { Json } from '../store.ts'
import type { AppState, Ctx } from './context.ts'

/** The faults this module plays (faults.ts): the only switches its code can read. */
export const RESPONSE_FAULTS = [
  'validation.no-details',
  'ratelimit.no-headers-on-errors',
  'rate-limits.remaining-stuck',
  'rate-limits.headers-swapped',
  'rate-limits.reset-iso-date',
  'rate-limits.429-without-retry-after',
  'rate-limits.retry-after-fixed-1s',
  'rate-limits.retry-after-milliseconds',
  'records.missing-updatedAt',
  'records.datetime-without-zone',
  'records.null-as-empty-string',
] as const satisfies readonly FaultId[]

export interface Responses {
  errorResponse(c: Ctx, err: ApiError): Response
  /** Sets RateLimit-* (and Retry-After on a refusal) from the limiter's decision. */
  rateHeaders(res: Response, d: RateDecision): void
  /** The record as sent: the stored one, or a copy carrying the record faults that are switched on. */
  present(spec: ResourceSpec, record: Json): Json
}

const dateTimeFields = new Map(
  RESOURCE_LIST.map((spec) => [
    spec,
    Object.entries(spec.record)
      .filter(([, t]) => parseFieldType(t).base === 'date-time')
      .map(([f]) => f),
  ]),
)
const nullableTextFields = new Map(
  RESOURCE_LIST.map((spec) => [
    spec,
    Object.entries(spec.record)
      .filter(([, t]) => parseFieldType(t).nullable && ['string', 'uuid'].includes(parseFieldType(t).base))
      .map(([f]) => f),
  ]),
)

export function responses(state: AppState): Responses {
  const { clock, variant } = state
  const faults: SwitchesOf<typeof RESPONSE_FAULTS> = state.faults
  let errorCount = 0
  const errorBody = (err: ApiError): Json => {
    const error: Json = { code: err.code, message: err.message }
    // The variant's own field beside those §7.1 lists.
    if (variant.extraFields) error.requestId = `req_${(errorCount++).toString(36)}`
    if (err.details && !(faults['validation.no-details'] && err.status === 400)) {
      error.details = err.details.map((d) => ({
        path: d.in === undefined || d.in === 'body' ? variant.detailPath(d.segments) : d.segments.join('.'),
        message: d.message,
      }))
    }
    return { error }
  }

  const errorResponse = (c: Ctx, err: ApiError): Response => c.json(errorBody(err), err.status as ContentfulStatusCode, err.headers)

  const rateHeaders = (res: Response, d: RateDecision): void => {
    if (faults['ratelimit.no-headers-on-errors'] && res.status >= 400 && res.status < 500) return
    const reset = variant.rateLimitReset === 'unix-time' ? Math.ceil(clock.now() / 1000) + d.resetSeconds : d.resetSeconds
    // Faults: Remaining never decremented; Limit and Remaining swapped; the reset as an ISO timestamp.
    const remaining = faults['rate-limits.remaining-stuck'] ? d.limit : d.remaining
    const [limitValue, remainingValue] = faults['rate-limits.headers-swapped'] ? [remaining, d.limit] : [d.limit, remaining]
    res.headers.set('RateLimit-Limit', variant.rateLimitLimit === 'with-window' ? `${limitValue}, ${limitValue};w=60` : String(limitValue))
    res.headers.set('RateLimit-Remaining', String(remainingValue))
    res.headers.set('RateLimit-Reset', faults['rate-limits.reset-iso-date'] ? new Date(clock.now() + d.resetSeconds * 1000).toISOString() : String(reset))
    // The fault: the 429 leaves clients to guess how long to wait.
    if (d.retryAfterSeconds !== undefined && !faults['rate-limits.429-without-retry-after'])
      res.headers.set('Retry-After', retryAfterValue(res, retryAfterOf(d.retryAfterSeconds)))
  }

  /** Seconds, or the HTTP date they end at (rounded up to the whole second a date can show), with a Date to count from. */
  const retryAfterValue = (res: Response, seconds: number): string => {
    if (variant.retryAfter === 'delta-seconds') return String(seconds)
    const now = clock.now()
    res.headers.set('Date', new Date(now).toUTCString())
    return new Date(Math.ceil((now + seconds * 1000) / 1000) * 1000).toUTCString()
  }

  /** Retry-After from the limiter's whole seconds (rounded up), or as a fault makes it. */
  const retryAfterOf = (seconds: number): number => {
    if (faults['rate-limits.retry-after-fixed-1s']) return 1
    if (faults['rate-limits.retry-after-milliseconds']) return seconds * 1000
    return seconds
  }

  const recordFaults = faults['records.missing-updatedAt'] || faults['records.datetime-without-zone'] || faults['records.null-as-empty-string']

  /** The record in the variant's own form: its date-times written its way, and a field of its own. */
  const framed = (spec: ResourceSpec, record: Json): Json => {
    if (!variant.dateTime && !variant.extraFields) return record
    const out: Json = variant.extraFields ? { object: spec.name, ...record } : { ...record }
    if (variant.dateTime) for (const f of dateTimeFields.get(spec) ?? []) if (typeof out[f] === 'string') out[f] = variant.dateTime(String(out[f]))
    return out
  }

  const present = (spec: ResourceSpec, stored: Json): Json => {
    const record = framed(spec, stored)
    if (!recordFaults) return record
    const out = { ...record }
    if (faults['records.missing-updatedAt']) delete out.updatedAt
    if (faults['records.datetime-without-zone']) {
      for (const f of dateTimeFields.get(spec) ?? []) if (typeof out[f] === 'string') out[f] = String(out[f]).replace(/(Z|[+-]\d{2}:\d{2})$/, '')
    }
    // The fault: a nullable string or uuid that is null is sent as "" (a zero value serialised as is).
    if (faults['records.null-as-empty-string']) for (const f of nullableTextFields.get(spec) ?? []) if (out[f] === null) out[f] = ''
    return out
  }

  return { errorResponse, rateHeaders, present }
}

export function rateLimited(headers?: Record<string, string>): ApiError {
  return new ApiError(429, 'rate_limited', "This key's per-minute request limit is reached; retry after Retry-After seconds.", undefined, headers)
}
