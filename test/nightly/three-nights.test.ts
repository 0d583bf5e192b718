// Issue 26: QA runs the suite every night against one long-lived workspace. With pools of three accepted
// quotations and three sent invoices, three runs in a row against one server kept running are each compliant,
// nothing skipped, and each uses up one record of each pool. Issue 38: the kept server plays alt-d, whose webhook
// sender retries at once and 100 ms later (byte for byte its attempt, in the same second) before it signs anew:
// the retry is proven each night (three-nights-retry-late.test.ts plays a sender whose first retry comes after 4 s).
import { afterAll, beforeAll, expect, test } from 'vitest'
import { catalogue } from '../../suites/index.ts'
import { expectCompliant, keepServer, threeNightPools, type KeptServer } from './serve-once.ts'

let kept: KeptServer
beforeAll(async () => {
  kept = await keepServer({ variant: 'alt-d' })
})
afterAll(async () => {
  await kept?.close()
})

test('three nights in a row against one kept server: compliant each time, nothing skipped, the webhook retry proven, one record of each pool used per night', async () => {
  const env = threeNightPools(kept.server)
  const chosen = new Set<string>()
  const earlier: number[] = []
  for (const night of [1, 2, 3]) {
    const { report, poolLines } = await kept.night(night, catalogue, { env })
    expectCompliant(report, night)
    const left = 4 - night
    for (const fixture of ['acceptedQuotationId', 'sentInvoiceId'] as const) {
      const pool = poolLines.find((p) => p.fixture === fixture)!
      expect(pool.line).toContain(`this run uses 1 (${left} night${left === 1 ? '' : 's'} left)`)
      expect(pool.usable).toBe(left)
      chosen.add(pool.chosen!)
    }
    expect(report.fixturePools?.map((p) => p.line)).toEqual(poolLines.map((p) => p.line))
    // The footprint: what this night left, and what earlier nights left that is still there, found by the label.
    const sum = (m: Record<string, number> = {}) => Object.values(m).reduce((a, b) => a + b, 0)
    expect(sum(report.footprint?.thisRun)).toBeGreaterThan(0)
    expect(report.footprint?.archived).toBeGreaterThan(0)
    earlier.push(sum(report.footprint?.earlierRuns))
    // An order has no text: it is known by the pool quotation it names.
    expect(report.footprint?.earlierRuns.order ?? 0).toBe(night - 1)
  }
  expect(earlier[0]).toBe(0)
  expect(earlier[1]).toBeGreaterThan(0)
  expect(earlier[2]).toBeGreaterThan(earlier[1]!)
  // Each night took a fresh quotation and a fresh invoice.
  expect(chosen.size).toBe(6)
}, 240_000)
