import { expect, it } from 'vitest'
import { expectListEnvelope, pathNames } from './assert.ts'
import { CheckFailed } from './define.ts'

it('accepts every common notation of a details path', () => {
  for (const p of ['email', '/email', 'body.email', '$.email', 'data.email']) expect(pathNames(p, 'email')).toBe(true)
  for (const p of ['items[0].name', '/items/0/name', 'items.0.name']) expect(pathNames(p, 'items.0.name')).toBe(true)
  expect(pathNames('name', 'email')).toBe(false)
  expect(pathNames(undefined, 'email')).toBe(false)
})

it('judges a list page whole: nextCursor a string on every page, "" included, never absent or null (§2, §4.1)', () => {
  const page = (body: unknown) => ({ body, exchange: {} }) as unknown as Parameters<typeof expectListEnvelope>[0]
  expect(() => expectListEnvelope(page({ data: [], nextCursor: '' }), 'GET /contacts')).not.toThrow()
  expect(() => expectListEnvelope(page({ data: [{ id: 'a' }], nextCursor: 'abc' }), 'GET /contacts')).not.toThrow()
  expect(() => expectListEnvelope(page({ data: [] }), 'GET /contacts: page 2 of 2 (the last)')).toThrow(CheckFailed)
  expect(() => expectListEnvelope(page({ data: [] }), 'GET /contacts: page 2 of 2 (the last)')).toThrow(
    /page 2 of 2 \(the last\) is no list envelope.*nextCursor/,
  )
  expect(() => expectListEnvelope(page({ data: [], nextCursor: null }), 'GET /contacts')).toThrow(CheckFailed)
})
