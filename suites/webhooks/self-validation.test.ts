// Self-validation of the webhooks area against the embedded reference server: every legal variant passes
// within the area's request budget, the invoice is found by listing when no fixture is set, a run without any
// delivery skips the delivery rules (never passes them), and every webhook fault fails the checks it names.
import { describe, expect, it } from 'vitest'
import { runInProcess } from '../../src/engine/in-process.ts'
import { FAULTS, VARIANT_NAMES } from '../../src/reference/index.ts'
import { checks as state } from '../state/checks.ts'
import { checks } from './checks.ts'

/** Short waits: the reference server delivers within milliseconds and retries after 500 ms. */
const config = { webhookTimeoutS: 3 }
const BUDGET = 15
const OURS = FAULTS.filter((f) => f.area === 'webhooks')

function verdicts(results: { id: string; status: string; message: string }[]): Record<string, string> {
  return Object.fromEntries(results.filter((r) => r.status !== 'passed').map((r) => [r.id, `${r.status}: ${r.message}`]))
}

describe('webhooks against the reference server', () => {
  it.each(VARIANT_NAMES)('variant %s: every check passes within the budget, after the state area paid part of the invoice', async (variant) => {
    const { results, session } = await runInProcess({ checks: [...state, ...checks], config, embedded: { variant } })
    expect(verdicts(results)).toEqual({})
    expect(session.exchanges.filter((e) => e.checkId?.startsWith('webhooks.')).length).toBeLessThanOrEqual(BUDGET)
  })

  it('finds a sent invoice by listing when CRM_FIXTURE_SENT_INVOICE_ID is not set', async () => {
    const { results } = await runInProcess({ checks, only: ['webhooks.invoice.paid'], config: { ...config, fixtures: { sentInvoiceId: undefined } } })
    expect(verdicts(results)).toEqual({})
    expect(results[0]!.notes.join(' ')).toContain('found by listing')
  })

  it('skips the delivery rules, naming why, when no delivery arrives', async () => {
    const { results } = await runInProcess({ checks, only: ['webhooks.delivery.signature'], config: { webhookTimeoutS: 1 }, embedded: { faults: ['webhooks.no-case-created'] } })
    expect(results[0]!.status).toBe('skipped')
    expect(results[0]!.message).toContain('no webhook delivery reached the sink')
  })

  it('is skipped, naming the variable, without a webhook secret', async () => {
    const { results } = await runInProcess({ checks, only: ['webhooks'], config: { baseUrl: 'http://127.0.0.1:9', webhookSecret: undefined } })
    expect(new Set(results.map((r) => r.message))).toEqual(new Set(['CRM_WEBHOOK_SECRET is not set']))
  })

  it.each(OURS.map((f) => [f.id, f] as const))('fault %s is caught', async (id, fault) => {
    const catches = 'catches' in fault ? [...fault.catches] : []
    expect(catches.length).toBeGreaterThan(0)
    const { results } = await runInProcess({ checks, only: catches, config, embedded: { faults: [id] } })
    expect(Object.fromEntries(results.map((r) => [r.id, r.status]))).toEqual(Object.fromEntries(catches.map((c) => [c, 'failed'])))
  })
})
