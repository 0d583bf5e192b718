import { expect, test } from 'vitest'
import type { CheckDefinition } from '../checks/types.ts'
import type { RequestEstimates } from './estimate-table.ts'
import { scopesNeeded } from './scope-needs.ts'

const explorer = { id: 'explore.status', area: 'explore', writes: 'safe' } as CheckDefinition
const table: RequestEstimates = {
  source: 'test',
  checks: {},
  harness: {},
  // Under `full` the explorer also records an order from the accepted quotation, which it cannot delete.
  scopes: { explore: { safe: ['accounts:write', 'orders:write'] } },
  safeScopes: { explore: { safe: ['accounts:write'] } },
}

test('a safe run asks the main key only for what a safe run sends; a full run for what a full run sends', () => {
  expect(scopesNeeded([explorer], 'safe', table)).toEqual(['accounts:write'])
  expect(scopesNeeded([explorer], 'full', table)).toEqual(['accounts:write', 'orders:write'])
  // A table measured before safe runs were: the full run's needs, as before.
  expect(scopesNeeded([explorer], 'safe', { ...table, safeScopes: undefined })).toEqual(['accounts:write', 'orders:write'])
})
