import { describe, expect, it } from 'vitest'
import { assertNoSecrets, SecretLeakError } from './secrets.ts'

const KEY = 'crmk_acme_s3cr3t/Value+42='
const SECRETS = { CRM_API_KEY: KEY, CRM_WEBHOOK_SECRET: 'whsec_dGVzdA==', CRM_API_KEY_REVOKED: undefined }

describe('assertNoSecrets', () => {
  it('passes clean text', () => {
    expect(() => assertNoSecrets('Authorization: Bearer <redacted:CRM_API_KEY>', SECRETS)).not.toThrow()
  })

  it('names the secret that leaked, and where, without printing it', () => {
    let error: unknown
    try {
      assertNoSecrets(`line one\nAuthorization: Bearer ${KEY}`, SECRETS, 'report.html')
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(SecretLeakError)
    const leak = error as SecretLeakError
    expect(leak.secretName).toBe('CRM_API_KEY')
    expect(leak.line).toBe(2)
    expect(leak.message).toBe('secret CRM_API_KEY leaked in report.html (raw, line 2)')
    expect(leak.message).not.toContain(KEY)
  })

  it.each([
    ['URL-encoded', `curl 'https://x.test/v1/me?key=${encodeURIComponent(KEY)}'`],
    ['JSON-escaped', JSON.stringify({ k: 'crmk_acme_"quoted' })],
    ['HTML-escaped', '<pre>crmk_acme_&quot;quoted</pre>'],
  ])('finds the %s form', (encoding, text) => {
    const secrets = encoding === 'URL-encoded' ? { CRM_API_KEY: KEY } : { CRM_API_KEY: 'crmk_acme_"quoted' }
    expect(() => assertNoSecrets(text, secrets)).toThrow(`(${encoding}`)
  })

  it('names a secret of a bare list by its position, and ignores empty values', () => {
    expect(() => assertNoSecrets('… whsec_dGVzdA== …', ['', undefined, 'whsec_dGVzdA=='])).toThrow('secret #3 leaked')
    expect(() => assertNoSecrets('anything', ['', undefined])).not.toThrow()
  })
})
