import { expect, it } from 'vitest'
import { compareClauses } from './clause-order.ts'

it('orders clauses numerically, the way the spec reads', () => {
  const clauses = ['§4.10', '§9', '§4.2', 'other', '§4', '§10', '§1', '§4.1', '§4.1.2', '4.3']
  expect([...clauses].sort(compareClauses)).toEqual(['§1', '§4', '§4.1', '§4.1.2', '§4.2', '4.3', '§4.10', '§9', '§10', 'other'])
})
