// Rules that hold for every exchange of the run, whichever check sent it. They run last and judge the
// whole run's log; the first offending exchanges are the evidence.
import { defineCheck } from '../../src/checks/define.ts'
import type { CheckContext, CheckDefinition, Level } from '../../src/checks/types.ts'
import type { Exchange } from '../../src/http/exchange.ts'
import { validate } from '../../src/schemas/registry.ts'

const area = 'invariants'
const SHOWN = 3

function judge(ctx: CheckContext, violates: (e: Exchange) => boolean, what: string, clause: string, expected: string): void {
  const answered = ctx.session.exchanges.filter((e) => e.response && e.checkId !== 'cleanup')
  if (answered.length === 0) ctx.skip('no exchange was made in this run')
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

function invariant(id: string, level: Level, clauses: string[], title: string, what: string, expected: string, violates: (e: Exchange) => boolean): CheckDefinition {
  return defineCheck({ id: `invariants.${id}`, clauses, level, area, title, phase: 'last', async run(ctx) {
    judge(ctx, violates, what, clauses[0]!, expected)
  } })
}

export const checks: CheckDefinition[] = [
  invariant(
    'ratelimit-headers',
    'MUST',
    ['§8', '§5.8'],
    'Every response carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset, errors included',
    'lack a RateLimit-* header',
    'RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset on every response (§8 "Rate headers")',
    (e) => ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'].some((h) => e.response!.headers[h] === undefined),
  ),
  invariant(
    'error-envelope',
    'MUST',
    ['§7.1'],
    'Every 4xx and 5xx response has the error envelope { error: { code, message } }',
    'are errors without the §7.1 envelope',
    '{ error: { code: string, message: string, details? } } on every error (§7.1)',
    (e) => e.response!.status >= 400 && validate('error', e.response!.body).length > 0,
  ),
  invariant(
    'json-bodies',
    'MUST',
    ['§4'],
    'Every response body is JSON with a JSON content type',
    'have a body that is not JSON or not labelled application/json',
    'bodies are JSON with Content-Type: application/json (§4)',
    (e) => hasBody(e) && (e.response!.body === undefined || !/^application\/([\w.+-]*\+)?json\b/i.test(e.response!.headers['content-type'] ?? '')),
  ),
  invariant(
    'no-server-errors',
    'SHOULD',
    ['§7.8'],
    'No request of the run, valid or deliberately invalid, is answered with a 5xx',
    'are 5xx server errors',
    'a 4xx for bad input (§7.3) and a 2xx for good input; a 5xx is never a verdict on input',
    (e) => e.response!.status >= 500,
  ),
]
