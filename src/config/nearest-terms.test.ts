import { expect, test } from 'vitest'
import { nearestTerms } from './nearest-terms.ts'

test('a short value finds nothing far from it', () => {
  expect(nearestTerms('xyz', ['auth', 'records'])).toEqual([])
  expect(nearestTerms('reocrds', ['auth', 'records'])).toEqual(['records'])
})
