// Issue 39, "no pass without evidence": the checks audited for a path that ends without having seen what would
// fail them, each with the precondition whose absence makes it skip, with the reason, never pass; and, for a
// representative set, that precondition removed on the reference server and the skip seen. Against a conformant,
// fully configured server none of them skips (rule 3): `crm-conformance run --embedded` ends with 0 skipped.
import { expect, test } from 'vitest'
import { startReferenceServer } from '../src/reference/index.ts'
import { runInProcess } from '../src/run/in-process.ts'
import { catalogue } from '../suites/index.ts'
import { expectLaterPage } from '../suites/pagination/pages.ts'
import { CheckSkipped } from '../src/checks/index.ts'
import type { ApiResponse } from '../src/checks/index.ts'
import { verdictOf } from '../src/report/build.ts'
import { ASPECTS, type Aspect } from '../suites/explore/contract.ts'

const LATER_PAGE = 'the walk holds records on two pages or more (a page reached by nextCursor was judged)'

/** Check id → the precondition that, unmet, makes it skip. `filters.<resource>.other-field` is one row per collection. */
export const AUDITED: Readonly<Record<string, string>> = {
  'rate-limits.429.reached': "CRM_API_KEY_RATE_LIMITED is served at the probe's first call (its allowance not spent before the run)",
  'rate-limits.keys.separate-allowance': 'CRM_API_KEY_RATE_LIMITED has an allowance before its first call (no 429, RateLimit-Remaining above 0)',
  'rate-limits.limit.own': 'a call of the probe is served before its 429 (a Remaining to compare)',
  'rate-limits.429.retry-after': 'the probe met a 429 within the limit and its slack',
  'rate-limits.retry-after.honoured': 'a 429 with a usable Retry-After no longer than CRM_MAX_RETRY_AFTER_S',
  'pagination.limit.one': 'GET /users lists two users or more',
  'pagination.limit.max-100': 'a list of more than 100 records, or limit=101 refused',
  'pagination.cursor.walk-complete': LATER_PAGE,
  'pagination.cursor.string-on-every-page': 'the walk reads two pages or more',
  'pagination.cursor.filter-every-page': LATER_PAGE,
  'pagination.filters.pair-narrows': LATER_PAGE,
  'pagination.sort.updatedAt-walk': LATER_PAGE,
  'pagination.createdSince.walk': `${LATER_PAGE}, after a bound with 3 records after it`,
  'pagination.sort.createdAt-asc': `two distinct createdAt listed, and ${LATER_PAGE}`,
  'pagination.sort.createdAt-desc': `two distinct createdAt listed, and ${LATER_PAGE}`,
  'pagination.sort.updatedAt-desc': `two distinct updatedAt listed, and ${LATER_PAGE}`,
  ...Object.fromEntries(
    catalogue
      .filter((c) => /^filters\.[a-z]+\.other-field$/.test(c.id))
      .map((c) => [c.id, "one crossing sent: the run's record listed by its own value within the window, and another id it holds"]),
  ),
  // The explorer: an aspect no sequence compared on both sides' answers (World.judge counts each comparison).
  ...Object.fromEntries(Object.entries(ASPECTS).map(([aspect, rule]) => [`explore.${aspect}`, `the exploration made ${rule.needs}`])),
}

test('every audited check is in the catalogue, and the table names a precondition for each', () => {
  const ids = new Set(catalogue.map((c) => c.id))
  expect(Object.keys(AUDITED).filter((id) => !ids.has(id))).toEqual([])
  expect(Object.keys(AUDITED).filter((id) => id.startsWith('filters.')).length).toBeGreaterThan(3)
  for (const [id, precondition] of Object.entries(AUDITED)) expect(precondition.length, id).toBeGreaterThan(10)
})

const page = (records: number): ApiResponse => ({ body: { data: Array.from({ length: records }, (_, i) => ({ id: `r${i}` })), nextCursor: '' } }) as ApiResponse
const skipper = {
  skip: (reason: string): never => {
    throw new CheckSkipped(reason)
  },
}

test('a walk whose records all came on its first page skips the check that judges across pages; one that reached a second page does not', () => {
  expect(() => expectLaterPage(skipper, { pages: [page(3)] }, 'GET /accounts walked')).toThrow(/every record came on the first page \(1 page/)
  // A cursor that led to an empty page is a second page read, but no later record was judged.
  expect(() => expectLaterPage(skipper, { pages: [page(3), page(0)] }, 'GET /accounts walked')).toThrow(CheckSkipped)
  expect(() => expectLaterPage(skipper, { pages: [page(2), page(1), page(0)] }, 'GET /accounts walked')).not.toThrow()
})

test('a rate-limited key spent before the run: the checks that need its allowance skip, naming it', async () => {
  const server = await startReferenceServer()
  try {
    // The key's allowance is used up by another client before the run (an earlier run a moment ago, a colleague).
    let refused = false
    for (let i = 0; i < 100 && !refused; i++) {
      const res = await fetch(`${server.baseUrl}/me`, { headers: { authorization: `Bearer ${server.keys.rateLimited}` } })
      await res.arrayBuffer()
      refused = res.status === 429
    }
    expect(refused).toBe(true)
    const ids = ['rate-limits.429.reached', 'rate-limits.limit.own']
    const allowance = 'rate-limits.keys.separate-allowance'
    const run = await runInProcess({
      checks: catalogue,
      only: [...ids, allowance],
      config: {
        baseUrl: server.baseUrl,
        keys: server.keys,
        restrictedScopes: server.restrictedScopes,
        roleLimitedDenied: server.roleLimitedDenied,
        fixtures: server.fixtures,
        webhookSecret: server.webhookSecret,
      },
    })
    const byId = new Map(run.results.map((r) => [r.id, r]))
    for (const id of ids) expect(byId.get(id)?.status, `${id}: ${byId.get(id)?.message}`).toBe('skipped')
    expect(byId.get('rate-limits.429.reached')!.message).toMatch(/spent before the run/)
    // The key's allowance may refill a call or two while the run starts (a bucket): then it is judged, not skipped.
    const separate = byId.get(allowance)!
    const [before] = separate.observations.rateLimitedRemaining as number[]
    if (before > 0) expect(separate.status, separate.message).toBe('passed')
    else expect(separate.message).toMatch(/no allowance left before its first call/)
  } finally {
    await server.close()
  }
}, 120_000)

test('a list that lags past the consistency window: the other-field check, whose record is never listed by its own value, skips', async () => {
  const id = 'filters.account.other-field'
  const run = await runInProcess({ checks: catalogue, only: [id], embedded: { listLagMs: 4_000 }, config: { consistencyWindowMs: 300 } })
  const result = run.results.find((r) => r.id === id)!
  expect(result.status, result.message).toBe('skipped')
  expect(result.message).toMatch(/none was judged/)
}, 120_000)

test('an exploration too small to both walk a list and delete: an aspect passes only where it was compared, the others skip naming what they needed, and the verdict is partial', async () => {
  // 10 requests, the smallest round: it may spend 7, 6 or 7 of them taken by the idempotency probe (3) and the
  // opening batch of 3 or 4 creates; at most one command follows, so a delete and a list walk never both happen.
  const run = await runInProcess({ checks: catalogue, only: ['explore'], seed: 1, config: { exploreRequests: 10, webhookSecret: '' } })
  const byId = new Map(run.results.map((r) => [r.id, r]))
  const skipped: Aspect[] = []
  for (const aspect of Object.keys(ASPECTS) as Aspect[]) {
    const row = byId.get(`explore.${aspect}`)!
    const comparisons = row.observations['explore.comparisons'] as number
    if (comparisons > 0) {
      expect(row.status, `${row.id}: ${row.message}`).toBe('passed')
      continue
    }
    skipped.push(aspect)
    expect(row.status, `${row.id}: ${row.message}`).toBe('skipped')
    expect(row.message).toContain(ASPECTS[aspect].needs)
    expect(row.message).toMatch(/a larger --explore-requests \(CRM_EXPLORE_REQUESTS, now 10\) gives it room/)
  }
  // What the opening always compares is judged; a delete and a walk to the last page do not both fit.
  for (const aspect of ['status', 'written', 'idempotency'] as const) expect(skipped).not.toContain(aspect)
  expect(skipped.includes('unchanged') || skipped.includes('list-membership'), skipped.join(', ')).toBe(true)
  const { verdict, reasons } = verdictOf(run.results)
  expect(verdict).toBe('partial')
  expect(reasons.join('\n')).toMatch(/explore\.[a-z-]+ .*was skipped: [a-z-]+ was never compared/)
  expect(run.leftovers).toEqual([])
}, 120_000)
