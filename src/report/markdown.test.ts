import { describe, expect, it } from 'vitest'
import { MAX_SUMMARY_BYTES, mdCell, renderSummaryMarkdown } from './markdown.ts'
import { makeCheckResult, makeReport } from './test-fixtures.ts'

describe('renderSummaryMarkdown', () => {
  const md = renderSummaryMarkdown(makeReport())

  it('starts with the verdict and an emoji', () => {
    expect(md.split('\n')[0]).toBe('## ❌ CRM API conformance: **non-compliant** — 2 MUST checks failed · 4/15 passed')
    expect(renderSummaryMarkdown(makeReport([makeCheckResult()]))).toMatch(/^## ✅ .*\*\*compliant\*\*/)
    expect(renderSummaryMarkdown(makeReport([makeCheckResult(), makeCheckResult({ status: 'skipped' })]))).toMatch(/^## ⚠️ .*\*\*partial\*\*/)
    expect(renderSummaryMarkdown(makeReport([makeCheckResult({ status: 'skipped' })]))).toMatch(
      /^## ⚠️ .*\*\*partial \(nothing tested: none of 1 checks reached the server\)\*\*/,
    )
  })

  it('has a counts table by level', () => {
    expect(md).toContain('| MUST | 1 | 2 | 1 | 1 | 1 | 6 |')
    expect(md).toContain('| **All** | 4 | 4 | 1 | 3 | 3 | 15 |')
  })

  it('lists failed MUST and SHOULD checks with replay, skipped and errored MUST with reasons', () => {
    expect(md).toContain('### Failed checks (MUST 2, SHOULD 1)')
    expect(md).toContain('`crm-conformance run --only sample.must.failed --seed 424242`')
    expect(md).not.toContain('sample.info.failed')
    expect(md).toMatch(/### Skipped MUST checks \(1\)[\s\S]*CRM_API_KEY_RESTRICTED is not set/)
    expect(md).toMatch(/### MUST checks that could not run[\s\S]*CRMCONF_TIMEOUT/)
    expect(md).toMatch(/### Waived failures \(1\)[\s\S]*vendor ticket CRM-12/)
  })

  it('ends with version, spec digest, seed and target', () => {
    const footer = md.slice(md.lastIndexOf('---'))
    expect(footer).toContain('crm-conformance 0.1.0')
    expect(footer).toContain('`aaaaaaaaaaaa`')
    expect(footer).toContain('seed `424242`')
    expect(footer).toContain('`https://crm.example.test/v1`')
  })

  it('neutralises server text: no HTML, no broken table, no mention', () => {
    expect(md).not.toContain('<b>')
    expect(mdCell('a | b\n<script>@team')).toBe('a \\| b &lt;script&gt;@\u200bteam')
  })

  it('stays under the cap with 500 long failures, saying how many more', () => {
    const results = Array.from({ length: 500 }, (_, i) =>
      makeCheckResult({
        id: `bulk.check.${'ü'.repeat(60)}${i}`,
        status: i % 3 === 0 ? 'skipped' : 'failed',
        level: i % 2 ? 'MUST' : 'SHOULD',
        message: '€'.repeat(2_000),
        title: '漢'.repeat(500),
      }),
    )
    const big = renderSummaryMarkdown(makeReport(results))
    expect(Buffer.byteLength(big, 'utf8')).toBeLessThan(MAX_SUMMARY_BYTES)
    expect(big).toMatch(/…and \d+ more failed checks/)
    expect(big).toContain('seed `424242`')
  })
})
