import { expect, it } from 'vitest'
import { fractionDigits, shownPrecision } from './precision.ts'

it('counts the fractional digits of a shown timestamp', () => {
  expect(fractionDigits('2026-11-24T00:00:05.120Z')).toBe(3)
  expect(fractionDigits('2026-11-24T00:00:05Z')).toBe(0)
  expect(fractionDigits('2026-11-24T08:00:05.123456+08:00')).toBe(6)
  expect(fractionDigits('2026-11-24')).toBeUndefined()
  expect(fractionDigits(null)).toBeUndefined()
})

it('calls a precision uniform only when every timestamp has the same number of digits', () => {
  expect(shownPrecision(['2026-11-24T00:00:05.120Z', '2026-11-24T00:00:06.000Z'])).toEqual({ digits: [3], uniform: true })
  expect(shownPrecision(['2026-11-24T00:00:05.12Z', '2026-11-24T00:00:06.123Z'])).toEqual({ digits: [2, 3], uniform: false })
  expect(shownPrecision([]).uniform).toBe(false)
})
