// Assertions that end a check as failed with a short factual message, the clause, and the evidence.
// Messages read like `status is 500, expected 404 (§5.7)`.
import type { ApiResponse } from '../http/api-client.ts'
import { detailsVerdict, errorCode, errorEnvelopeProblem } from '../judge/errors.ts'
import { schemaProblem } from '../judge/schema.ts'
import type { SchemaKey } from '../schemas/registry.ts'
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
    fail(
      `status 200 without a JSON record: ${body === undefined ? 'the body is not JSON' : `the body is ${Array.isArray(body) ? 'an array' : typeof body}`} (${clause})`,
      response,
      why ?? 'the record as §2 lists it',
      bodyPreview(response),
    )
  }
}

/** 2xx of any kind: the spec does not show success codes (§4.1). */
export function expectSuccess(response: ApiResponse, clause: string, what: string): void {
  if (!response.ok) fail(`${what}: status is ${response.status}, expected a 2xx (${clause})`, response, undefined, bodyPreview(response))
}

export function expectSchema(response: ApiResponse, key: SchemaKey, clause: string, value: unknown = response.body): void {
  const problem = schemaProblem(key, value)
  if (problem) fail(`body does not match ${key} (${clause}): ${problem.summary}`, response, `a ${key} as §2 lists it`, problem.issues)
}

/**
 * §2, §4.1: a list page, whichever page of a walk it is, is `{ data: [...], nextCursor: string }`; only the last
 * page's value is not shown, never its presence or type. `what` names the page in the message (`page 3 of 3 of …`).
 */
export function expectListEnvelope(response: ApiResponse, what: string): void {
  const problem = schemaProblem('list-envelope', response.body)
  if (problem)
    fail(
      `${what} is no list envelope (§2, §4.1): ${problem.summary}`,
      response,
      '{ data: record[], nextCursor: string } on every page, the last one too: only the value there is not shown (§4.1)',
      problem.issues,
    )
}

/** §7.1: `{ error: { code, message, details? } }`; optionally a given status and code. */
export function expectErrorEnvelope(response: ApiResponse, clause: string, options: { status?: number | number[]; code?: string } = {}): void {
  if (options.status !== undefined) expectStatus(response, options.status, clause)
  const problem = errorEnvelopeProblem(response.body)
  if (problem) fail(problem, response, '{ error: { code, message, details? } } (§7.1)')
  if (options.code !== undefined && errorCode(response.body) !== options.code) {
    fail(`error code is ${JSON.stringify(errorCode(response.body))}, expected ${JSON.stringify(options.code)} (${clause})`, response)
  }
}

/**
 * §7.2–§7.3: a 400 `invalid_request` whose details name the field. Any path notation that names it is
 * accepted (`email`, `/email`, `body.email`, `$.email`, `items[0].name`, `items/0/name`).
 */
export function expectInvalidRequest(response: ApiResponse, field: string | undefined, clause = '§7.3'): void {
  expectErrorEnvelope(response, clause, { status: 400, code: 'invalid_request' })
  if (field === undefined) return
  const verdict = detailsVerdict(response.body, field)
  if (verdict?.problem === 'no-details') fail(`400 without details, expected one naming ${field} (§7.2)`, response)
  if (verdict?.problem === 'unnamed') {
    fail(`details do not name ${field}: paths are ${JSON.stringify(verdict.paths)} (§7.2)`, response, `a details entry whose path names ${field}`)
  }
}

export { pathNames } from '../judge/errors.ts'

function bodyPreview(response: ApiResponse): unknown {
  const body = response.body ?? response.exchange.response?.rawText
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  return text && text.length > 2000 ? `${text.slice(0, 2000)}…` : body
}
