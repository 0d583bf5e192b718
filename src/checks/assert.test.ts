import { expect, it } from 'vitest'
import { pathNames } from './assert.ts'

it('accepts every common notation of a details path', () => {
  for (const p of ['email', '/email', 'body.email', '$.email', 'data.email']) expect(pathNames(p, 'email')).toBe(true)
  for (const p of ['items[0].name', '/items/0/name', 'items.0.name']) expect(pathNames(p, 'items.0.name')).toBe(true)
  expect(pathNames('name', 'email')).toBe(false)
  expect(pathNames(undefined, 'email')).toBe(false)
})
