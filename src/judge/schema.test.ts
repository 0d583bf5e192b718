import { expect, test } from 'vitest'
import { RECORD_EXAMPLES } from '../schemas/examples.ts'
import { schemaProblem } from './schema.ts'

test('a value matching its schema has no problem', () => {
  expect(schemaProblem('error', { error: { code: 'not_found', message: 'no such record' } })).toBeUndefined()
})

test('a problem lists the first five issues and counts the rest', () => {
  const broken = { ...RECORD_EXAMPLES.account, id: 1, name: 2, tags: 3, custom: 4, createdAt: 5, updatedAt: 6, email: 7 }
  const problem = schemaProblem('records/account', broken)!
  expect(problem.issues.length).toBeGreaterThan(5)
  expect(problem.summary.split('; ').length).toBe(6)
  expect(problem.summary).toMatch(new RegExp(`; and ${problem.issues.length - 5} more$`))
})
