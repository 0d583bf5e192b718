import { expect, test } from 'vitest'
import { noteCapabilityIn } from './note-capability.ts'

test('each value is noted once under its name, in the order met', () => {
  const capabilities: Record<string, unknown> = { other: 1 }
  noteCapabilityIn(capabilities, 'delete.status', '204')
  noteCapabilityIn(capabilities, 'delete.status', '200')
  noteCapabilityIn(capabilities, 'delete.status', '204')
  expect(capabilities).toEqual({ other: 1, 'delete.status': ['204', '200'] })
})
