import { marked } from 'marked'
import { describe, expect, it } from 'vitest'
import { controlsIn, HOSTILE_ALL } from '../../test/hostile/corpus.ts'
import { mdCell } from '../text/markdown-cell.ts'
import { MAX_SUMMARY_BYTES, renderSummaryMarkdown } from './markdown.ts'
import { makeCheckResult, makeReport, sampleResults } from './test-fixtures.ts'

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

describe('summary.md rendered as GitHub renders it (marked, GFM): server text stays text', () => {
  const h = HOSTILE_ALL
  const results = sampleResults().map((r) => ({
    ...r,
    id: `${r.id}${h}`,
    title: `${r.title}${h}`,
    clause: `${r.clause}${h}`,
    message: `${r.message}${h}`,
    replay: `curl \`x\` \`\`y\`\` '${h}'`,
    waived: r.waived && { ...r.waived, reason: `${r.waived.reason}${h}`, expires: `2027-01-01${h}` },
  }))
  const report = makeReport(results)
  report.target.baseUrl = `https://crm.example.test/v1${h}`
  report.interrupted = { reason: `signal ${h}` } as typeof report.interrupted
  const md = renderSummaryMarkdown(report)
  const html = marked.parse(md, { gfm: true, async: false })
  const decode = (text: string) =>
    text
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&')
  const codeSpans = [...html.matchAll(/<code>([\s\S]*?)<\/code>/g)].map((m) => decode(m[1]!))
  // What GitHub post-processes for links, mentions, references and emoji: every text node outside a code span.
  const plain = decode(html.replace(/<code>[\s\S]*?<\/code>/g, ' ').replace(/<[^>]+>/g, ' '))

  it('creates no link, image or HTML element from server text', () => {
    expect(html).not.toMatch(/<a\s|<img|<script|<b>|<em>pwn/i)
    expect(html).toContain('<table>')
  })

  it('leaves nothing GitHub would act on outside code spans: autolinks, references, mentions, emoji shortcodes', () => {
    expect(plain).not.toMatch(/https?:\/\//i)
    expect(plain).not.toMatch(/\bwww\./i)
    expect(plain).not.toMatch(/(^|[^\w])@[a-z0-9]/i)
    expect(plain).not.toMatch(/#\d|\bGH-\d/i)
    expect(plain).not.toMatch(/:[a-z0-9_+-]+:/i)
    // The corpus did reach the summary, shown rather than acted on.
    expect(plain).toContain('octocat')
    expect(plain).toContain('\\e]52;')
  })

  it('shows bidi, control and XML-forbidden characters escaped, in code spans too', () => {
    for (const text of [plain, ...codeSpans]) {
      expect(controlsIn(text)).toEqual([])
      expect(text).not.toMatch(/[\uFFFE\uFFFF]|[\uD800-\uDFFF]/)
    }
  })

  it('keeps every table in shape: each row has as many cells as its header', () => {
    const tables = [...html.matchAll(/<table>([\s\S]*?)<\/table>/g)].map((m) => m[1]!)
    expect(tables.length).toBeGreaterThanOrEqual(3)
    for (const table of tables) {
      const header = (table.match(/<th[ >]/g) ?? []).length
      for (const row of table.match(/<tr>[\s\S]*?<\/tr>/g)!.slice(1)) expect((row.match(/<td[ >]/g) ?? []).length).toBe(header)
    }
  })

  it('quotes backticks in server text with a longer fence', () => {
    expect(codeSpans.some((c) => c.includes('`x` ``y``'))).toBe(true)
  })
})
