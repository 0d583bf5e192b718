import { describe, expect, it } from 'vitest'
import { parseBaseUrl } from './base-url.ts'

describe('parseBaseUrl', () => {
  it('takes an http(s) URL whose path ends with /v1', () => {
    for (const raw of ['https://crm.example.com/v1', 'http://127.0.0.1:8080/api/v1/']) {
      const reading = parseBaseUrl(raw, 'CRM_BASE_URL')
      expect(reading.problems).toEqual([])
      expect(reading.url?.href).toBe(new URL(raw).href)
    }
  })

  it('names every rule a value breaks, opening with the name given', () => {
    expect(parseBaseUrl('crm.example.com/v1', 'CRM_BASE_URL').problems).toEqual(['CRM_BASE_URL is not a URL: crm.example.com/v1'])
    expect(parseBaseUrl('ftp://u:p@crm.example.com/v2', 'proxy: --target').problems).toEqual([
      'proxy: --target must be http(s): ftp://u:p@crm.example.com/v2',
      'proxy: --target must not carry credentials (user:password@)',
      'proxy: --target must end with the version segment /v1 (e.g. https://crm.example.com/v1 or https://acme.example.com/api/v1), got ftp://u:p@crm.example.com/v2',
    ])
    expect(parseBaseUrl('https://crm.example.com/v1?x=1', 'CRM_BASE_URL').problems).toEqual([
      'CRM_BASE_URL is a base URL, without query or fragment: https://crm.example.com/v1?x=1',
    ])
    expect(parseBaseUrl('https://k@crm.example.com/v1', 'CRM_BASE_URL', 'CRM_API_KEY').problems).toEqual([
      'CRM_BASE_URL must not carry credentials (user:password@): put the key in CRM_API_KEY',
    ])
  })
})
