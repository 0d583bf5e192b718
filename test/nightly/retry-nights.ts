// Issue 38: QA's nightly run against one staging server whose webhook sender follows a retry schedule of its own
// (§6.7 names none). Three nights in a row against one kept reference server playing a variant's schedule, every
// key and a fixture pool: compliant each night, nothing skipped, the probe's retry proven each night.
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { VariantName } from '../../src/reference/index.ts'
import { catalogue } from '../../suites/index.ts'
import { keepServer, threeNightPools, type KeptServer } from './serve-once.ts'

/** Registers the three-night test against a kept server of `variant`, whose webhook retry schedule `schedule` describes. */
export function threeRetryNights(variant: VariantName, schedule: string): void {
  let kept: KeptServer
  beforeAll(async () => {
    kept = await keepServer({ variant })
  })
  afterAll(async () => {
    await kept?.close()
  })

  test(`three nights against one kept ${variant} server, whose sender ${schedule}: compliant each night, nothing skipped`, async () => {
    const env = threeNightPools(kept.server)
    for (const night of [1, 2, 3]) {
      const { report } = await kept.night(night, catalogue, { env })
      const notPassed = report.checks.filter((c) => c.status !== 'passed').map((c) => `${c.id}: ${c.status} ${c.message}`)
      expect(notPassed, `night ${night}`).toEqual([])
      expect(report.verdict, `night ${night}: ${report.verdictReasons.join('; ')}`).toBe('compliant')
      const arrives = report.checks.find((c) => c.id === 'webhooks.retry.arrives')!
      expect(arrives.observations.retryDelayMs, `night ${night}`).toBeGreaterThan(0)
    }
  }, 300_000)
}
