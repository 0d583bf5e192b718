import { describe, expect, it } from 'vitest'
import { loadConfig } from '../config/config.ts'
import { namedSecrets, redactorFor } from './for-config.ts'

describe('CRM_EXTRA_HEADERS in the redactor', () => {
  const config = loadConfig(
    {
      CRM_BASE_URL: 'https://staging.crm.example/v1',
      CRM_API_KEY: 'crm_ws_main_0123456789abcdef',
      CRM_EXTRA_HEADERS: 'X-Gateway-Key: gw01; X-Tenant: tenant-0123456789ab; X-Env: staging',
    },
    { envFile: false },
  )
  const redactor = redactorFor(config)

  it('masks every extra header by name where it is sent', () => {
    expect(redactor.headers({ 'x-gateway-key': 'gw01', 'X-Env': 'staging', 'x-tenant': 'tenant-0123456789ab' })).toEqual({
      'x-gateway-key': '<redacted:CRM_EXTRA_HEADERS>',
      'X-Env': '<redacted:CRM_EXTRA_HEADERS>',
      'x-tenant': '<redacted:CRM_EXTRA_HEADERS>',
    })
  })

  it('masks credential-like values wherever they are echoed, but not a short plain word the base URL may hold', () => {
    expect(
      namedSecrets(config)
        .filter((s) => s.name === 'CRM_EXTRA_HEADERS')
        .map((s) => s.value),
    ).toEqual(['gw01', 'tenant-0123456789ab'])
    expect(redactor.string('echo gw01 and tenant-0123456789ab')).toBe('echo <redacted:CRM_EXTRA_HEADERS> and <redacted:CRM_EXTRA_HEADERS>')
    expect(redactor.string(config.baseUrl!)).toBe('https://staging.crm.example/v1')
  })
})

describe('a proxy password', () => {
  it('is masked like a key', () => {
    const config = loadConfig({ HTTPS_PROXY: 'http://me:pr0xy-pa55word@proxy.corp:3128' }, { envFile: false })
    expect(redactorFor(config).string('407 from http://me:pr0xy-pa55word@proxy.corp:3128')).toBe('407 from http://me:<redacted:HTTPS_PROXY>@proxy.corp:3128')
  })
})
