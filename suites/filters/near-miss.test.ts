import { RESOURCES, recordMatches } from '../../src/checks/index.ts'
import { describe, expect, it } from 'vitest'
import { NEAR_MISS_PLANS, NOT_PROBED, WILDCARD_PLANS } from './near-miss.ts'

const filterOf = (resource: keyof typeof RESOURCES, param: string) => RESOURCES[resource].filters.find((f) => f.param === param)!

describe('near-miss plans', () => {
  it('cover every exact string or enum filter of §4.3, probed or listed with a reason', () => {
    const exact = Object.values(RESOURCES).flatMap((r) => r.filters.filter((f) => f.kind !== 'uuid').map((f) => `${r.name}.${f.param}`))
    const covered = [...NEAR_MISS_PLANS.map((p) => `${p.resource}.${p.param}`), ...Object.keys(NOT_PROBED)]
    expect(covered.sort()).toEqual(exact.sort())
  })

  for (const plan of NEAR_MISS_PLANS) {
    it(`${plan.resource}.${plan.param}: every near miss nearly matches, never matches, and is unique as the server compares it`, () => {
      const filter = filterOf(plan.resource, plan.param)
      const { target, misses } = plan.values()
      expect(recordMatches(filter, { [filter.field]: target }, target)).toBe(true)
      for (const m of misses) {
        expect(recordMatches(filter, { [filter.field]: m.value }, target), m.how).toBe(false)
        const [a, b] = [m.value.toLowerCase(), target.toLowerCase()]
        expect(a.includes(b) || b.includes(a), `${m.value} nearly matches ${target}`).toBe(true)
      }
      // Apart even where the server folds case (email, SKU); an exact filter's other-case twin is the point.
      const fold = (v: string) => (filter.match === 'exact' ? v : v.toLowerCase())
      const folded = [target, ...misses.map((m) => m.value)].map(fold)
      expect(new Set(folded).size).toBe(folded.length)
    })
  }

  it('stay in reserved test data: example.com addresses, +1 202 555 01xx numbers and their unroutable neighbours', () => {
    for (const plan of NEAR_MISS_PLANS) {
      const { target, misses } = plan.values()
      for (const value of [target, ...misses.map((m) => m.value)]) {
        if (plan.param === 'email') expect(value.toLowerCase()).toMatch(/@example\.com(\.example\.com)?$/)
        if (plan.param === 'mobile') expect(value).toMatch(/^\+1202555\d{3,5}$/)
      }
    }
  })

  for (const plan of WILDCARD_PLANS) {
    it(`${plan.resource}.${plan.param} wildcards: every miss is matched by the queried value read as a pattern, never exactly`, () => {
      const filter = filterOf(plan.resource, plan.param)
      const { target, misses } = plan.values()
      expect(recordMatches(filter, { [filter.field]: target }, target)).toBe(true)
      expect(target).toMatch(/[%_*]/)
      // SQL LIKE with % and * as any text and _ as any character, case folded where §4.3 fixes the case.
      const folded = filter.match !== 'exact'
      const like = new RegExp(
        `^${[...target].map((c) => (c === '%' || c === '*' ? '.*' : c === '_' ? '.' : c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('')}$`,
        folded ? 'i' : '',
      )
      for (const m of misses) expect(recordMatches(filter, { [filter.field]: m.value }, target), m.how).toBe(false)
      expect(misses.some((m) => like.test(m.value))).toBe(true)
      if (plan.param === 'email') for (const v of [target, ...misses.map((m) => m.value)]) expect(v.toLowerCase()).toMatch(/@example\.com$/)
    })
  }
})
