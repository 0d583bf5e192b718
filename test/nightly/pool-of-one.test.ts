// Issue 26: a pool of one accepted quotation and one sent invoice serves one night. The second run against the
// same kept server says before any check starts that the pools are empty, which MUST checks will skip and that
// the verdict can be at most partial, with the variable to set; and it ends partial for that reason.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { catalogue } from '../../suites/index.ts'
import { keepServer, type KeptServer } from './serve-once.ts'

let kept: KeptServer
beforeAll(async () => {
  kept = await keepServer()
})
afterAll(async () => {
  await kept?.close()
})

/** The areas that use the pools up or need them. */
const ONLY = ['state', 'idempotency', 'webhooks']

test('a pool of one: the second night warns before the checks and ends partial, naming the skipped MUST checks', async () => {
  const pools = kept.server.fixturePools
  const env = { CRM_FIXTURE_ACCEPTED_QUOTATION_ID: pools.acceptedQuotationId[0]!, CRM_FIXTURE_SENT_INVOICE_ID: pools.sentInvoiceId[0]! }
  const first = await kept.night(1, catalogue, { env, only: ONLY })
  expect(first.report.verdict, first.report.verdictReasons.join('; ')).toBe('compliant')
  expect(first.poolLines.find((p) => p.fixture === 'acceptedQuotationId')!.line).toContain(
    'this run uses 1 (1 night left); add ids to CRM_FIXTURE_ACCEPTED_QUOTATION_ID',
  )

  const second = await kept.night(2, catalogue, { env, only: ONLY })
  const quotations = second.poolLines.find((p) => p.fixture === 'acceptedQuotationId')!
  expect(quotations.usable).toBe(0)
  expect(quotations.line).toMatch(
    /^accepted quotations: none of 1 usable \(.+: has order .+\); MUST checks state\.order\.from-accepted, idempotency\.order\.replays will skip, so the verdict can be at most partial; set CRM_FIXTURE_ACCEPTED_QUOTATION_ID/,
  )
  const invoices = second.poolLines.find((p) => p.fixture === 'sentInvoiceId')!
  expect(invoices.line).toMatch(
    /^sent invoices: none of 1 usable \(.+: 0 sen outstanding.*\); MUST checks state\.payment\.raises-paid, idempotency\.payment\.replays will skip/,
  )
  expect(second.report.verdict).toBe('partial')
  for (const id of [...quotations.mustSkips, ...invoices.mustSkips]) {
    expect(second.report.checks.find((c) => c.id === id)?.status, id).toBe('skipped')
    expect(second.report.verdictReasons.join('\n')).toContain(id)
  }
  // Nothing else changed: the pools are the only reason.
  const otherMust = second.report.checks.filter(
    (c) => c.level === 'MUST' && c.status !== 'passed' && ![...quotations.mustSkips, ...invoices.mustSkips].includes(c.id),
  )
  expect(otherMust.map((c) => `${c.id}: ${c.message}`)).toEqual([])
  expect(second.report.fixturePools?.find((p) => p.fixture === 'acceptedQuotationId')?.line).toBe(quotations.line)
}, 180_000)
