// No false failures: every legal variant of the reference server passes every MUST and SHOULD check.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { ALL_VARIANTS, judgeVariant, type VariantRow } from '../../src/selfcheck/matrix.ts'
import { catalogue } from '../../suites/index.ts'
import { SELFCHECK_DIR } from './paths.ts'

const rows: VariantRow[] = []

test.concurrent.each(ALL_VARIANTS.map((v) => [v]))(
  'variant %s fails no MUST or SHOULD check',
  async (variant) => {
    const row = await judgeVariant(variant, catalogue)
    rows.push(row)
    expect(row.falseFailures).toEqual([])
    expect(row.skipped, 'with every key and fixture of the embedded server, nothing is skipped').toBe(0)
  },
  120_000,
)

afterAll(() => {
  mkdirSync(SELFCHECK_DIR, { recursive: true })
  writeFileSync(join(SELFCHECK_DIR, 'variants.json'), JSON.stringify(rows))
})
