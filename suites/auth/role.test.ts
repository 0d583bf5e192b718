import { expect, it } from 'vitest'
import { parseDenial } from './role.ts'

it('reads a declared denial as a method, a collection of §4.2 and whether it names one record', () => {
  expect(parseDenial('DELETE /accounts/{id}')).toMatchObject({ method: 'DELETE', resource: 'account', item: true })
  expect(parseDenial('patch /opportunities/:id')).toMatchObject({ method: 'PATCH', resource: 'opportunity', item: true })
  expect(parseDenial('POST /products')).toMatchObject({ method: 'POST', resource: 'product', item: false })
  expect(parseDenial('GET /me')).toMatchObject({ method: 'GET', resource: undefined, item: false })
  expect(parseDenial('POST /accounts/{id}/merge')).toMatchObject({ resource: undefined, item: false })
})
