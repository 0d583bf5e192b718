import { expect, test } from 'vitest'
import { isBodyJudged, isFromTheApi, isJsonContentType, missingRateHeaders } from './response.ts'

test('names the §8 rate headers a response lacks', () => {
  expect(missingRateHeaders({ 'ratelimit-limit': '600', 'ratelimit-remaining': '5', 'ratelimit-reset': '1' })).toEqual([])
  expect(missingRateHeaders({ 'ratelimit-limit': '600' })).toEqual(['ratelimit-remaining', 'ratelimit-reset'])
})

test('a gateway’s 502, 503 or 504 is not the API’s answer; a cut or 5xx body is not judged', () => {
  expect([500, 502, 503, 504].map(isFromTheApi)).toEqual([true, false, false, false])
  expect(isBodyJudged(400, false)).toBe(true)
  expect(isBodyJudged(400, true)).toBe(false)
  expect(isBodyJudged(500, undefined)).toBe(false)
})

test('JSON content types include +json types and parameters', () => {
  for (const type of ['application/json', 'application/json; charset=utf-8', 'application/problem+json', 'Application/JSON'])
    expect(isJsonContentType(type), type).toBe(true)
  for (const type of ['text/json', 'application/jsonp', 'text/html', undefined]) expect(isJsonContentType(type), String(type)).toBe(false)
})
