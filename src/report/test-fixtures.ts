// Synthetic results and reports for the report tests (and the browser test): every status and level,
// a hostile response body, a waived failure. No server, no clock.
import type { CheckResult, EvidenceItem, Level, Status } from '../checks/types.ts'
import type { Exchange } from '../http/exchange.ts'
import { buildRunReport } from './build.ts'
import type { BuildRunReportInput } from './build.ts'
import type { RunReport, RunScope } from './types.ts'

export const HOSTILE_BODY = '<script>alert("pwned")</script><img src=x onerror=alert(1)>'
export const FIXTURE_SEED = 424242

export function makeExchange(overrides: Partial<Exchange> = {}): Exchange {
  return {
    seq: 1,
    keyRole: 'main',
    request: {
      method: 'GET',
      url: 'https://crm.example.test/v1/accounts?limit=1',
      headers: { authorization: 'Bearer <redacted:CRM_API_KEY>', accept: 'application/json' },
    },
    response: { status: 200, headers: { 'content-type': 'application/json', 'ratelimit-limit': '600' }, body: { data: [], nextCursor: '' } },
    startedAt: '2026-01-01T00:00:01.000Z',
    durationMs: 12,
    ...overrides,
  }
}

export function makeEvidence(exchange: Exchange = makeExchange()): EvidenceItem {
  const { method, url } = exchange.request
  return { exchange, curl: `curl -sS -X ${method} '${url}' -H 'Authorization: Bearer $CRM_API_KEY'` }
}

let counter = 0

/** One result; `id` defaults to a unique `<area>.<level>.<status>-n`. */
export function makeCheckResult(overrides: Partial<CheckResult> & { status?: Status; level?: Level } = {}): CheckResult {
  const status = overrides.status ?? 'passed'
  const level = overrides.level ?? 'MUST'
  const area = overrides.area ?? 'records'
  const id = overrides.id ?? `${area}.${level.toLowerCase()}.${status}-${++counter}`
  const clause = overrides.clause ?? '§4.1'
  const messages: Record<Status, string> = {
    passed: '',
    failed: 'status is 500, expected 404 (§5.7)',
    skipped: 'CRM_API_KEY_RESTRICTED is not set',
    error: 'CRMCONF_TIMEOUT: no response within 15000 ms',
  }
  return {
    id,
    clause,
    clauses: overrides.clauses ?? [clause],
    level,
    area,
    title: `A conformant server does ${id}`,
    status,
    message: messages[status],
    evidence: status === 'skipped' ? [] : [makeEvidence()],
    observations: {},
    notes: [],
    requests: status === 'skipped' ? 0 : 1,
    durationMs: 20,
    replay: `crm-conformance run --only ${id} --seed ${FIXTURE_SEED}`,
    ...overrides,
  }
}

/** Every status at every level, plus a hostile failure, a waived MUST failure and an observation. */
export function sampleResults(): CheckResult[] {
  const results: CheckResult[] = []
  for (const level of ['MUST', 'SHOULD', 'INFO'] as Level[]) {
    for (const status of ['passed', 'failed', 'skipped', 'error'] as Status[]) {
      results.push(
        makeCheckResult({
          id: `sample.${level.toLowerCase()}.${status}`,
          level,
          status,
          clause: level === 'MUST' ? '§4.10' : level === 'SHOULD' ? '§4.2' : '§9',
        }),
      )
    }
  }
  results.push(
    makeCheckResult({
      id: 'errors.not-found.hostile',
      clause: '§7.6',
      status: 'failed',
      message: 'status is 200, expected 404 <b>bold</b>',
      expected: 'HTTP 404 with the error envelope of §7.1',
      evidence: [
        makeEvidence(
          makeExchange({
            seq: 7,
            response: { status: 200, headers: { 'content-type': 'text/html', 'x-evil': '"><script>alert(2)</script>' }, rawText: HOSTILE_BODY },
          }),
        ),
      ],
      data: { got: HOSTILE_BODY },
    }),
    makeCheckResult({ id: 'auth.revoked.waived', clause: '§5.5', status: 'failed', waived: { reason: 'vendor ticket CRM-12', expires: '2099-01-01' } }),
    makeCheckResult({ id: 'lists.cursor.last-page', level: 'INFO', clause: '§4.1', status: 'passed', observations: { lastPageCursor: 'empty-string' } }),
  )
  return results
}

/** A scope covering exactly these results, as a complete run (no selection, nothing left out); `partial` overrides fields. */
export function makeScope(results: readonly CheckResult[], partial: Partial<RunScope> = {}): RunScope {
  const counts = { checks: results.length, must: results.filter((r) => r.level === 'MUST').length }
  return { complete: true, only: [], skip: [], catalogue: counts, inScope: counts, outOfScope: [], ...partial }
}

export function makeReportInput(results: CheckResult[], overrides: Partial<BuildRunReportInput> = {}): BuildRunReportInput {
  return {
    results,
    scope: makeScope(results),
    tool: { name: 'crm-conformance', version: '0.1.0' },
    spec: { digest: 'a'.repeat(56) + '0123beef', file: 'spec/crm-api-spec.md' },
    target: { baseUrl: 'https://crm.example.test/v1', embedded: false },
    profile: 'safe',
    seed: FIXTURE_SEED,
    runId: 'run-20260101-000000',
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:01:05.500Z',
    config: { baseUrl: 'https://crm.example.test/v1', keys: { CRM_API_KEY: '<redacted:CRM_API_KEY>' }, profile: 'safe' },
    requests: { total: 14, byArea: { records: 10, auth: 4 }, byKey: { main: 14 }, rateLimited: {} },
    leftovers: [{ resource: 'account', id: '00000000-0000-4000-8000-000000000001', reason: 'delete returned 500' }],
    replay: `crm-conformance run --seed ${FIXTURE_SEED}`,
    ...overrides,
  }
}

export function makeReport(results: CheckResult[] = sampleResults(), overrides: Partial<BuildRunReportInput> = {}): RunReport {
  return buildRunReport(makeReportInput(results, overrides))
}
