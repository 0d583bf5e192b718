import { describe, expect, it } from 'vitest'
import { Redactor } from './redact.ts'

describe('Redactor', () => {
  const key = 'crm_ws_main_s3cr3tV4lue99'
  const whsec = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
  const r = new Redactor([
    { name: 'CRM_API_KEY', value: key },
    { name: 'CRM_WEBHOOK_SECRET', value: whsec },
  ])

  it('replaces whole keys and their secret part, in strings and nested values', () => {
    expect(r.string(`token ${key} and s3cr3tV4lue99`)).toBe('token <redacted:CRM_API_KEY> and <redacted:CRM_API_KEY>')
    const value = r.value({ a: [key], [key]: whsec, n: 3 })
    expect(JSON.stringify(value)).not.toContain('s3cr3t')
    expect(JSON.stringify(value)).not.toContain('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')
  })

  it('redacts bearer headers even for keys it does not know', () => {
    expect(r.headers({ Authorization: `Bearer ${key}` }).Authorization).toBe('Bearer <redacted:CRM_API_KEY>')
    expect(r.headers({ authorization: 'Bearer crm_other_unknownsecret' }).authorization).toBe('Bearer <redacted>')
    expect(r.headers({ 'set-cookie': 'a=b' })['set-cookie']).toBe('<redacted>')
  })
})
