import { describe, expect, test } from 'vitest'
import type { CheckDefinition } from '../checks/types.ts'
import { select, selectionProblem, selectionTerms } from './selection.ts'

const check = (id: string, clauses: string[]): CheckDefinition => ({ id, clauses, level: 'MUST', area: id.split('.')[0]!, title: id, run: async () => {} })
const CHECKS = [
  check('pagination.cursor.opaque', ['§4.1']),
  check('pagination.limit.max', ['§4.1', '§8']),
  check('auth.missing-key.read', ['§5.3']),
  check('records.account.schema', ['§2']),
]

describe('select', () => {
  test('by id, id prefix, area and clause', () => {
    expect(select(CHECKS, ['records.account']).map((c) => c.id)).toEqual(['records.account.schema'])
    expect(select(CHECKS, ['pagination'], ['pagination.limit.max']).map((c) => c.id)).toEqual(['pagination.cursor.opaque'])
    expect(select(CHECKS, ['§4']).length).toBe(2)
    expect(select(CHECKS, ['§8']).map((c) => c.id)).toEqual(['pagination.limit.max'])
  })
})

describe('a selection that selects nothing is refused, with the nearest terms', () => {
  test('every value that selects something: no problem', () => {
    expect(selectionProblem(CHECKS, ['pagination', '§5.3', 'records.account.schema'], ['§8'])).toBeUndefined()
    expect(selectionProblem(CHECKS)).toBeUndefined()
  })

  test('a typo of an area names the area', () => {
    expect(selectionProblem(CHECKS, ['pagnation'])).toBe('--only pagnation selects no check: did you mean pagination?')
  })

  test('a typo of an id names the id; case does not hide a suggestion', () => {
    expect(selectionProblem(CHECKS, ['auth.mising-key.read'])).toContain('did you mean auth.missing-key.read?')
    expect(selectionProblem(CHECKS, [], ['Auth'])).toBe('--skip Auth selects no check: did you mean auth?')
  })

  test('a clause no check cites: the nearest clauses, or the sections there are', () => {
    expect(selectionProblem(CHECKS, ['§4.9'])).toMatch(/^--only §4\.9 selects no check: did you mean §4\.1/)
    const far = selectionProblem(CHECKS, ['§99.12.4'])
    expect(far).toContain('the checks cite §2, §4, §5, §8 and their sub-clauses')
  })

  test('nothing near: says what a value can be', () => {
    expect(selectionProblem(CHECKS, ['zzzzzzzz'])).toContain('`crm-conformance list` prints them')
  })

  test('every bad value is listed, one line each', () => {
    expect(selectionProblem(CHECKS, ['pagnation', 'auth'], ['recrods'])?.split('\n')).toHaveLength(2)
  })

  test('--skip that removes everything --only chose', () => {
    expect(selectionProblem(CHECKS, ['auth'], ['§5.3'])).toBe('--skip §5.3 removes every check --only auth selects: nothing would run')
    expect(selectionProblem(CHECKS, [], ['pagination', 'auth', 'records'])).toContain('removes every check: nothing would run')
  })
})

describe('terms and distance', () => {
  test('terms hold id prefixes and parent clauses', () => {
    const { names, clauses } = selectionTerms(CHECKS)
    expect(names).toEqual(expect.arrayContaining(['pagination', 'pagination.cursor', 'pagination.cursor.opaque']))
    expect(clauses).toEqual(expect.arrayContaining(['§4', '§4.1', '§8']))
  })
})
