// With only CRM_API_KEY (no optional key, no webhook secret, no fixture id), a run against a conformant
// server fails nothing: every check that needs what is missing is skipped, naming the variable, and the
// seeded records the API cannot create are found by listing instead.
import { describe, expect, it } from 'vitest'
import { KEY_VARIABLES, type KeyRole } from '../../src/config/config.ts'
import { runInProcess } from '../../src/run/in-process.ts'
import { catalogue } from '../../suites/index.ts'

const OPTIONAL_ROLES = Object.keys(KEY_VARIABLES).filter((r) => r !== 'main') as KeyRole[]
const noOptionalKeys = Object.fromEntries(OPTIONAL_ROLES.map((r) => [r, undefined]))
const noFixtures = { acceptedQuotationId: undefined, sentQuotationId: undefined, sentInvoiceId: undefined, conversationId: undefined }

const notPassed = (results: { id: string; status: string; message: string }[], status: string) =>
  Object.fromEntries(results.filter((r) => r.status === status).map((r) => [r.id, r.message]))

describe('a run with only the main key', () => {
  it('skips, naming the variable, every check that needs an optional key or the webhook secret, and fails none', async () => {
    const { results } = await runInProcess({
      checks: catalogue,
      config: { keys: noOptionalKeys, webhookSecret: '', restrictedScopes: undefined, fixtures: noFixtures },
    })
    expect(notPassed(results, 'failed')).toEqual({})
    expect(notPassed(results, 'error')).toEqual({})
    for (const check of catalogue) {
      const result = results.find((r) => r.id === check.id)!
      if (check.keys?.some((k) => k !== 'main')) {
        expect(result.status, check.id).toBe('skipped')
        expect(result.message, check.id).toMatch(/CRM_API_KEY_[A-Z_]+ is not set/)
      }
      if (check.webhooks) expect(result.message, check.id).toBe('CRM_WEBHOOK_SECRET is not set')
    }
  }, 120_000)

  it('finds the records the API cannot create by listing when no CRM_FIXTURE_* is set', async () => {
    const { results } = await runInProcess({ checks: catalogue, only: ['state', 'webhooks.invoice.paid'], config: { fixtures: noFixtures } })
    expect(notPassed(results, 'failed')).toEqual({})
    expect(notPassed(results, 'skipped')).toEqual({})
    expect(results.filter((r) => r.notes.some((n) => n.includes('found by listing'))).length).toBeGreaterThan(0)
  }, 120_000)

  it('skips the webhook delivery rules, never passes them, when no delivery arrives', async () => {
    const { results } = await runInProcess({
      checks: catalogue,
      only: ['webhooks.delivery.signature'],
      config: { webhookTimeoutS: 1 },
      embedded: { faults: ['webhooks.no-case-created'] },
    })
    // The sink starts with the session, so only the deliveries of this one check's own records count.
    expect(results[0]!.status).toBe('skipped')
  }, 60_000)
})
