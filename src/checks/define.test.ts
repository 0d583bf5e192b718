import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { callSiteOf, defineCheck } from './define.ts'

/** The line of this file that holds `text` (1-based): the tests name no line number the formatter could move. */
const lineOf = (text: string): number =>
  readFileSync(fileURLToPath(import.meta.url), 'utf8')
    .split('\n')
    .findIndex((line) => line.includes(text)) + 1

const declared = () => defineCheck({ id: 'x.y.z', clauses: ['§1'], level: 'MUST', area: 'x', title: 'a check', run: async () => {} })

describe('defineCheck', () => {
  it('records its call site, relative to the package root, with the line of the call', () => {
    const check = defineCheck({ id: 'a.b.c', clauses: ['§1'], level: 'MUST', area: 'a', title: 'a check', run: async () => {} })
    expect(check.declaredAt).toBe(
      `src/checks/define.test.ts:${lineOf("defineCheck({ id: 'a.b.c', clauses: ['§1'], level: 'MUST', area: 'a', title: 'a check', run")}`,
    )
  })

  it("records the generator's call for a check a function declares", () => {
    expect(declared().declaredAt).toBe(`src/checks/define.test.ts:${lineOf('const declared = () => defineCheck(')}`)
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
