// The traffic report's verdict and its words agree (issue 40): `partial` while a MUST rule was not exercised,
// `compliant` only when every one was and held; the summary's footer names what a traffic report has (its
// source, exchanges, base path), never a seed or a profile it does not have.
import { describe, expect, it } from 'vitest'
import { renderBadge } from '../report/badge.ts'
import { renderSummaryMarkdown } from '../report/markdown.ts'
import { makeCheckResult } from '../report/test-fixtures.ts'
import { buildTrafficReport, trafficVerdict } from './report.ts'
import type { TrafficRow } from './verifier.ts'

const row = (status: 'passed' | 'skipped' | 'failed', level: 'MUST' | 'SHOULD' = 'MUST'): TrafficRow => ({
  ...makeCheckResult({ status, level, area: 'traffic' }),
  judged: status === 'skipped' ? 0 : 3,
  violations: status === 'failed' ? 1 : 0,
})

function report(rows: TrafficRow[]) {
  return buildTrafficReport({
    rows,
    exchanges: 12,
    answered: 12,
    source: 'files',
    files: ['staging one.har'],
    basePath: '/v1',
    failOn: 'must',
    targetUrl: 'https://crm.example.com/v1',
    spec: { digest: 'a'.repeat(64), file: 'spec/crm-api-spec.md' },
    runId: 'traffic-1',
    startedAt: '2026-11-28T10:00:00.000Z',
    finishedAt: '2026-11-28T10:00:01.000Z',
    replay: 'crm-conformance verify-traffic "staging one.har"',
    config: {},
  })
}

describe('the traffic verdict', () => {
  it('is compliant, labelled conformant, only when every MUST rule was exercised and held', () => {
    const v = trafficVerdict([row('passed'), row('passed'), row('skipped', 'SHOULD')], 12)
    expect(v.verdict).toBe('compliant')
    expect(v.label).toBe('conformant on observed traffic: 12 exchanges, 2 of 3 rules exercised')
    expect(v.headline.tone).toBe('conformant')
  })

  it('is partial, and says partial, when no MUST rule was broken but one was not exercised', () => {
    const r = report([row('passed'), row('skipped'), row('passed', 'SHOULD')])
    expect(r.verdict).toBe('partial')
    expect(r.verdictLabel).toBe('partial on observed traffic: no MUST rule broken, 1 of 2 MUST rules not exercised; 12 exchanges, 2 of 3 rules exercised')
    expect(r.verdictLabel!.startsWith(r.verdict)).toBe(true)
    expect(r.traffic!.headline!.tone).toBe('partial')
    expect(renderSummaryMarkdown(r)).toMatch(/^## ⚠️ CRM API traffic: \*\*partial on observed traffic/)
    expect(renderBadge(r)).toMatchObject({ message: 'partial', color: 'yellow' })
  })

  it('is non-compliant when the server broke a MUST rule, whatever was not exercised', () => {
    const r = report([row('failed'), row('skipped')])
    expect(r.verdict).toBe('non-compliant')
    expect(r.verdictLabel).toMatch(/^server not conformant on observed traffic/)
  })

  it("summary.md's footer names the traffic's source, exchanges and base path, not a seed or a profile", () => {
    const footer = renderSummaryMarkdown(report([row('passed')]))
      .split('\n')
      .find((line) => line.startsWith('<sub>'))!
    expect(footer).toContain('observed traffic from one file · 12 exchanges · base path `/v1`')
    expect(footer).not.toMatch(/seed|profile/)
  })
})
