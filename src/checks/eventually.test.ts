import { expect, it } from 'vitest'
import { pausesWithin } from './eventually.ts'

it('spreads the looks over the window: short pauses first, none longer than a second, ending on its edge', () => {
  expect(pausesWithin(5_000)).toEqual([100, 200, 400, 800, 1_000, 1_000, 1_000, 500])
  expect(pausesWithin(250)).toEqual([100, 150])
  expect(pausesWithin(0)).toEqual([])
})
