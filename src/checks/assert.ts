// Assertions that end a check as failed with a short factual message, the clause, and the evidence.
// Messages read like `status is 500, expected 404 (§5.7)`.
import type { ApiResponse } from '../http/api-client.ts'
import { validate, type SchemaKey } from '../schemas/registry.ts'
import { CheckFailed } from './define.ts'

export function fail(message: string, response?: ApiResponse, expected?: string, data?: unknown): never {
  throw new CheckFailed(message, { expected, exchanges: response ? [response.exchange] : undefined, data })
}

export function expectStatus(response: ApiResponse, allowed: number | number[], clause: string, why?: string): void {
  const list = Array.isArray(allowed) ? allowed : [allowed]
  if (!list.includes(response.status)) {
    fail(`status is ${response.status}, expected ${list.join(' or ')} (${clause})`, response, why, bodyPreview(response))
  }
}

/** 200 with a JSON object: a record read back (§4.2 "get … returns the single record"). */
export function expectRecord(response: ApiResponse, clause: string, why?: string): void {
  expectStatus(response, 200, clause, why)
  const body = response.body
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    fail(`status 200 without a JSON record: ${body === undefined ? 'the body is not JSON' : `the body is ${Array.isArray(body) ? 'an array' : typeof body}`} (${clause})`, response, why ?? 'the record as §2 lists it', bodyPreview(response))
  }
}

/** 2xx of any kind: the spec does not show success codes (§4.1). */
export function expectSuccess(response: ApiResponse, clause: string, what: string): void {
  if (!response.ok) fail(`${what}: status is ${response.status}, expected a 2xx (${clause})`, response, undefined, bodyPreview(response))
}

export function expectSchema(response: ApiResponse, key: SchemaKey, clause: string, value: unknown = response.body): void {
  const issues = validate(key, value)
  if (issues.length > 0) {
    const first = issues.slice(0, 5).map((i) => `${i.path || '(root)'} ${i.message}`).join('; ')
    fail(`body does not match ${key} (${clause}): ${first}${issues.length > 5 ? `; and ${issues.length - 5} more` : ''}`, response, `a ${key} as §2 lists it`, issues)
  }
}

/** §7.1: `{ error: { code, message, details? } }`; optionally a given status and code. */
export function expectErrorEnvelope(response: ApiResponse, clause: string, options: { status?: number | number[]; code?: string } = {}): void {
  if (options.status !== undefined) expectStatus(response, options.status, clause)
  const issues = validate('error', response.body)
  if (issues.length > 0) {
    fail(`error body is not the §7.1 envelope: ${issues.map((i) => `${i.path || '(root)'} ${i.message}`).join('; ')}`, response, '{ error: { code, message, details? } } (§7.1)')
  }
  if (options.code !== undefined && response.body.error.code !== options.code) {
    fail(`error code is ${JSON.stringify(response.body.error.code)}, expected ${JSON.stringify(options.code)} (${clause})`, response)
  }
}

/**
 * §7.2–§7.3: a 400 `invalid_request` whose details name the field. Any path notation that names it is
 * accepted (`email`, `/email`, `body.email`, `$.email`, `items[0].name`, `items/0/name`).
 */
export function expectInvalidRequest(response: ApiResponse, field: string | undefined, clause = '§7.3'): void {
  expectErrorEnvelope(response, clause, { status: 400, code: 'invalid_request' })
  if (field === undefined) return
  const details: { path: string }[] = response.body.error.details ?? []
  if (!Array.isArray(details) || details.length === 0) fail(`400 without details, expected one naming ${field} (§7.2)`, response)
  if (!details.some((d) => pathNames(d.path, field))) {
    fail(`details do not name ${field}: paths are ${JSON.stringify(details.map((d) => d.path))} (§7.2)`, response, `a details entry whose path names ${field}`)
  }
}

/** True when a details path names the field, in any common notation. */
export function pathNames(path: unknown, field: string): boolean {
  if (typeof path !== 'string') return false
  const normalise = (p: string) =>
    p
      .replace(/\[(\d+)\]/g, '.$1')
      .replace(/\[["']?([^\]"']+)["']?\]/g, '.$1')
      .replace(/\//g, '.')
      .replace(/^\$\.?/, '')
      .replace(/^\.+/, '')
      .replace(/^(body|request\.body|data)\./, '')
  return normalise(path) === normalise(field)
}

function bodyPreview(response: ApiResponse): unknown {
  const body = response.body ?? response.exchange.response?.rawText
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  return text && text.length > 2000 ? `${text.slice(0, 2000)}…` : body
}
