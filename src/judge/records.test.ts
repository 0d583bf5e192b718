import { expect, test } from 'vitest'
import { writeOnlyShown } from './records.ts'

test('names the write-only fields a record shows (§2 "Writable but not in the record")', () => {
  expect(writeOnlyShown('account', { id: 'x', name: 'Acme' })).toEqual([])
  expect(writeOnlyShown('account', { id: 'x', backupOwnerId: null })).toEqual(['backupOwnerId'])
  expect(writeOnlyShown('contact', { accountId: 'a', accountRole: 'buyer' })).toEqual(['accountId', 'accountRole'])
  expect(writeOnlyShown('account', null)).toEqual([])
})
