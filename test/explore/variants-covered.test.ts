// Every legal variant of the reference server has its explorer proof file beside this one.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { VARIANT_NAMES } from '../../src/reference/index.ts'

test('each variant has a test/explore/variant-<name>.test.ts', () => {
  const missing = VARIANT_NAMES.filter((v) => !existsSync(join(import.meta.dirname, `variant-${v}.test.ts`)))
  expect(missing).toEqual([])
})
