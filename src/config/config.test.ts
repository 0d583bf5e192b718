import { expect, it } from 'vitest'
import { keyUnset, loadConfig } from './config.ts'

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
