import { describe, expect, test } from 'vitest'
import { renderBadge } from './badge.ts'
import { buildRunReport, exitCodeFor } from './build.ts'
import { renderHtml } from './html.ts'
import { toReportJson } from './json.ts'
import { renderSummaryMarkdown } from './markdown.ts'
import { nothingTestedReason, scopeQualifier, verdictLabel } from './scope.ts'
import { makeCheckResult, makeReportInput, makeScope } from './test-fixtures.ts'

const passed = (id: string) => makeCheckResult({ id, status: 'passed' })
const outOfScopeRow = makeCheckResult({ id: 'state.order.create', status: 'skipped', message: 'needs the full profile' })

describe('the verdict names what it covers', () => {
  test('a complete run: plain verdict', () => {
    const results = [passed('a.one'), passed('a.two')]
    expect(verdictLabel('compliant', makeScope(results), 'full', results)).toBe('compliant')
  })

  test('a subset: never plain compliant', () => {
    const scope = makeScope([], { complete: false, only: ['discovery'], catalogue: { checks: 511, must: 468 }, inScope: { checks: 2, must: 2 } })
    expect(scopeQualifier(scope, 'full')).toBe('(subset: 2 of 511 checks)')
    expect(verdictLabel('compliant', scope, 'full', [passed('d.one'), passed('d.two')])).toBe('compliant (subset: 2 of 511 checks)')
    expect(scopeQualifier(scope, 'safe')).toBe('(subset, safe profile: 2 of 511 checks)')
  })

  test('a narrower profile: the MUST checks it covers', () => {
    const scope = makeScope([], { complete: false, catalogue: { checks: 511, must: 468 }, inScope: { checks: 445, must: 404 } })
    expect(verdictLabel('compliant', scope, 'safe', [passed('a.one')])).toBe('compliant (safe profile: 404 of 468 MUST checks)')
    expect(verdictLabel('partial', scope, 'read-only', [passed('a.one')])).toBe('partial (read-only profile: 404 of 468 MUST checks)')
  })

  test('nothing reached the server: says so, whatever the scope', () => {
    const skipped = [makeCheckResult({ status: 'skipped', message: 'CRM_API_KEY_REVOKED is not set' })]
    expect(verdictLabel('partial', makeScope(skipped), 'full', skipped)).toBe('partial (nothing tested: none of 1 checks reached the server)')
    expect(nothingTestedReason(skipped)).toBe('nothing was tested: all 1 checks were skipped (CRM_API_KEY_REVOKED is not set)')
    expect(nothingTestedReason([])).toBe('nothing was tested: no check ran')
    expect(nothingTestedReason([passed('a.one')])).toBeUndefined()
  })
})

describe('a safe run whose in-scope checks passed is compliant for its scope, in every file', () => {
  const results = [passed('records.a.read'), passed('records.a.create'), outOfScopeRow]
  const scope = makeScope([], {
    complete: false,
    catalogue: { checks: 3, must: 3 },
    inScope: { checks: 2, must: 2 },
    outOfScope: [{ id: 'state.order.create', level: 'MUST', reason: 'needs the full profile' }],
  })
  const report = buildRunReport(makeReportInput(results, { profile: 'safe', scope }))

  test('report.json: verdict for machines, label and scope for people; the out-of-scope row is not judged', () => {
    expect(report.verdict).toBe('compliant')
    expect(report.verdictLabel).toBe('compliant (safe profile: 2 of 3 MUST checks)')
    expect(report.checks.map((c) => c.id)).toEqual(['records.a.read', 'records.a.create'])
    expect(report.summary).toMatchObject({ total: 2, passed: 2, skipped: 0 })
    const json = JSON.parse(toReportJson(report))
    expect(Object.keys(json).slice(9, 13)).toEqual(['verdict', 'verdictLabel', 'scope', 'verdictReasons'])
    expect(json.scope.outOfScope).toEqual([{ id: 'state.order.create', level: 'MUST', reason: 'needs the full profile' }])
    expect(exitCodeFor(report)).toBe(0)
  })

  test('badge, summary.md and report.html carry the label', () => {
    expect(renderBadge(report)).toEqual({
      schemaVersion: 1,
      label: 'CRM API conformance',
      message: 'compliant (safe profile: 2 of 3 MUST checks) · 2/2',
      color: 'green',
    })
    const md = renderSummaryMarkdown(report)
    expect(md.split('\n')[0]).toContain('**compliant (safe profile: 2 of 3 MUST checks)**')
    expect(md).toContain('1 selected checks are out of scope for the safe profile')
    const html = renderHtml(report)
    expect(html).toContain('<title>CRM API conformance: Compliant (safe profile: 2 of 3 MUST checks)')
    expect(html).toMatch(/data-testid="verdict-scope">\(safe profile: 2 of 3 MUST checks\) 1 selected checks are out of scope/)
  })

  test('a skipped MUST inside the scope still makes it partial', () => {
    const partial = buildRunReport(
      makeReportInput([...results, makeCheckResult({ id: 'auth.revoked', status: 'skipped', message: 'CRM_API_KEY_REVOKED is not set' })], {
        profile: 'safe',
        scope,
      }),
    )
    expect(partial.verdict).toBe('partial')
    expect(partial.verdictReasons).toEqual(['MUST auth.revoked (§4.1) was skipped: CRM_API_KEY_REVOKED is not set'])
  })
})

describe('exit code of a run that tested nothing', () => {
  test('every check skipped, or none: 2', () => {
    expect(exitCodeFor({ checks: [makeCheckResult({ status: 'skipped' })] })).toBe(2)
    expect(exitCodeFor({ checks: [] })).toBe(2)
    expect(exitCodeFor({ checks: [makeCheckResult({ status: 'skipped' }), makeCheckResult({ status: 'error' })] })).toBe(1)
  })
})
