// Every check must be able to fail: each MUST or SHOULD check of the catalogue is named in the `catches` of at
// least one fault (which the fault shards then prove it fails), and no fault names a check that does not exist.
// INFO checks are observations, exempt.
import { expect, test } from 'vitest'
import { ALL_FAULTS } from '../../src/selfcheck/matrix.ts'
import { catalogue } from '../../suites/index.ts'

const named = new Set(ALL_FAULTS.flatMap((f) => f.catches ?? []))

test('every MUST and SHOULD check is named by at least one fault', () => {
  const unnamed = catalogue.filter((c) => c.level !== 'INFO' && !named.has(c.id)).map((c) => c.id)
  expect(unnamed, `${unnamed.length} checks no fault names`).toEqual([])
})

test('every check a fault names is in the catalogue', () => {
  const ids = new Set(catalogue.map((c) => c.id))
  const unknown = ALL_FAULTS.flatMap((f) => (f.catches ?? []).filter((id) => !ids.has(id)).map((id) => `${f.id}: ${id}`))
  expect(unknown).toEqual([])
})
