import { describe, expect, it } from 'vitest'
import { catalogue } from '../../suites/index.ts'
import { STATEMENTS } from './clauses.ts'

const matches = (pattern: string, id: string) => (pattern.endsWith('*') ? id.startsWith(pattern.slice(0, -1)) : id === pattern)

describe('the clause registry', () => {
  it('has unique statement ids', () => {
    expect(new Set(STATEMENTS.map((s) => s.id)).size).toBe(STATEMENTS.length)
  })

  it('names each statement <clause>/<slug> after its own clause', () => {
    expect(STATEMENTS.filter((s) => !s.id.startsWith(`${s.clause}/`)).map((s) => s.id)).toEqual([])
  })

  it('covers or explains every MUST statement', () => {
    const bare = STATEMENTS.filter((s) => s.level === 'MUST' && !s.checks?.length && !s.untestable)
    expect(bare.map((s) => s.id)).toEqual([])
  })

  it('names only checks that exist', () => {
    const ids = catalogue.map((c) => c.id)
    const dangling = STATEMENTS.flatMap((s) => (s.checks ?? []).filter((p) => !ids.some((id) => matches(p, id))).map((p) => `${s.id} → ${p}`))
    expect(dangling).toEqual([])
  })
})
