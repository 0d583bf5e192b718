import { describe, expect, it } from 'vitest'
import { toReportJson } from './json.ts'
import { makeCheckResult, makeReport } from './test-fixtures.ts'

describe('toReportJson', () => {
  it('is pretty JSON that parses back to the report', () => {
    const report = makeReport()
    const text = toReportJson(report)
    expect(text.endsWith('}\n')).toBe(true)
    expect(text).toContain('\n  "tool": {')
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(report)))
  })

  it('writes the same text whatever order maps were filled in', () => {
    const a = makeReport(undefined, {
      requests: { total: 3, byArea: { auth: 1, records: 2 }, byKey: { main: 3 }, rateLimited: {} },
      config: { seed: 1, baseUrl: 'u' },
    })
    const b = makeReport(undefined, {
      requests: { total: 3, byKey: { main: 3 }, byArea: { records: 2, auth: 1 }, rateLimited: {} },
      config: { baseUrl: 'u', seed: 1 },
    })
    expect(toReportJson(a)).toBe(toReportJson(b))
  })

  it('puts the verdict near the top and the checks last, check fields in reading order', () => {
    const parsed = JSON.parse(toReportJson(makeReport()))
    const keys = Object.keys(parsed)
    expect(keys.indexOf('verdict')).toBeLessThan(keys.indexOf('summary'))
    expect(keys.at(-1)).toBe('checks')
    expect(Object.keys(parsed.checks[0]).slice(0, 4)).toEqual(['id', 'clause', 'clauses', 'level'])
    expect(Object.keys(parsed.checks[0].evidence[0].exchange.response.headers)).toEqual(['content-type', 'ratelimit-limit'])
  })

  it('writes a bigint in a check detail instead of throwing', () => {
    const report = makeReport([makeCheckResult({ data: { big: 10n ** 20n } })])
    expect(JSON.parse(toReportJson(report)).checks[0].data.big).toBe('100000000000000000000')
  })
})
