import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { CheckDefinition } from '../checks/types.ts'
import { PROJECT_ROOT } from '../version.ts'
import { declarationFrom, whereChecks } from './where.ts'

const check = (id: string, clauses: string[], declaredAt?: string): CheckDefinition => ({
  id,
  clauses,
  level: 'MUST',
  area: id.split('.')[0]!,
  title: `title of ${id}`,
  declaredAt,
  run: async () => {},
})
const checks = [
  check('records.account.schema', ['§2', '§4.2'], 'suites/records/round-trip.ts:56'),
  check('filters.account.email.sound', ['§4.3', '§4.1'], 'suites/filters/checks.ts:65'),
  check('state.names', ['§3']),
]

describe('list --where', () => {
  it('prints the file and line of each check an id, an area or a clause selects', () => {
    expect(whereChecks(checks, ['records.account.schema'], PROJECT_ROOT).lines).toEqual([
      'suites/records/round-trip.ts:56  records.account.schema  MUST  §2,§4.2  title of records.account.schema',
    ])
    expect(whereChecks(checks, ['§4.3'], PROJECT_ROOT).checks.map((c) => c.id)).toEqual(['filters.account.email.sound'])
    expect(whereChecks(checks, ['state'], PROJECT_ROOT).lines).toEqual(['(declaration not recorded)  state.names  MUST  §3  title of state.names'])
  })

  it('gives the path from the working directory', () => {
    expect(declarationFrom('suites/filters/checks.ts:65', join(PROJECT_ROOT, 'suites'))).toBe('filters/checks.ts:65')
  })

  it('names a value that selects nothing, with the nearest id', () => {
    const answer = whereChecks(checks, ['records.acount.schema'], PROJECT_ROOT)
    expect(answer.lines).toEqual([])
    expect(answer.problem).toBe('--where records.acount.schema selects no check: did you mean records.account.schema?')
  })
})
