import { describe, expect, it } from 'vitest'
import { escapeHtml, renderHtml } from './html.ts'
import { HOSTILE_BODY, makeCheckResult, makeEvidence, makeExchange, makeReport } from './test-fixtures.ts'

describe('renderHtml', () => {
  const html = renderHtml(makeReport())

  it('is one self-contained page: no script, no external asset', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true)
    expect(html).not.toMatch(/<script/i)
    expect(html).not.toMatch(/<link\b|\bsrc=["']?https?:|@import|url\(/i)
    // Defence in depth: even a missed escape could not run a script or fetch anything, nor (base-uri, form-action:
    // directives default-src does not cover) re-point the page's links or send a form anywhere.
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"`)
  })

  it('escapes hostile response bodies, headers, messages and details', () => {
    expect(html).not.toContain(HOSTILE_BODY)
    expect(html).not.toMatch(/<img/i)
    expect(html).not.toContain('<b>bold</b>')
    expect(html).toContain('&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;')
    expect(html).toContain('&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;')
  })

  it('escapes hostile text in the header and attributes too', () => {
    const evil = '"><script>x()</script>'
    const page = renderHtml(
      makeReport([makeCheckResult({ id: `ids.${evil}`, clause: evil, title: evil, status: 'failed', replay: evil, notes: [evil] })], {
        target: { baseUrl: `https://x.test/v1?${evil}`, embedded: false },
        spec: { digest: evil, file: evil },
        runId: evil,
        capabilities: { [evil]: evil },
        leftovers: [{ resource: evil, id: evil, reason: evil }],
        config: { evil },
      }),
    )
    expect(page).not.toMatch(/<script/i)
    // Unescaped anywhere (text or attribute), the hostile text would appear verbatim.
    expect(page).not.toContain(evil)
    expect(page).toContain('data-check-id="ids.&quot;&gt;&lt;script&gt;x()&lt;/script&gt;"')
  })

  it('lists failures before harness errors, waived failures and the passes', () => {
    const failures = html.indexOf('data-testid="failures"')
    const firstPassRow = html.indexOf('data-status="passed"')
    expect(failures).toBeGreaterThan(-1)
    expect(failures).toBeLessThan(html.indexOf('data-testid="errors"'))
    expect(html.indexOf('data-testid="errors"')).toBeLessThan(html.indexOf('data-testid="waived"'))
    expect(html.indexOf('data-testid="waived"')).toBeLessThan(firstPassRow)
  })

  it('lists MUST failures before SHOULD ones, each with clause, evidence, curl and replay', () => {
    const ids = [...html.matchAll(/data-testid="failure" data-check-id="([^"]+)"/g)].map((m) => m[1])
    expect(ids).toEqual(['sample.must.failed', 'errors.not-found.hostile', 'sample.should.failed', 'sample.info.failed'])
    for (const testid of ['failure-clause', 'failure-evidence', 'failure-curl', 'failure-replay']) {
      expect(html.split(`data-testid="${testid}"`).length - 1).toBeGreaterThanOrEqual(4)
    }
    expect(html).toContain('crm-conformance run --only sample.must.failed --seed 424242')
    expect(html).toContain('<span class="clause" data-testid="failure-clause">§7.6</span>')
  })

  it('keeps the waived failure out of the failures list', () => {
    expect(html).not.toMatch(/data-testid="failure" data-check-id="auth\.revoked\.waived"/)
    expect(html).toMatch(/data-testid="waived" data-check-id="auth\.revoked\.waived"/)
  })

  it('shows the verdict, a short digest with the full one on hover, and the run facts', () => {
    expect(html).toContain('data-verdict="non-compliant"')
    expect(html).toMatch(/<abbr class="digest" title="sha256:a{56}0123beef" data-testid="spec-digest">a{12}<\/abbr>/)
    expect(html).toContain('424242')
    expect(html).toContain('1 min 06 s')
    expect(html).toContain('2026-01-01 00:00:00 UTC')
  })

  it('groups every check by clause in numeric clause order', () => {
    const clauses = [...html.matchAll(/data-testid="clause-group" data-clause="([^"]+)"/g)].map((m) => m[1])
    expect(clauses).toEqual(['§4.1', '§4.2', '§4.10', '§5.5', '§7.6', '§9'])
    expect(html.split('data-testid="check-row"').length - 1).toBe(15)
    expect(html).toContain('CRM_API_KEY_RESTRICTED is not set')
  })

  it('labels a check declared without a clause', () => {
    const page = renderHtml(makeReport([makeCheckResult({ clause: '', clauses: [], status: 'failed' })]))
    expect(page).toContain('data-testid="failure-clause">(no clause)</span>')
  })

  it('shows capabilities, leftovers, requests and the redacted configuration', () => {
    expect(html).toContain('lists.cursor.last-page.lastPageCursor')
    expect(html).toContain('00000000-0000-4000-8000-000000000001')
    expect(html).toMatch(/Requests \(14\)/)
    expect(html).toContain('&lt;redacted:CRM_API_KEY&gt;')
  })

  it('cuts a huge body on the page and says so', () => {
    const big = 'y'.repeat(200_000)
    const page = renderHtml(
      makeReport([makeCheckResult({ status: 'failed', evidence: [makeEvidence(makeExchange({ response: { status: 500, headers: {}, rawText: big } }))] })]),
    )
    expect(page.length).toBeLessThan(100_000)
    expect(page).toContain('report.json holds the whole text')
  })

  it('shows a transport error in place of a response', () => {
    const page = renderHtml(
      makeReport([
        makeCheckResult({
          status: 'error',
          evidence: [makeEvidence(makeExchange({ response: undefined, error: { code: 'CRMCONF_TIMEOUT', message: 'no response in 15 s' } }))],
        }),
      ]),
    )
    expect(page).toContain('No response: CRMCONF_TIMEOUT: no response in 15 s')
  })

  it('stays compact with 500 checks', () => {
    const results = Array.from({ length: 500 }, (_, i) =>
      makeCheckResult({ id: `bulk.check.n${i}`, clause: `§${1 + (i % 9)}.${i % 12}`, status: i % 5 === 0 ? 'failed' : 'passed' }),
    )
    const started = performance.now()
    const page = renderHtml(makeReport(results))
    expect(performance.now() - started).toBeLessThan(2_000)
    expect(page.split('data-testid="failure"').length - 1).toBe(100)
    expect(page.length).toBeLessThan(1_500_000)
  })
})

it('escapeHtml escapes the five characters', () => {
  expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;')
})

describe('renderHtml: where each check is declared', () => {
  it("shows the declaration on the check's row and on its failure, as a path from the package root", () => {
    const page = renderHtml(
      makeReport([
        makeCheckResult({ id: 'records.account.schema', status: 'failed', declaredAt: 'suites/records/round-trip.ts:56' }),
        makeCheckResult({ id: 'records.old', declaredAt: undefined }),
      ]),
    )
    expect(page).toMatch(
      /data-check-id="records\.account\.schema" data-status="failed">.*<span class="decl" data-testid="check-declared">suites\/records\/round-trip\.ts:56<\/span>/,
    )
    expect(page).toContain('<code class="copy" data-testid="failure-declared">suites/records/round-trip.ts:56</code>')
    expect(page.split('data-testid="check-declared"').length - 1).toBe(1)
  })
})
