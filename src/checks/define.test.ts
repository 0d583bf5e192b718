import { describe, expect, it } from 'vitest'
import { callSiteOf, defineCheck } from './define.ts'

const declared = () => defineCheck({ id: 'x.y.z', clauses: ['§1'], level: 'MUST', area: 'x', title: 'a check', run: async () => {} })

describe('defineCheck', () => {
  it('records its call site, relative to the package root, with the line of the call', () => {
    const check = defineCheck({ id: 'a.b.c', clauses: ['§1'], level: 'MUST', area: 'a', title: 'a check', run: async () => {} })
    expect(check.declaredAt).toBe('src/checks/define.test.ts:9')
  })

  it("records the generator's call for a check a function declares", () => {
    expect(declared().declaredAt).toBe('src/checks/define.test.ts:5')
  })

  it('keeps a declaredAt given to it', () => {
    const check = defineCheck({ id: 'a.b.c', clauses: ['§1'], level: 'MUST', area: 'a', title: 'a check', declaredAt: 'suites/x.ts:1', run: async () => {} })
    expect(check.declaredAt).toBe('suites/x.ts:1')
  })

  it('names no site outside the package', () => {
    const outside = () => callSiteOf(outside)
    expect([outside()].map((site) => site?.replace(/:\d+$/, ''))).toEqual(['src/checks/define.test.ts'])
  })
})
