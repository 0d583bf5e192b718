import { expect, test } from 'vitest'
import { distinctInstants, firstMisordered } from './order.ts'

const at = (id: string, createdAt: string) => ({ id, createdAt })
const page = [at('a', '2026-01-01T00:00:00Z'), at('b', '2026-01-01T00:00:00.000Z'), at('c', '2026-01-02T00:00:00Z')]

test('ties are in order either way; the first pair out of order is named', () => {
  expect(firstMisordered(page, 'createdAt', 'asc')).toBeUndefined()
  expect(firstMisordered(page, 'createdAt', 'desc')).toEqual({ index: 2, earlier: page[1], later: page[2] })
  expect(firstMisordered([at('x', 'soon'), ...page], 'createdAt', 'asc')).toBeUndefined()
})

test('counts the instants a page holds, equal forms once', () => {
  expect(distinctInstants(page, 'createdAt')).toBe(2)
  expect(distinctInstants([at('x', 'soon')], 'createdAt')).toBe(0)
})
