// The §7 error answers judged without a check around them: the envelope, the code, and details naming a field.
// The checks' assertions (src/checks/assert.ts) and the traffic rules both turn these verdicts into outcomes.
import { validate, type SchemaIssue } from '../schemas/registry.ts'

/** Why a body is not the §7.1 envelope `{ error: { code, message, details? } }`, or undefined when it is. */
export function errorEnvelopeProblem(body: unknown): string | undefined {
  const issues: SchemaIssue[] = validate('error', body)
  if (issues.length === 0) return undefined
  return `error body is not the §7.1 envelope: ${issues.map((i) => `${i.path || '(root)'} ${i.message}`).join('; ')}`
}

/** The `error.code` of a body already known to be the envelope. */
export function errorCode(body: unknown): unknown {
  return (body as { error: { code: unknown } }).error.code
}

export type DetailsVerdict = { problem: 'no-details' } | { problem: 'unnamed'; paths: unknown[] }

/**
 * §7.2: details (present for invalid input) list each field to fix with `path` naming it. Undefined when an
 * entry names `field` in any common notation (see pathNames).
 */
export function detailsVerdict(body: unknown, field: string): DetailsVerdict | undefined {
  const details = (body as { error?: { details?: unknown } })?.error?.details
  if (!Array.isArray(details) || details.length === 0) return { problem: 'no-details' }
  if (details.some((d: { path?: unknown }) => pathNames(d?.path, field))) return undefined
  return { problem: 'unnamed', paths: details.map((d: { path?: unknown }) => d?.path) }
}

/** True when a details path names the field, in any common notation (`email`, `/email`, `body.email`, `$.email`, `items[0].name`, `items/0/name`). */
export function pathNames(path: unknown, field: string): boolean {
  if (typeof path !== 'string') return false
  return normalisePath(path) === normalisePath(field)
}

function normalisePath(p: string): string {
  return p
    .replace(/\[(\d+)\]/g, '.$1')
    .replace(/\[["']?([^\]"']+)["']?\]/g, '.$1')
    .replace(/\//g, '.')
    .replace(/^\$\.?/, '')
    .replace(/^\.+/, '')
    .replace(/^(body|request\.body|data)\./, '')
}

/**
 * Why an answer to invalid input is not the §7.3 refusal naming `field` (undefined: it is). `field` undefined:
 * a defect of the body as a whole, only the 400 `invalid_request` is asked. `anyCode`: a body that is no JSON
 * object at all, whose parse error may carry another code (§7.8; suites/validation/not-an-object.ts).
 */
export function refusalProblem(status: number, body: unknown, field: string | undefined, options: { anyCode?: boolean } = {}): string | undefined {
  if (status >= 200 && status < 300) return `accepted with ${status}`
  if (status !== 400) return `status is ${status}, expected 400`
  if (validate('error', body).length > 0) return 'the 400 is not the §7.1 error envelope'
  const code = errorCode(body)
  if (code !== 'invalid_request' && !options.anyCode) return `error code is ${JSON.stringify(code)}, expected "invalid_request"`
  if (field === undefined) return undefined
  const verdict = detailsVerdict(body, field)
  if (verdict?.problem === 'no-details') return `no details naming ${field}`
  if (verdict?.problem === 'unnamed') return `details do not name ${field} (paths ${JSON.stringify(verdict.paths)})`
  return undefined
}
