// Rules on each response by itself (server side): the schemas of §2, §4.1 and /me, the §7 error answers, the
// §8 rate headers, JSON bodies, and §2's write-only fields.
import { showsScopes } from '../../judge/me.ts'
import { bodyDefects } from '../../judge/bodies.ts'
import { errorEnvelopeProblem, refusalProblem } from '../../judge/errors.ts'
import { resetForm, wellFormedRetryAfterMs, tooManyRequestsHeadersProblem, retryAfterProblem } from '../../judge/rate-header-forms.ts'
import { writeOnlyShown } from '../../judge/records.ts'
import { isBodyJudged, isFromTheApi, isJsonContentType, missingRateHeaders } from '../../judge/response.ts'
import { schemaProblem } from '../../judge/schema.ts'
import { listKey, recordKey, type SchemaIssue } from '../../schemas/registry.ts'
import { RESOURCES, type ResourceName, type WriteOp } from '../../spec/resources.ts'
import type { TrafficExchange, TrafficRule } from '../types.ts'
import { LIST_PAGES, hasBody, isVerdictOnInput, perAnswer, perApiResponse, perExchange, recordsOf, resourceOf, timeOf, type ExchangeResponse } from './kit.ts'

const WRITE_OPS: ReadonlySet<string> = new Set(['create', 'update', 'replace'])

export const recordSchema: TrafficRule = perAnswer(
  {
    id: 'traffic.record.schema',
    clauses: ['§2', '§4.2'],
    level: 'MUST',
    side: 'server',
    title: 'A get, create, update or replace answered 2xx carries the resource record with every §2 field of its type',
  },
  {
    ops: ['get', 'create', 'update', 'replace'],
    status: '2xx',
    wholeBody: true,
    // §4.1: success codes are not shown; a write answered without a body (204) is not judged, a get must carry the record.
    where: ({ operation, body }) => operation.op === 'get' || hasBody(body),
  },
  ({ exchange, operation, resource, response, body }, ctx) => {
    const problem = schemaProblem(recordKey(resource), body)
    if (problem)
      ctx.violation({
        message: `${exchange.request.method} ${operation.path} answered ${response.status} with a body that does not match records/${resource} (§2): ${problem.summary}`,
        expected: `the ${resource} record as §2 lists it: every field present, of its type`,
      })
  },
)

export const listSchema: TrafficRule = perAnswer(
  {
    id: 'traffic.list.schema',
    clauses: ['§4.1', '§2'],
    level: 'MUST',
    side: 'server',
    title: 'A list answered 200 is { data: record[], nextCursor: string } with every record as §2 lists it',
  },
  LIST_PAGES,
  ({ operation, resource, body }, ctx) => {
    const problem = schemaProblem(listKey(resource), body)
    if (problem)
      ctx.violation({
        message: `GET ${operation.path} answered 200 with a body that does not match lists/${resource} (§4.1, §2): ${problem.summary}`,
        expected: '{ data: record[], nextCursor: string } (§4.1)',
      })
  },
)

export const meSchema: TrafficRule = perAnswer(
  {
    id: 'traffic.me.schema',
    clauses: ['§4.2', '§2'],
    level: 'MUST',
    side: 'server',
    title: "GET /me answered 200 carries a JSON object showing the key's scopes in some form (the field names are not shown)",
  },
  { ops: ['me'], status: 200, wholeBody: true },
  ({ body }, ctx) => {
    const problem = schemaProblem('me', body)
    if (problem)
      ctx.violation({
        message: `GET /me answered 200 with a body that is not a JSON object (§4.2): ${problem.summary}`,
        expected: "the workspace, the key's name and scopes, and its user, as a JSON object",
      })
    // As discovery.me.shows-scopes: any reasonable shape of the scopes, only none at all fails.
    else if (!showsScopes(body))
      ctx.violation({
        message: 'GET /me answered 200 showing no scopes in any form (§2)',
        expected: "§2: /me returns the workspace, the key's name and scopes, and the user the key acts as",
      })
  },
)

export const errorEnvelope: TrafficRule = perApiResponse(
  {
    id: 'traffic.error.envelope',
    clauses: ['§7.1', '§7.4', '§7.5', '§7.6', '§7.7'],
    level: 'MUST',
    side: 'server',
    title: 'Every 4xx (401, 403, 404, 429 and the others) carries the error envelope { error: { code, message } }',
  },
  (response) => response.status >= 400 && isBodyJudged(response.status, response.truncated),
  (response) => {
    const problem = errorEnvelopeProblem(response.body)
    return problem === undefined
      ? undefined
      : { detail: ` answered ${response.status}: ${problem}`, expected: '{ error: { code: string, message: string, details? } } on every error (§7.1)' }
  },
)

/** The §4.4 defects of a write's body, or undefined when the exchange is no write with a body schema. */
export function writeDefects(exchange: TrafficExchange, resource: ResourceName | undefined, op: string | undefined): SchemaIssue[] | undefined {
  if (!resource || op === undefined || !WRITE_OPS.has(op) || exchange.request.truncated) return undefined
  return bodyDefects(resource, op as WriteOp, exchange.request.body)
}

export const invalidRequest: TrafficRule = perExchange(
  {
    id: 'traffic.error.invalid-request',
    clauses: ['§7.3', '§7.2', '§4.1'],
    level: 'MUST',
    side: 'server',
    title: 'A write whose body breaks §4.4 is refused with 400 invalid_request whose details name a field to fix',
  },
  (exchange, ctx) => {
    const response = exchange.response
    if (!response || response.truncated) return
    if (!isVerdictOnInput(response.status)) return
    const issues = writeDefects(exchange, resourceOf(ctx.operation), ctx.operation.op)
    if (issues === undefined || issues.length === 0) return
    ctx.exercised()
    const fields = [...new Set(issues.map((i) => i.path))]
    const named = fields.filter((f) => f !== '')
    // Any one of the fields at fault named is enough: §7.2 lists "each field to fix", and a server may stop at the first.
    const notAnObject = issues.some((i) => i.path === '')
    const problems = (named.length === 0 ? [undefined] : named).map((f) => refusalProblem(response.status, response.body, f, { anyCode: notAnObject }))
    if (problems.some((p) => p === undefined)) return
    ctx.violation({
      message: `${exchange.request.method} ${ctx.operation.path} with a body that breaks §4.4 (${issues
        .slice(0, 3)
        .map((i) => `${i.path || '(root)'} ${i.message}`)
        .join('; ')}): ${problems[0]}`,
      expected: '400 with code invalid_request and a details entry whose path names the field (§7.2, §7.3)',
    })
  },
)

export const rateHeaders: TrafficRule = perApiResponse(
  {
    id: 'traffic.ratelimit.headers',
    clauses: ['§8', '§5.8'],
    level: 'MUST',
    side: 'server',
    title: 'Every response carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset, errors included',
  },
  (response) => isFromTheApi(response.status),
  (response) => {
    const missing = missingRateHeaders(response.headers)
    return missing.length === 0
      ? undefined
      : {
          detail: ` answered ${response.status} without ${missing.join(', ')} (§8)`,
          expected: 'RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset on every response (§8 "Rate headers")',
        }
  },
)

export const tooManyRequests: TrafficRule = perApiResponse(
  {
    id: 'traffic.ratelimit.429-headers',
    clauses: ['§7.7', '§8'],
    level: 'MUST',
    side: 'server',
    title: 'A 429 carries Retry-After (seconds or an HTTP date), RateLimit-Remaining: 0, RateLimit-Limit and RateLimit-Reset',
  },
  (response) => response.status === 429,
  (response) => {
    const problem = retryAfterProblem(response.headers['retry-after']) ?? tooManyRequestsHeadersProblem((h) => response.headers[h])
    return problem === undefined
      ? undefined
      : { detail: `: ${problem}`, expected: 'RateLimit-Limit, RateLimit-Remaining (0), RateLimit-Reset and Retry-After on a 429 (§7.7)' }
  },
)

/** The minute of §5.8's per-minute limit: no refusal needs a longer wait. */
const MINUTE_MS = 60_000

/** A 429's Retry-After (§7.7): the only answer whose Retry-After says how long to wait. */
function retryAfterOf(response: ExchangeResponse): string | undefined {
  return response.status === 429 ? response.headers['retry-after'] : undefined
}

export const rateHeaderForms: TrafficRule = perApiResponse(
  {
    id: 'traffic.ratelimit.header-forms',
    clauses: ['§8', '§5.8'],
    level: 'SHOULD',
    side: 'server',
    title:
      "RateLimit-Reset is a non-negative number of seconds, and a 429's Retry-After asks at most the minute (as rate-limits.reset.number and .429.retry-after-within-minute)",
  },
  (response) => isFromTheApi(response.status) && (response.headers['ratelimit-reset'] !== undefined || retryAfterOf(response) !== undefined),
  (response, exchange) => {
    const reset = response.headers['ratelimit-reset']
    if (reset !== undefined && !resetForm(reset))
      return {
        detail: ` answered RateLimit-Reset: ${JSON.stringify(reset)} (§8)`,
        expected: 'delta seconds or a Unix time in seconds: the two forms clients read (§8)',
      }
    const retryAfter = retryAfterOf(response)
    const wait = retryAfter === undefined ? undefined : wellFormedRetryAfterMs(retryAfter, timeOf(exchange.endedAt), response.headers.date)
    if (wait === undefined || wait <= MINUTE_MS) return undefined
    return {
      detail: `: the 429's Retry-After ${JSON.stringify(retryAfter)} asks for ${Math.ceil(wait / 1000)} s, more than the minute a per-minute limit needs (§5.8)`,
      expected: 'Retry-After of at most 60 seconds (§5.8, §8)',
    }
  },
)

export const jsonBodies: TrafficRule = perApiResponse(
  {
    id: 'traffic.response.json',
    clauses: ['§4'],
    level: 'MUST',
    side: 'server',
    title: 'Every response body is JSON with a JSON content type (5xx aside)',
  },
  (response) => isBodyJudged(response.status, response.truncated) && hasBody(response.body),
  (response) => {
    const type = response.headers['content-type']
    // A string body is the source's raw text when it did not parse as JSON (src/traffic/types.ts).
    const parsed = typeof response.body !== 'string'
    if (parsed && isJsonContentType(type)) return undefined
    return {
      detail: ` answered ${response.status} with ${parsed ? `Content-Type ${JSON.stringify(type ?? null)}` : 'a body that is not JSON'} (§4)`,
      expected: 'bodies are JSON with Content-Type: application/json (§4)',
    }
  },
)

export const writeOnlyHidden: TrafficRule = perExchange(
  {
    id: 'traffic.record.write-only-hidden',
    clauses: ['§2'],
    level: 'MUST',
    side: 'server',
    title: 'No record shows a field §2 calls writable but not in the record',
  },
  (exchange, ctx) => {
    const resource = resourceOf(ctx.operation)
    if (!resource || Object.keys(RESOURCES[resource].writeOnly).length === 0) return
    const records = recordsOf(ctx.operation, exchange)
    if (records.length === 0) return
    ctx.exercised()
    for (const record of records) {
      const shown = writeOnlyShown(resource, record)
      if (shown.length > 0) {
        ctx.violation({
          message: `${exchange.request.method} ${ctx.operation.path}: ${resource} ${JSON.stringify(record.id ?? null)} shows ${shown.join(', ')}, writable but not in the record (§2)`,
          expected: `${Object.keys(RESOURCES[resource].writeOnly).join(', ')}: writable but not in the record (§2)`,
        })
        return
      }
    }
  },
)

/** The request carried no Authorization header at all. */
function keyless(exchange: TrafficExchange): boolean {
  return exchange.request.headers.authorization === undefined
}

export const unauthenticated: TrafficRule = perApiResponse(
  {
    id: 'traffic.auth.unauthenticated',
    clauses: ['§5.5', '§7.4'],
    level: 'MUST',
    side: 'server',
    title: 'A call without a key, or with the configured revoked key, is answered 401',
  },
  // Only what the masked traffic proves: another scheme or a malformed token is masked whole, and may hold a
  // valid key (the suite asks 401 for the main key under Basic only as a SHOULD). A 429 is no verdict on the key:
  // a limit may count calls before it looks at one (§8 shows no order); a 5xx is another rule's.
  (response, exchange) => (keyless(exchange) || exchange.keyRole === 'revoked') && response.status !== 429 && response.status < 500,
  (response, exchange) =>
    response.status === 401
      ? undefined
      : {
          detail: ` ${keyless(exchange) ? 'without an Authorization header' : 'with the revoked key (CRM_API_KEY_REVOKED)'} answered ${response.status} (§5.5)`,
          expected: 'HTTP 401: key missing or no longer valid (§5.5, §7.4)',
        },
)

export const noServerErrors: TrafficRule = perApiResponse(
  {
    id: 'traffic.response.no-server-errors',
    clauses: ['§7.8'],
    level: 'SHOULD',
    side: 'server',
    title: 'No request, valid or not, is answered with a 5xx (as invariants.no-server-errors)',
  },
  () => true,
  (response) =>
    response.status < 500
      ? undefined
      : { detail: ` answered ${response.status} (§7.8)`, expected: 'a 4xx for bad input (§7.3) and a 2xx for good input; a 5xx is never a verdict on input' },
)

export const RESPONSE_RULES: TrafficRule[] = [
  recordSchema,
  listSchema,
  meSchema,
  errorEnvelope,
  invalidRequest,
  rateHeaders,
  tooManyRequests,
  rateHeaderForms,
  jsonBodies,
  writeOnlyHidden,
  unauthenticated,
  noServerErrors,
]
