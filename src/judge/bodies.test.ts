import { expect, test } from 'vitest'
import { WRITE_EXAMPLES } from '../schemas/examples.ts'
import { bodyDefects } from './bodies.ts'

test('a valid write body has no defect; a resource without the write has no schema', () => {
  expect(bodyDefects('account', 'create', WRITE_EXAMPLES['account.create'])).toEqual([])
  expect(bodyDefects('account', 'replace', {})).toBeUndefined()
})

test('names a missing required field, a wrong type and a value outside an enum', () => {
  const paths = (body: unknown) => bodyDefects('account', 'create', body)!.map((i) => i.path)
  expect(paths({ email: '' })).toContain('name')
  expect(paths({ name: 5 })).toContain('name')
  expect(bodyDefects('lead', 'create', { ...WRITE_EXAMPLES['lead.create'], source: 'carrier pigeon' })!.length).toBeGreaterThan(0)
})

test('leaves an email string’s syntax open (§4.1), never its type', () => {
  expect(bodyDefects('account', 'create', { name: 'Acme', email: 'not an address' })).toEqual([])
  expect(bodyDefects('account', 'create', { name: 'Acme', email: 5 })!.map((i) => i.path)).toEqual(['email'])
})
