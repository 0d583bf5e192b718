import { describe, expect, it } from 'vitest'
import { renderHtml } from '../report/html.ts'
import { toReportJson } from '../report/json.ts'
import { renderSummaryMarkdown } from '../report/markdown.ts'
import { makeReport } from '../report/test-fixtures.ts'
import { describeFinding, findSecretShapes, looksRandom } from './secret-patterns.ts'

// Shaped like the reference server's keys and secrets (src/reference/seed.ts), never real ones.
const KEY = 'crm_ws_main_Q7fT2mK9xLp4Rv8Zb1Nc6Hd3Wj5Ys0Ae'
const WHSEC = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw+/0123456789='

describe('findSecretShapes', () => {
  it('finds a key in JSON, a written-out bearer token, a whsec_ secret raw and URL-encoded, a private key', () => {
    const text = [
      `{"authorization": "Bearer ${KEY}"}`,
      `{"note": "the key ${KEY} was echoed"}`,
      `secret=${WHSEC}`,
      `https://sink.example/?s=${encodeURIComponent(WHSEC)}`,
      'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.abc123DEF',
      '-----BEGIN RSA PRIVATE KEY-----',
    ].join('\n')
    expect(findSecretShapes(text, 'report.json').map((f) => [f.line, f.shape])).toEqual([
      [1, 'bearer-token'],
      [2, 'api-key'],
      [3, 'webhook-secret'],
      [4, 'webhook-secret'],
      [5, 'bearer-token'],
      [6, 'private-key'],
    ])
  })

  it('never repeats the value: the hint shows a few leading characters and the length', () => {
    const [finding] = findSecretShapes(`x ${KEY} y`, 'README.md')
    const message = describeFinding(finding!)
    expect(message).toBe(`README.md line 1 holds what looks like an API key (<prefix>_<workspace>_<secret>): crm_ws… (${KEY.length} characters)`)
    expect(message).not.toContain(KEY.split('_').at(-1))
  })

  it('ignores redaction markers, curl variables, WWW-Authenticate parameters and ordinary identifiers', () => {
    const text = [
      '"authorization": "Bearer <redacted:CRM_API_KEY>"',
      '"authorization": "Bearer <redacted>"',
      '<td>Bearer &lt;redacted:CRM_API_KEY&gt;</td>',
      `curl -H "Authorization: Bearer $CRM_API_KEY_RESTRICTED"`,
      'www-authenticate: Bearer realm="crm", error="invalid_token"',
      'Bearer',
      'CRM_FIXTURE_ACCEPTED_QUOTATION_ID idempotency_conflict invalid_state rate_limited',
      'crmconf-run-20261122-055929-4a146b 23f1540c-7133-4800-a3f5-f93bc98d3fe3',
      'whsec_ (the prefix alone) whsec_short',
      'records_account_schema_is_valid_for_every_record',
    ].join('\n')
    expect(findSecretShapes(text, 'report.html')).toEqual([])
  })

  it('finds nothing in the report files of a synthetic run (redacted keys, curl lines, hostile bodies)', () => {
    const report = makeReport()
    for (const [name, text] of [
      ['report.json', toReportJson(report)],
      ['report.html', renderHtml(report)],
      ['summary.md', renderSummaryMarkdown(report)],
    ] as const) {
      expect(findSecretShapes(text, name)).toEqual([])
    }
  })

  it('looksRandom: long, mixed, varied', () => {
    expect(looksRandom('Q7fT2mK9xLp4Rv8Zb1Nc')).toBe(true)
    expect(looksRandom('aaaaaaaaaaaaaaaaaaaaaaaa1')).toBe(false)
    expect(looksRandom('everyrecordisvalidnow')).toBe(false)
    expect(looksRandom('Q7fT2mK9')).toBe(false)
  })
})
