import { expect, it } from 'vitest'
import { keyUnset, loadConfig, parseFixturePool } from './config.ts'

const load = (env: Record<string, string>) => loadConfig(env, { envFile: false, seed: 1 })

it("reads the role-limited key's denied operations as METHOD /path pairs", () => {
  const config = load({ CRM_API_KEY_ROLE_LIMITED: 'crm_ws_x_secret', CRM_API_KEY_ROLE_LIMITED_DENIED: ' DELETE /accounts/{id}  POST /products ' })
  expect(config.keys.roleLimited).toBe('crm_ws_x_secret')
  expect(config.roleLimitedDenied).toEqual(['DELETE /accounts/{id}', 'POST /products'])
  expect(load({}).roleLimitedDenied).toBeUndefined()
})

it('refuses denied operations that are not METHOD /path pairs', () => {
  expect(() => load({ CRM_API_KEY_ROLE_LIMITED_DENIED: 'DELETE /accounts/{id} POST' })).toThrow(/CRM_API_KEY_ROLE_LIMITED_DENIED must be METHOD \/path pairs/)
  expect(() => load({ CRM_API_KEY_ROLE_LIMITED_DENIED: '/accounts DELETE' })).toThrow(/METHOD \/path/)
})

it('names the companion of a key when the key is missing', () => {
  expect(keyUnset('roleLimited')).toBe('CRM_API_KEY_ROLE_LIMITED is not set (it goes with CRM_API_KEY_ROLE_LIMITED_DENIED)')
  expect(keyUnset('restricted')).toBe('CRM_API_KEY_RESTRICTED is not set')
})

it('fixture pools: CRM_FIXTURE_* takes one or several ids separated by spaces or commas; the first is the fixture', () => {
  expect(parseFixturePool(' a, b  c,,a ')).toEqual(['a', 'b', 'c'])
  const config = load({ CRM_FIXTURE_ACCEPTED_QUOTATION_ID: 'q1 q2,q3', CRM_FIXTURE_SENT_INVOICE_ID: 'i1' })
  expect(config.fixturePools).toEqual({ acceptedQuotationId: ['q1', 'q2', 'q3'], sentInvoiceId: ['i1'] })
  expect(config.fixtures).toEqual({ acceptedQuotationId: 'q1', sentInvoiceId: 'i1' })
})
