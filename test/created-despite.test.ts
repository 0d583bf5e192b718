// A record another call of the run created is never taken for one a refused create left behind: the run's one
// order of the accepted quotation, listed late by a lagging list, once failed auth.scope.order.write in CI.
// In test/, not beside the helper: it builds a real Ledger, which a suite file may reach only through the check kit.
import { expect, test } from 'vitest'
import type { CheckContext } from '../src/checks/index.ts'
import { Ledger } from '../src/engine/ledger.ts'
import { createdDespite } from '../suites/shared/created-despite.ts'
import type { ValidBody } from '../suites/shared/bodies.ts'

function contextListing(ids: string[], ledger: Ledger): CheckContext {
  const api = { get: async () => ({ ok: true, status: 200, body: { data: ids.map((id) => ({ id, quoteId: 'q1' })) } }) }
  return { api, session: { ledger }, others: <T>(work: Promise<T>) => work } as unknown as CheckContext
}

const order: ValidBody = { body: { quoteId: 'q1' }, references: ['quotation'], lookup: { quoteId: 'q1' } }

test('an order the run created meanwhile, missing from the baseline, is not one the refused create left behind', async () => {
  const ledger = new Ledger()
  let settle!: (value: unknown) => void
  // The shared order's POST still on its way when the list is read: it is awaited, then known to the ledger.
  void ledger.creating(new Promise((resolve) => (settle = resolve))).then(() => ledger.track({ resource: 'order', id: 'ours', deletePath: '/orders/ours' }))
  const listed = createdDespite(contextListing(['ours', 'left-behind'], ledger), 'order', order, new Set())
  settle(undefined)
  expect((await listed).created).toEqual(['left-behind'])
})

test('with nothing of the run listed, a new record is still found', async () => {
  const result = await createdDespite(contextListing(['old', 'left-behind'], new Ledger()), 'order', order, new Set(['old']))
  expect(result.created).toEqual(['left-behind'])
})
