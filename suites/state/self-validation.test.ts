// Self-validation of the state and side-effects areas against the embedded reference server: every legal
// variant passes, the listing fallback (no fixture variables) passes, and every fault of these areas fails
// exactly the checks its catalogue entry names.
import { describe, expect, it } from 'vitest'
import { runInProcess } from '../../src/engine/in-process.ts'
import { FAULTS, VARIANT_NAMES } from '../../src/reference/index.ts'
import { checks as sideEffects } from '../side-effects/checks.ts'
import { checks as state } from './checks.ts'

const checks = [...state, ...sideEffects]
const AREAS = new Set(['state', 'side-effects'])
const OURS = FAULTS.filter((f) => AREAS.has(f.area))

function verdicts(results: { id: string; status: string; message: string }[]): Record<string, string> {
  return Object.fromEntries(results.filter((r) => r.status !== 'passed').map((r) => [r.id, `${r.status}: ${r.message}`]))
}

describe('state and side-effects against the reference server', () => {
  it.each(VARIANT_NAMES)('variant %s: every check passes', async (variant) => {
    const { results, session } = await runInProcess({ checks, embedded: { variant } })
    expect(verdicts(results)).toEqual({})
    const perArea = session.exchanges.filter((e) => AREAS.has(e.checkId?.split('.')[0] ?? ''))
    expect(perArea.length).toBeLessThanOrEqual(120)
  })

  it('finds the seeded records by listing when no fixture variable is set', async () => {
    const fixtures = { sentQuotationId: undefined, sentInvoiceId: undefined, acceptedQuotationId: undefined }
    const { results } = await runInProcess({ checks, config: { fixtures } })
    expect(verdicts(results)).toEqual({})
    const notes = results.filter((r) => r.notes.some((n) => n.includes('found by listing'))).map((r) => r.id)
    expect(notes).toEqual(expect.arrayContaining(['state.quotation.replace-non-draft', 'state.invoice.replace-non-draft', 'state.payment.raises-paid']))
  })

  it.each(OURS.map((f) => [f.id, f] as const))('fault %s is caught', async (id, fault) => {
    const catches = 'catches' in fault ? [...fault.catches] : []
    expect(catches.length).toBeGreaterThan(0)
    const { results } = await runInProcess({ checks, only: catches, embedded: { faults: [id] } })
    expect(Object.fromEntries(results.map((r) => [r.id, r.status]))).toEqual(Object.fromEntries(catches.map((c) => [c, 'failed'])))
  })
})
