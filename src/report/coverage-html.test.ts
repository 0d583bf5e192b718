import { describe, expect, it } from 'vitest'
import { coverageBlock } from '../coverage/matrix.ts'
import { escapeHtml } from './html.ts'
import { renderCoverageSection } from './coverage-html.ts'

describe('report.html coverage section', () => {
  it('is absent without a coverage block', () => {
    expect(renderCoverageSection(undefined, escapeHtml)).toBe('')
  })

  it('folds one row per statement with its share and the open cells by reason, escaped', () => {
    const block = coverageBlock(['filters.account.email.sound'], 'run', ['filters.account.email.sound', 'filters.account.email.complete'])
    const html = renderCoverageSection(block, escapeHtml)
    expect(html).toMatch(/^<section id="coverage" data-testid="coverage"><h2>Requirement coverage: \d+ of \d+ cells \([\d.]+%\)<\/h2><details><summary>/)
    expect(html.match(/data-testid="coverage-row"/g)).toHaveLength(block.statements.length)
    expect(html).toContain('open (not-run)')
    const hostile = { ...block, statements: [{ ...block.statements[0], open: [{ kind: 'not-built' as const, reason: '<script>x</script>', cells: ['a<b'] }] }] }
    const escaped = renderCoverageSection(hostile, escapeHtml)
    expect(escaped).not.toContain('<script>')
    expect(escaped).toContain('a&lt;b')
  })
})
