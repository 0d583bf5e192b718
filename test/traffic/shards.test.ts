// Judging in partitions never changes a verdict: for random traffic (fast-check) and for the scripted client's
// recorded traffic against faults the cross-exchange rules catch (fixtures/shards/, scripts/record-shard-fixtures.ts),
// the shards 1/N … N/N merged, and N jobs, give the rows (status, judged, violations, message, side, evidence), the
// counts and the exit code of the whole judged at once, for N = 1, 2, 3 and 7.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config/config.ts'
import { judgeExchanges, type JudgedFiles, type ReadUnit } from '../../src/traffic/jobs.ts'
import { exchangeOfLine, ndjsonLine } from '../../src/traffic/ndjson.ts'
import { trafficExitCode } from '../../src/traffic/report.ts'
import { TRAFFIC_RULES } from '../../src/traffic/rules/index.ts'
import type { TrafficExchange } from '../../src/traffic/types.ts'
import { mergeTallies, rowOf, type RuleTally } from '../../src/traffic/verifier.ts'

const config = loadConfig({}, {})
const FIXTURES = join(import.meta.dirname, 'fixtures', 'shards')
const COUNTS = [1, 2, 3, 7]

/** The exchanges as the NDJSON reader hands them over: each with its line, which a worker reads it from again. */
async function* stream(exchanges: readonly TrafficExchange[]): AsyncGenerator<ReadUnit> {
  // A copy each time: judging must not depend on what an earlier judging did to the objects.
  for (const exchange of exchanges) yield { exchange: structuredClone(exchange), text: ndjsonLine(exchange), format: 'ndjson' }
}

const judge = (exchanges: readonly TrafficExchange[], extra: { jobs?: number; shard?: { index: number; count: number } } = {}) =>
  judgeExchanges({ exchanges: stream(exchanges), basePath: '/v1', config, rules: TRAFFIC_RULES, jobs: 1, inlineJobs: true, ...extra, onProblem: () => {} })

/** What the report shows of a judgement: each row as the reader sees it, the counts and the exit code. */
function shown(judged: Pick<JudgedFiles, 'tallies' | 'exchanges' | 'answered'>) {
  const rows = judged.tallies.map((tally, i) => rowOf(TRAFFIC_RULES[i]!, tally))
  return {
    rows: rows.map((r) => ({
      id: r.id,
      status: r.status,
      judged: r.judged,
      violations: r.violations,
      message: r.message,
      side: r.side,
      expected: r.expected,
      evidence: r.evidence.map((e) => `${e.exchange.seq} ${e.exchange.keyRole} ${e.curl}`),
    })),
    exchanges: judged.exchanges,
    answered: judged.answered,
    exitCode: trafficExitCode(rows, 'must', judged.answered),
  }
}

/** The shards 1/N … N/N judged apart and merged as merge-reports merges them (tallies through JSON, as report.json keeps them). */
async function sharded(exchanges: readonly TrafficExchange[], count: number) {
  const parts: JudgedFiles[] = []
  for (let index = 0; index < count; index++) parts.push(JSON.parse(JSON.stringify(await judge(exchanges, { shard: { index, count } }))) as JudgedFiles)
  return {
    tallies: TRAFFIC_RULES.map((_, i) => mergeTallies(parts.map((p) => p.tallies[i]!) as RuleTally[])),
    exchanges: parts.reduce((sum, p) => sum + p.exchanges, 0),
    answered: parts.reduce((sum, p) => sum + p.answered, 0),
  }
}

// Random traffic: a few keys, collections, records, cursors and Idempotency-Keys, so that the rules that remember
// (by key, by collection, at the end) meet the same key, record or walk again, in either partition.
const KEYS = ['main', 'restricted', 'foreign', 'key#1', undefined] as const
const PATHS = ['/accounts', '/quotations', '/orders', '/users', '/invoices'] as const
const idOf = (n: number) => `00000000-0000-4000-8000-00000000000${n}`
const recordOf = (n: number, e: { name: string; status: string; at: number }) => ({
  id: idOf(n),
  name: e.name,
  status: e.status,
  email: `${e.name}@example.com`,
  createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
  updatedAt: new Date(e.at).toISOString(),
})

const eventArb = fc.record({
  key: fc.constantFrom(...KEYS),
  path: fc.constantFrom(...PATHS),
  op: fc.constantFrom('list', 'list', 'list', 'get', 'get', 'create', 'update', 'replace', 'delete', 'me'),
  id: fc.integer({ min: 0, max: 3 }),
  ids: fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 3 }),
  status: fc.constantFrom(200, 200, 200, 201, 204, 400, 403, 404, 429),
  cursorIn: fc.option(fc.constantFrom('c1', 'c2'), { nil: undefined }),
  cursorOut: fc.option(fc.constantFrom('c1', 'c2'), { nil: undefined }),
  limit: fc.option(fc.constantFrom('2', '25', '500'), { nil: undefined }),
  filter: fc.option(fc.constantFrom('a', 'b'), { nil: undefined }),
  sort: fc.boolean(),
  name: fc.constantFrom('a', 'b'),
  recordStatus: fc.constantFrom('draft', 'sent'),
  idem: fc.option(fc.constantFrom('k1', 'k2'), { nil: undefined }),
  remaining: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
  scopes: fc.subarray(['accounts:read', 'accounts:write', 'quotations:read', 'orders:write']),
  gapMs: fc.integer({ min: 0, max: 2_000 }),
})
type Event = typeof eventArb extends fc.Arbitrary<infer T> ? T : never

function trafficOf(events: Event[]): TrafficExchange[] {
  let at = Date.UTC(2026, 1, 1)
  return events.map((e, i) => {
    at += e.gapMs
    const started = new Date(at).toISOString()
    at += 5
    const record = (n: number) => recordOf(n, { name: e.name, status: e.recordStatus, at })
    const headers: Record<string, string> = e.key ? { authorization: 'Bearer <redacted:CRM_API_KEY>' } : {}
    const responseHeaders: Record<string, string> = { 'content-type': 'application/json' }
    if (e.remaining !== undefined)
      Object.assign(responseHeaders, { 'ratelimit-limit': '3', 'ratelimit-remaining': String(e.remaining), 'ratelimit-reset': '30' })
    if (e.status === 429) responseHeaders['retry-after'] = '2'
    let method = 'GET'
    let url = `https://api.example/v1${e.path}`
    let requestBody: unknown
    let body: unknown
    const query = new URLSearchParams()
    if (e.op === 'me') {
      url = 'https://api.example/v1/me'
      body = { name: 'key', scopes: e.scopes, ...(e.sort ? { user: { id: idOf(e.id) } } : {}) }
    } else if (e.op === 'list') {
      if (e.limit) query.set('limit', e.limit)
      if (e.cursorIn) query.set('cursor', e.cursorIn)
      if (e.filter) query.set('email', `${e.filter}@example.com`)
      if (e.sort) query.set('sort', 'updatedAt')
      body = { data: e.ids.map(record), ...(e.cursorOut ? { nextCursor: e.cursorOut } : {}) }
    } else {
      method = { get: 'GET', create: 'POST', update: 'PATCH', replace: 'PUT', delete: 'DELETE' }[e.op]
      if (e.op !== 'create') url += `/${idOf(e.id)}`
      if (e.op === 'create' && e.idem) headers['idempotency-key'] = e.idem
      if (e.op !== 'get' && e.op !== 'delete') {
        headers['content-type'] = 'application/json'
        requestBody = { name: e.name, ...(e.path === '/orders' ? { quoteId: idOf(e.ids[0] ?? 0) } : {}) }
      }
      body = e.op === 'delete' || e.status === 204 ? undefined : e.status >= 400 ? { error: { code: 'invalid_request', message: 'no' } } : record(e.id)
    }
    if (query.size > 0) url += `?${query}`
    if (e.status >= 400 && e.op !== 'me') body = { error: { code: e.status === 404 ? 'not_found' : 'invalid_request', message: 'no' } }
    return {
      seq: i + 1,
      source: `random#${i + 1}`,
      request: { method, url, headers, ...(requestBody !== undefined ? { body: requestBody } : {}) },
      response: { status: e.status, headers: responseHeaders, ...(body !== undefined ? { body } : {}) },
      startedAt: started,
      endedAt: new Date(at).toISOString(),
      ...(e.key ? { keyRole: e.key } : {}),
    }
  })
}

describe('random traffic', () => {
  it("--shard 1/N … N/N merged, and --jobs N, give the whole's rows, counts and exit code (N = 1, 2, 3, 7)", async () => {
    const failedSomewhere = new Set<string>()
    await fc.assert(
      fc.asyncProperty(fc.array(eventArb, { minLength: 1, maxLength: 80 }), fc.constantFrom(...COUNTS), async (events, count) => {
        const traffic = trafficOf(events)
        const whole = shown(await judge(traffic))
        for (const row of whole.rows) if (row.status === 'failed') failedSomewhere.add(row.id)
        expect(shown(await sharded(traffic, count))).toEqual(whole)
        expect(shown(await judge(traffic, { jobs: count }))).toEqual(whole)
      }),
      { numRuns: 150 },
    )
    // The traffic reaches the rules that remember, by key and by collection, not only the ones that do not.
    const remembering = TRAFFIC_RULES.filter((r) => r.memory !== 'none').map((r) => r.id)
    expect(remembering.filter((id) => failedSomewhere.has(id)).length).toBeGreaterThanOrEqual(6)
  }, 120_000)
})

const fixtures = readdirSync(FIXTURES).filter((f) => f.endsWith('.ndjson.gz'))

function fixture(name: string): TrafficExchange[] {
  const lines = gunzipSync(readFileSync(join(FIXTURES, name)))
    .toString('utf8')
    .trim()
    .split('\n')
  return lines.map((line, i) => exchangeOfLine(JSON.parse(line), `${name}:${i + 1}`, i + 1))
}

describe("the scripted client's traffic against faults the cross-exchange rules catch", () => {
  it.each(fixtures)('%s: the shards merged and the jobs give the whole', async (name) => {
    const traffic = fixture(name)
    const whole = shown(await judge(traffic))
    if (!name.startsWith('clean')) expect(whole.rows.some((r) => r.status === 'failed' && r.side === 'server')).toBe(true)
    for (const count of COUNTS) {
      expect(shown(await sharded(traffic, count)), `--shard */${count}`).toEqual(whole)
      expect(shown(await judge(traffic, { jobs: count })), `--jobs ${count}`).toEqual(whole)
    }
  })

  it('worker threads judge as one thread does (--jobs 3, every fixture as one stream)', async () => {
    const traffic = fixtures.flatMap(fixture)
    const whole = shown(await judge(traffic))
    const threads = await judgeExchanges({ exchanges: stream(traffic), basePath: '/v1', config, rules: TRAFFIC_RULES, jobs: 3, onProblem: () => {} })
    expect(threads.notJudged).toBeUndefined()
    expect(shown(threads)).toEqual(whole)
  }, 60_000)
})
