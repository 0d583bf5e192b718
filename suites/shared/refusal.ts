// What counts as a state refusal (§3 rules 1–2): the status and code are not shown (§7.8), so any 4xx will do
// except those §5 and §7 give another meaning (401 key, 429 rate limit). A 403 counts: the probes use the main
// key, which has just written the same kind of record, so it is the application forbidding this write (§1.1),
// not a scope. Callers probing with a key that may lack the scope rule 403 out themselves.
import { pathNames } from '../../src/checks/index.ts'
import type { ApiResponse } from '../../src/checks/index.ts'

const OTHER_MEANING = new Set([401, 429])

export function isStateRefusal(status: number): boolean {
  return status >= 400 && status < 500 && !OTHER_MEANING.has(status)
}

export const REFUSAL_EXPECTED = 'a 4xx refusal other than 401 and 429 (§3; status not shown, §7.8)'

/** How the server refused, for the report: status and error code. */
export function refusalOf(response: ApiResponse): { status: number; code: unknown } {
  return { status: response.status, code: response.body?.error?.code }
}

/** The top-level field a details path starts with, in any common notation (`items[0].x`, `/items/0`, `body.items`). */
function firstSegment(path: string): string {
  const bare = path
    .replace(/^\$\.?/, '')
    .replace(/^\/+/, '')
    .replace(/^(body|request\.body|data)[./]/, '')
  return bare.split(/[./[]/)[0] ?? ''
}

/**
 * A 400 whose details name a field we sent is a verdict on the body, not on the record's state: the probe
 * cannot tell a state refusal from a validation error, so the check must not pass on it.
 */
export function namesSentField(response: ApiResponse, sent: Record<string, unknown>): string | undefined {
  if (response.status !== 400) return undefined
  const details: unknown = response.body?.error?.details
  if (!Array.isArray(details)) return undefined
  const paths = details.map((d) => d?.path).filter((p): p is string => typeof p === 'string')
  return Object.keys(sent).find((field) => paths.some((p) => pathNames(p, field) || firstSegment(p) === field))
}
