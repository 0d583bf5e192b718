import { describe, expect, test } from 'vitest'
import type { CheckDefinition } from '../checks/types.ts'
import { loadConfig } from '../config/config.ts'
import { gateRun } from './run-gate.ts'

const CATALOGUE = [
  { id: 'discovery.me.schema', clauses: ['§5.9'], level: 'MUST', area: 'discovery', title: 't', run: async () => {} },
  { id: 'state.order.create', clauses: ['§3.2'], level: 'MUST', area: 'state', title: 't', writes: 'full', run: async () => {} },
] as CheckDefinition[]
const config = (env: NodeJS.ProcessEnv, profile?: 'safe') => loadConfig(env, { envFile: false, profile })

describe('gateRun', () => {
  test('a plain local run: the embedded server, said plainly, with the complete scope', () => {
    const gate = gateRun(config({}), CATALOGUE, { env: {} })
    expect(gate.refusal).toBeUndefined()
    expect(gate.lines).toEqual([expect.stringContaining('no CRM_BASE_URL: testing the embedded reference server')])
    expect(gate.scope.complete).toBe(true)
  })

  test('CI without a base URL, or a typo in --only: refused', () => {
    expect(gateRun(config({ CI: 'true' }), CATALOGUE, { env: { CI: 'true' } }).refusal).toMatch(/^CI is set and CRM_BASE_URL is not/)
    expect(gateRun(config({}), CATALOGUE, { env: {}, only: ['discovry'] }).refusal).toBe('--only discovry selects no check: did you mean discovery?')
  })

  test("--embedded with the user's key: the key is dropped, and said so", () => {
    const env = { CRM_API_KEY: 'crm_ws_x_secret', CRM_APIKEY: 'x' }
    const gate = gateRun(config(env), CATALOGUE, { env, embedded: true })
    expect(gate.refusal).toBeUndefined()
    expect(gate.config.keys).toEqual({})
    expect(gate.lines).toEqual([
      'warning: CRM_APIKEY is not a variable crm-conformance reads: did you mean CRM_API_KEY?',
      '--embedded: testing the embedded reference server with its own keys; ignoring CRM_API_KEY',
    ])
  })

  test('a profile that leaves out every selected check: refused', () => {
    const env = { CRM_BASE_URL: 'https://crm.example.test/v1', CRM_API_KEY: 'k' }
    expect(gateRun(config(env, 'safe'), CATALOGUE, { env, only: ['state'] }).refusal).toMatch(/^the safe profile leaves out every selected check/)
    expect(gateRun(config(env, 'safe'), CATALOGUE, { env }).scope).toMatchObject({ complete: false, inScope: { checks: 1, must: 1 } })
  })
})
