// Shared by the fault shards: runs its share of the fault catalogue and leaves the rows for the summary.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { ALL_FAULTS, judgeFault, type FaultRow } from '../../src/selfcheck/matrix.ts'
import { catalogue } from '../../suites/index.ts'
import { SELFCHECK_DIR } from './paths.ts'

export function faultShard(shard: number, shards: number): void {
  const faults = ALL_FAULTS.filter((_, i) => i % shards === shard)
  const rows: FaultRow[] = []

  // Concurrent: a fault run mostly waits (Retry-After, webhook deliveries, list lag), it hardly computes.
  test.concurrent.each(faults.map((f) => [f.id, f] as const))(
    'fault %s is caught by the checks it names',
    async (_id, fault) => {
      const row = await judgeFault(fault, catalogue)
      rows.push(row)
      expect(row.expected, `${fault.id} names no check that must catch it`).not.toEqual([])
      expect(row.missed, `${fault.id}: expected checks that did not fail (other checks that failed: ${row.caughtBy.join(', ') || 'none'})`).toEqual([])
    },
    120_000,
  )

  afterAll(() => {
    mkdirSync(SELFCHECK_DIR, { recursive: true })
    writeFileSync(join(SELFCHECK_DIR, `faults-${shard}.json`), JSON.stringify(rows))
  })
}
