import { expect, test } from 'vitest'
import { notCreatedAsDraft } from './draft.ts'

test('a created quotation or invoice is a draft, and nothing else is', () => {
  expect(notCreatedAsDraft('quotation', 'draft')).toBeUndefined()
  expect(notCreatedAsDraft('invoice', 'sent')).toEqual({
    message: 'created invoice has status "sent", expected "draft" (§3)',
    expected: 'status "draft": invoices are "created as a draft" (§3, §4.2 "create (draft)")',
  })
  expect(notCreatedAsDraft('quotation', undefined)?.message).toMatch(/status undefined/)
  expect(notCreatedAsDraft('quotation', 'Draft')).toBeDefined()
})
