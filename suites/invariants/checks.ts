// Rules that hold for every exchange of the run, whichever check sent it. They run last and judge the
// whole run's log; the first offending exchanges are the evidence.
import { defineCheck, errorEnvelopeProblem, isBodyJudged, isFromTheApi, isJsonContentType, missingRateHeaders } from '../../src/checks/index.ts'
import type { CheckContext, CheckDefinition, Level, Exchange } from '../../src/checks/index.ts'

const area = 'invariants'
const SHOWN = 3

type Judged = (e: Exchange) => boolean

function judge(ctx: CheckContext, judged: Judged, violates: Judged, what: string, clause: string, expected: string): void {
  const answered = ctx.session.exchanges.filter((e) => e.response && e.checkId !== 'cleanup' && judged(e))
  if (answered.length === 0) ctx.skip('no response of this run is one this rule judges')
  const offending = answered.filter(violates)
  ctx.observe('exchangesJudged', answered.length)
  if (offending.length > 0) {
    ctx.fail(`${offending.length} of ${answered.length} responses ${what} (${clause}); first from ${offending[0]!.checkId ?? 'the harness'}`, {
      expected,
      exchanges: offending.slice(0, SHOWN),
      data: { offendingChecks: [...new Set(offending.map((e) => e.checkId))].slice(0, 20) },
    })
  }
}

const hasBody = (e: Exchange) => e.response!.body !== undefined || (e.response!.rawText ?? '').length > 0

const bodyJudged: Judged = (e) => isBodyJudged(e.response!.status, e.response!.truncated)

const fromTheApi: Judged = (e) => isFromTheApi(e.response!.status)

const everyResponse: Judged = () => true

function invariant(
  id: string,
  level: Level,
  clauses: string[],
  title: string,
  what: string,
  expected: string,
  violates: Judged,
  judged = everyResponse,
): CheckDefinition {
  return defineCheck({
    id: `invariants.${id}`,
    clauses,
    level,
    area,
    title,
    phase: 'last',
    async run(ctx) {
      judge(ctx, judged, violates, what, clauses[0]!, expected)
    },
  })
}

export const checks: CheckDefinition[] = [
  invariant(
    'ratelimit-headers',
    'MUST',
    ['§8', '§5.8'],
    'Every response carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset, errors included',
    'lack a RateLimit-* header',
    'RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset on every response (§8 "Rate headers")',
    (e) => missingRateHeaders(e.response!.headers).length > 0,
    fromTheApi,
  ),
  invariant(
    'error-envelope',
    'MUST',
    ['§7.1'],
    'Every 4xx response has the error envelope { error: { code, message } } (5xx aside: see invariants.no-server-errors)',
    'are errors without the §7.1 envelope',
    '{ error: { code: string, message: string, details? } } on every error (§7.1)',
    (e) => e.response!.status >= 400 && errorEnvelopeProblem(e.response!.body) !== undefined,
    bodyJudged,
  ),
  invariant(
    'json-bodies',
    'MUST',
    ['§4'],
    'Every response body is JSON with a JSON content type (5xx aside: see invariants.no-server-errors)',
    'have a body that is not JSON or not labelled application/json',
    'bodies are JSON with Content-Type: application/json (§4)',
    (e) => hasBody(e) && (e.response!.body === undefined || !isJsonContentType(e.response!.headers['content-type'])),
    bodyJudged,
  ),
  invariant(
    'no-server-errors',
    'SHOULD',
    ['§7.8'],
    'No request of the run, valid or deliberately invalid, is answered with a 5xx',
    'are 5xx server errors',
    'a 4xx for bad input (§7.3) and a 2xx for good input; a 5xx is never a verdict on input',
    // 501 Not Implemented says an operation does not exist (RFC 9110 §15.6.2), a refusal the read-only area
    // accepts for the writes §4.2 does not list; on a listed operation its own check expects a 2xx.
    (e) => e.response!.status >= 500 && e.response!.status !== 501,
  ),
]
