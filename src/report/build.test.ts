import { describe, expect, it } from 'vitest'
import { buildRunReport, exitCodeFor, mergeCapabilities, summarize, verdictOf } from './build.ts'
import { makeCheckResult, makeReport, makeReportInput, sampleResults } from './test-fixtures.ts'

describe('summarize', () => {
  it('counts by status and by level, a waived failure under waived only', () => {
    const s = summarize(sampleResults())
    expect(s).toMatchObject({ total: 15, passed: 4, failed: 4, waived: 1, skipped: 3, errored: 3 })
    expect(s.byLevel.MUST).toEqual({ passed: 1, failed: 2, waived: 1, skipped: 1, errored: 1, total: 6 })
    expect(s.byLevel.SHOULD).toEqual({ passed: 1, failed: 1, waived: 0, skipped: 1, errored: 1, total: 4 })
    expect(s.byLevel.INFO).toEqual({ passed: 2, failed: 1, waived: 0, skipped: 1, errored: 1, total: 5 })
  })

  it('ignores a waiver on a check that did not fail', () => {
    const s = summarize([makeCheckResult({ status: 'passed', waived: { reason: 'stale' } })])
    expect(s).toMatchObject({ passed: 1, waived: 0 })
  })
})

describe('verdict', () => {
  const pass = (level: 'MUST' | 'SHOULD' | 'INFO' = 'MUST') => makeCheckResult({ level, status: 'passed' })

  it('is non-compliant when a MUST failed, listing failures before unverified checks', () => {
    const { verdict, reasons } = verdictOf([
      pass(),
      makeCheckResult({ id: 'x.skip', status: 'skipped' }),
      makeCheckResult({ id: 'x.fail', clause: '§5.7', status: 'failed' }),
    ])
    expect(verdict).toBe('non-compliant')
    expect(reasons[0]).toMatch(/^MUST x\.fail \(§5\.7\) failed: status is 500/)
    expect(reasons[1]).toMatch(/x\.skip .*skipped: CRM_API_KEY_RESTRICTED is not set/)
  })

  it('is partial when a MUST errored, with the reason', () => {
    const { verdict, reasons } = verdictOf([pass(), makeCheckResult({ id: 'x.err', status: 'error' })])
    expect(verdict).toBe('partial')
    expect(reasons).toEqual([expect.stringMatching(/x\.err .*harness error.*CRMCONF_TIMEOUT/)])
  })

  it('is partial when a MUST was skipped, with the reason', () => {
    const { verdict, reasons } = verdictOf([pass(), makeCheckResult({ id: 'x.skip', status: 'skipped', message: 'profile read-only sends no write' })])
    expect(verdict).toBe('partial')
    expect(reasons).toEqual(['MUST x.skip (§4.1) was skipped: profile read-only sends no write'])
  })

  it('is compliant when every MUST passed; SHOULD and INFO results never change it', () => {
    const others = (['SHOULD', 'INFO'] as const).flatMap((level) =>
      (['failed', 'error', 'skipped'] as const).map((status) => makeCheckResult({ level, status })),
    )
    expect(verdictOf([pass(), ...others])).toEqual({ verdict: 'compliant', reasons: [] })
  })

  it('is compliant when the only MUST failure is waived', () => {
    expect(verdictOf([pass(), makeCheckResult({ status: 'failed', waived: { reason: 'ticket' } })]).verdict).toBe('compliant')
  })

  it('is partial when no MUST check ran at all', () => {
    expect(verdictOf([pass('SHOULD')])).toEqual({ verdict: 'partial', reasons: ['no MUST check ran: nothing was verified'] })
    expect(verdictOf([]).verdict).toBe('partial')
  })

  it('keeps a reason on one line and bounded', () => {
    const { reasons } = verdictOf([makeCheckResult({ status: 'failed', message: `line1\nline2 ${'x'.repeat(1000)}` })])
    expect(reasons[0]).not.toContain('\n')
    expect(reasons[0].length).toBeLessThan(400)
  })
})

describe('buildRunReport', () => {
  it('fills every field and computes the duration', () => {
    const report = makeReport()
    expect(report.verdict).toBe('non-compliant')
    expect(report.durationMs).toBe(65_500)
    expect(report.checks).toHaveLength(15)
    expect(report.summary.total).toBe(15)
  })

  it('never gives a negative or NaN duration', () => {
    expect(buildRunReport(makeReportInput([], { startedAt: 'garbage' })).durationMs).toBe(0)
    expect(buildRunReport(makeReportInput([], { finishedAt: '2025-01-01T00:00:00Z' })).durationMs).toBe(0)
  })
})

describe('mergeCapabilities', () => {
  it('keys every observation <checkId>.<name>, sorted; the runner wins a collision', () => {
    const caps = mergeCapabilities(
      [
        makeCheckResult({ id: 'b.check', observations: { deleteStatus: 204 } }),
        makeCheckResult({ id: 'a.check', observations: { deleteStatus: 200, cursor: null } }),
      ],
      { 'reference.variant': 'default', 'b.check.deleteStatus': 'runner' },
    )
    expect(Object.keys(caps)).toEqual(['a.check.cursor', 'a.check.deleteStatus', 'b.check.deleteStatus', 'reference.variant'])
    expect(caps['a.check.deleteStatus']).toBe(200)
    expect(caps['b.check.deleteStatus']).toBe('runner')
  })
})

describe('exitCodeFor', () => {
  const report = (...results: Parameters<typeof makeCheckResult>[0][]) => ({ checks: results.map((r) => makeCheckResult(r)) })

  it('is 0 when every MUST passed or was skipped', () => {
    expect(exitCodeFor(report({ status: 'passed' }, { status: 'skipped' }))).toBe(0)
  })
  it('is 1 when a MUST failed', () => {
    expect(exitCodeFor(report({ status: 'passed' }, { status: 'failed' }))).toBe(1)
  })
  it('is 1 when a MUST errored: the clause was not verified', () => {
    expect(exitCodeFor(report({ status: 'error' }))).toBe(1)
  })
  it('is 0 for a waived MUST failure', () => {
    expect(exitCodeFor(report({ status: 'failed', waived: { reason: 'ticket' } }))).toBe(0)
  })
  it('ignores SHOULD failures unless strict', () => {
    const r = report({ status: 'passed' }, { level: 'SHOULD', status: 'failed' })
    expect(exitCodeFor(r)).toBe(0)
    expect(exitCodeFor(r, { strict: true })).toBe(1)
    expect(exitCodeFor(report({ level: 'SHOULD', status: 'error' }), { strict: true })).toBe(1)
    expect(exitCodeFor(report({ level: 'SHOULD', status: 'failed', waived: { reason: 'ticket' } }), { strict: true })).toBe(0)
  })
  it('never counts INFO, even strict', () => {
    expect(exitCodeFor(report({ level: 'INFO', status: 'failed' }, { level: 'INFO', status: 'error' }), { strict: true })).toBe(0)
  })
  it('gives 1 on the sample report', () => {
    expect(exitCodeFor(makeReport())).toBe(1)
  })
})
