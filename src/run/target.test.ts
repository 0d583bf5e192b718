import { describe, expect, it } from 'vitest'
import { loadConfig } from '../config/config.ts'
import { resolveTarget } from './target.ts'

const base = () => loadConfig({}, { seed: 1, envFile: false })

describe('resolveTarget', () => {
  it('hands the configured server over as it is, starting nothing', async () => {
    const config = { ...base(), baseUrl: 'https://crm.example.test/v1', keys: { main: 'k' } }
    const target = await resolveTarget(config, { variant: 'alt-a' })
    expect(target.embedded).toBeUndefined()
    expect(target.config).toEqual(config)
  })

  it('starts the embedded server when no base URL is configured, with its keys, fixtures and secret filled in', async () => {
    const target = await resolveTarget({ ...base(), proxy: { httpProxy: 'http://proxy.invalid:1' } }, { variant: 'alt-a', faults: [] })
    try {
      expect(target.config.baseUrl).toBe(target.embedded!.server.baseUrl)
      expect(target.embedded).toMatchObject({ variant: 'alt-a', faults: [] })
      expect(target.config.keys.main).toMatch(/^crm_/)
      expect(target.config.webhookSecret).toMatch(/^whsec_/)
      // The environment's proxy never applies to this process's own listener.
      expect(target.config.proxy).toEqual({})
    } finally {
      await target.embedded?.server.close()
    }
  })
})
