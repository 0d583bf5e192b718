import { RESOURCE_LIST, comparable } from '../../src/checks/index.ts'
import { describe, expect, it } from 'vitest'
import { quotedValue } from './quotes.ts'

const exact = RESOURCE_LIST.flatMap((r) => r.filters.filter((f) => f.kind === 'string').map((f) => ({ r, f })))

describe('quotedValue', () => {
  for (const { r, f } of exact) {
    it(`${r.name}.${f.param}: holds both quotes and the OR 'a'='a tail, already in the form §4.3 asks, new each time`, () => {
      const value = quotedValue(f)
      expect(value).toContain("'")
      expect(value).toContain('"')
      expect(value.toLowerCase()).toContain("' or 'a'='a")
      if (f.match !== 'e164') expect(comparable(f, value)).toBe(value)
      expect(quotedValue(f)).not.toBe(value)
    })
  }
})
