// The verifier on real traffic, proven like the suite: the scripted client through the proxy in front of the
// reference server. Every legal variant gives 0 server violations; a fault that passive traffic shows is
// caught (a representative sample here; scripts/traffic-mutation.ts runs the whole catalogue); the same
// traffic as NDJSON and as HAR gives the same verdicts through verify-traffic; no secret is ever written.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { VARIANT_NAMES } from '../../src/reference/index.ts'
import { assertNoSecrets } from '../../src/report/secrets.ts'
import { harOf } from '../../src/traffic/har.ts'
import { ndjsonLine } from '../../src/traffic/ndjson.ts'
import { verifyTrafficCommand } from '../../src/traffic/verify-command.ts'
import { runProxied, serverFailures, statusById, type ProxiedRun } from './harness.ts'

const dir = mkdtempSync(join(tmpdir(), 'crmconf-traffic-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const runs = new Map<string, ProxiedRun>()

describe('the scripted client through the proxy in front of the reference server', () => {
  for (const variant of VARIANT_NAMES) {
    it(`finds no server violation on the legal variant ${variant}`, async () => {
      const run = await runProxied({ variant })
      runs.set(variant, run)
      expect(serverFailures(run.rows).map((r) => `${r.id}: ${r.message}`)).toEqual([])
      expect(run.exchanges.length).toBeGreaterThan(100)
      // The traffic reached the 429 and carried the client mistakes made on purpose.
      expect(run.exchanges.some((e) => e.response?.status === 429)).toBe(true)
      expect(run.rows.some((r) => r.status === 'failed' && r.side === 'client')).toBe(true)
      expect(run.rows.filter((r) => r.status !== 'skipped').length).toBeGreaterThan(0)
    }, 60_000)
  }

  it("reports the scripted client's own mistakes as client violations, not server ones", () => {
    const run = runs.get('default')!
    const failedClient = run.rows.filter((r) => r.status === 'failed' && r.side === 'client').map((r) => r.id)
    // No key, a body breaking §4.4, limit=500 and 0, a reused Idempotency-Key with another body.
    expect(failedClient).toEqual(
      expect.arrayContaining(['traffic.client.key', 'traffic.client.body', 'traffic.client.limit', 'traffic.client.idempotency-key-reuse']),
    )
    expect(run.seen.some((s) => s.side === 'client')).toBe(true)
  })

  // A sample of the faults passive traffic reveals, one per kind of rule, each caught by the rule that judges
  // what it breaks; the whole catalogue: npm run traffic:mutation (reports/traffic-mutation-report.md).
  const SAMPLE: [fault: string, rule: string][] = [
    ['records.missing-updatedAt', 'traffic.record.schema'],
    ['filters.unknown-uuid-unfiltered', 'traffic.list.filter'],
    ['pagination.repeat-boundary-record', 'traffic.list.walk'],
    ['idempotency.ignored', 'traffic.idempotency.replay'],
    ['state.delete-non-draft', 'traffic.state.draft-only'],
    ['auth.missing-key-403', 'traffic.auth.unauthenticated'],
    ['rate-limits.429-without-retry-after', 'traffic.ratelimit.429-headers'],
  ]
  for (const [fault, rule] of SAMPLE) {
    it(`catches the fault ${fault} as a server violation of ${rule}`, async () => {
      const run = await runProxied({ faults: [fault] })
      expect(serverFailures(run.rows).map((r) => r.id)).toContain(rule)
      expect(run.seen.some((s) => s.side === 'server' && s.rule.id === rule)).toBe(true)
    }, 60_000)
  }

  it('writes no key or secret in the recorded exchanges', () => {
    const run = runs.get('default')!
    const text = run.exchanges.map(ndjsonLine).join('')
    assertNoSecrets(
      text,
      { ...Object.fromEntries(Object.entries(run.keys).map(([k, v]) => [`key ${k}`, v])), CRM_WEBHOOK_SECRET: run.webhookSecret },
      'recorded NDJSON',
    )
    expect(text).toContain('Bearer <redacted:CRM_API_KEY>')
    expect(text).toContain('Bearer <redacted>')
  })

  it('gives the same verdicts on the same traffic saved as NDJSON and as HAR, as the proxy gave', async () => {
    const run = runs.get('default') ?? (await runProxied())
    const ndjson = join(dir, 'traffic.ndjson')
    const har = join(dir, 'traffic.har')
    writeFileSync(ndjson, run.exchanges.map(ndjsonLine).join(''))
    writeFileSync(har, harOf(run.exchanges))
    const quiet = () => {}
    const fromNdjson = await verifyTrafficCommand({ files: [ndjson], reportDir: join(dir, 'r-ndjson'), write: quiet, env: {} })
    const fromHar = await verifyTrafficCommand({ files: [har], reportDir: join(dir, 'r-har'), write: quiet, env: {} })
    expect(fromNdjson.exchanges).toBe(run.exchanges.length)
    expect(fromHar.exchanges).toBe(run.exchanges.length)
    const rowsOf = (d: string) => JSON.parse(readFileSync(join(d, 'report.json'), 'utf8')).checks
    const ndjsonRows = rowsOf(fromNdjson.reportDir!)
    const harRows = rowsOf(fromHar.reportDir!)
    expect(statusById(harRows)).toEqual(statusById(ndjsonRows))
    expect(statusById(ndjsonRows)).toEqual(statusById(run.rows))
    expect(fromHar.exitCode).toBe(fromNdjson.exitCode)
    const report = JSON.parse(readFileSync(join(fromNdjson.reportDir!, 'report.json'), 'utf8'))
    expect(report.traffic.exchanges).toBe(run.exchanges.length)
    expect(report.verdictLabel).toMatch(/on observed traffic: .*[\d,]+ exchanges, \d+ of \d+ rules exercised/)
    for (const row of report.checks) if (row.status === 'failed') expect(['server', 'client']).toContain(row.side)
    for (const name of ['report.html', 'junit.xml', 'summary.md', 'badge.json'])
      expect(readFileSync(join(fromNdjson.reportDir!, name), 'utf8').length).toBeGreaterThan(0)
  }, 60_000)
})
