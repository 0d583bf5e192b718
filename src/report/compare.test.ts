import { describe, expect, it } from 'vitest'
import { cellText, renderCompareHtml, renderCompareMarkdown } from './compare-render.ts'
import { clauseHeading, compareReports, type ComparableReport } from './compare.ts'

type Check = ComparableReport['checks'][number]
const check = (id: string, clauses: string[], level: Check['level'], status: Check['status'], waived?: unknown): Check => ({
  id,
  clause: clauses[0]!,
  clauses,
  level,
  status,
  ...(waived ? { waived } : {}),
})
const report = (checks: Check[], extra: Partial<ComparableReport> = {}): ComparableReport => ({
  tool: { name: 'crm-conformance', version: '1.0.0' },
  verdict: 'compliant',
  startedAt: '2026-11-28T10:00:00.000Z',
  scope: { complete: true },
  checks,
  ...extra,
})

describe('compareReports', () => {
  const a = report([
    check('x.must', ['§4.10'], 'MUST', 'passed'),
    check('x.two-clauses', ['§4.2', '§8'], 'MUST', 'failed'),
    check('x.should', ['§8'], 'SHOULD', 'passed'),
    check('x.skip', ['§6.5'], 'MUST', 'skipped'),
  ])
  const b = report(
    [
      check('x.must', ['§4.10'], 'MUST', 'passed'),
      check('x.two-clauses', ['§4.2', '§8'], 'MUST', 'failed', { reason: 'known' }),
      check('x.should', ['§8'], 'SHOULD', 'failed'),
      check('x.err', ['§7.3'], 'MUST', 'error'),
    ],
    { tool: { name: 'crm-conformance', version: '1.1.0' }, capabilities: { 'update.method': ['PUT'] } },
  )
  const comparison = compareReports([
    { label: 'runs/a', report: a, product: { product: 'Acme CRM', version: '3.1' } },
    { label: 'runs/b', report: { ...b, target: { embedded: true, variant: 'alt-a' } } },
  ])

  it('orders clauses as the spec reads, numeric-aware, and counts a check under each of its clauses', () => {
    expect(comparison.rows.map((r) => r.clause)).toEqual(['§4.2', '§4.10', '§6.5', '§7.3', '§8'])
    const eight = comparison.rows.find((r) => r.clause === '§8')!
    expect(eight.cells.map((c) => [c.outcome, c.total])).toEqual([
      ['must-failed', 2],
      ['should-failed', 2],
    ])
  })

  it('ranks the worst outcome, keeps waived failures apart, and says when a clause was not run', () => {
    const byClause = Object.fromEntries(comparison.rows.map((r) => [r.clause, r.cells.map(cellText)]))
    expect(byClause['§4.2']).toEqual(['❌ 0/1 (1 failed)', '✅ 0/1 (1 waived)'])
    expect(byClause['§8']).toEqual(['❌ 1/2 (1 failed)', '🟠 0/2 (1 failed, 1 waived)'])
    expect(byClause['§6.5']).toEqual(['⏭️ 0/1 (1 skipped)', '—'])
    expect(byClause['§7.3']).toEqual(['—', '⚠️ 0/1 (1 errored)'])
    expect(comparison.rows.find((r) => r.clause === '§4.10')!.differs).toBe(false)
    expect(comparison.rows.find((r) => r.clause === '§4.2')!.differs).toBe(true)
  })

  it('names each column from PRODUCT.json or from the report, and warns when suite versions differ', () => {
    expect(comparison.columns.map((c) => [c.product, c.version, c.date, c.suiteVersion])).toEqual([
      ['Acme CRM', '3.1', '2026-11-28', '1.0.0'],
      ['embedded reference server', 'variant alt-a', '2026-11-28', '1.1.0'],
    ])
    expect(comparison.warnings).toEqual([expect.stringMatching(/different suite versions \(1\.0\.0, 1\.1\.0\)/)])
    const update = comparison.capabilities.find((s) => s.heading === 'Update method')!
    expect(update.rows).toEqual([{ key: 'update.method', values: [undefined, '["PUT"]'], differs: false }])
  })

  it('titles a clause from the spec: its own heading, or the section it is a rule of', () => {
    expect(clauseHeading('§4.1')).toEqual({ text: 'Conventions', own: true })
    expect(clauseHeading('§5.3')).toEqual({ text: 'Authentication', own: false })
    expect(clauseHeading('not a clause')).toBeUndefined()
  })

  it('renders both forms with a legend and every outcome symbol explained', () => {
    const md = renderCompareMarkdown(comparison, new Date('2026-11-28T12:00:00Z'))
    const html = renderCompareHtml(comparison, new Date('2026-11-28T12:00:00Z'))
    for (const symbol of ['❌', '🟠', '⚠️', '✅', '⏭️', '—', '≠']) {
      expect(md).toMatch(new RegExp(`^- ${symbol} `, 'm'))
      expect(html).toContain(`${symbol}`)
    }
    expect(md).toContain('| §4.10 (in Endpoints) |  | ✅ 1/1 | ✅ 1/1 |')
    expect(md).toContain('- **A: a**: MUST x.two-clauses (failed)\n- **B: b**: MUST x.err (error); SHOULD x.should (failed)')
    expect(html).toContain('<th scope="col">A: a</th><th scope="col">B: b</th>')
  })
})
