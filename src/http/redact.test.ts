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

describe('Redactor: every form a server can echo a secret in', () => {
  const key = 'crm_ws_main_s3cr3t/V4+lue99=='
  const whsec = 'whsec_MfKQ9r8GKY+qrTwj/UPD8ILPZIo2LaLaSw=='
  const base64 = whsec.slice('whsec_'.length)
  const r = new Redactor([
    { name: 'CRM_API_KEY', value: key },
    { name: 'CRM_WEBHOOK_SECRET', value: whsec },
  ])
  const leaks = (text: string) => ['s3cr3t', 'MfKQ9r8GKY', 'lue99'].filter((fragment) => text.includes(fragment))
  const html = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')

  it.each([
    ['raw', key],
    ['encodeURIComponent', encodeURIComponent(key)],
    ['encodeURIComponent, lower-case hex', encodeURIComponent(key).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())],
    ['form encoding (URLSearchParams)', new URLSearchParams({ k: key }).toString().slice(2)],
    ['a + read back as a space', key.replace(/\+/g, ' ')],
    ['JSON-escaped', JSON.stringify(key).slice(1, -1)],
    ['JSON with escaped slashes', key.replace(/\//g, '\\/')],
    ['JSON \\u escapes', key.replace(/[^A-Za-z0-9_-]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)],
    ['HTML-escaped', html(key)],
    ['HTML numeric entities', key.replace(/[^A-Za-z0-9_-]/g, (c) => `&#${c.charCodeAt(0)};`)],
    ['the secret part alone, URL-encoded', encodeURIComponent('s3cr3t/V4+lue99==')],
  ])('the API key, %s', (_form, echoed) => {
    expect(leaks(r.string(`before ${echoed} after`))).toEqual([])
    expect(r.string(echoed)).toContain('<redacted:CRM_API_KEY>')
  })

  it.each([
    ['whole, raw', whsec],
    ['whole, URL-encoded', encodeURIComponent(whsec)],
    ['the base64 part alone', base64],
    ['the base64 part, URL-encoded', encodeURIComponent(base64)],
    ['the base64 part, form-encoded', new URLSearchParams({ s: base64 }).toString().slice(2)],
    ['the base64 part without padding', base64.replace(/=+$/, '')],
    ['the base64 part in the URL-safe alphabet', base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')],
    ['the base64 part, JSON-escaped slashes', base64.replace(/\//g, '\\/')],
    ['the base64 part, HTML-escaped', html(base64)],
  ])('the webhook secret, %s', (_form, echoed) => {
    expect(leaks(r.string(echoed))).toEqual([])
    expect(r.string(echoed)).toContain('<redacted:CRM_WEBHOOK_SECRET>')
  })

  it('in headers (a Location URL with the secret URL-encoded), bodies and URLs', () => {
    const location = `https://crm.example/hooks?secret=${encodeURIComponent(whsec)}&next=1`
    expect(leaks(JSON.stringify(r.headers({ Location: location, 'X-Echo': html(key) })))).toEqual([])
    expect(leaks(JSON.stringify(r.value({ error: { message: `bad key ${JSON.stringify(key)}`, url: location, [encodeURIComponent(key)]: 1 } })))).toEqual([])
    expect(leaks(r.string(`/v1/accounts?q=${encodeURIComponent(key)}`))).toEqual([])
  })

  it('masks a gateway header by name, whatever its value', () => {
    const masked = new Redactor()
    masked.maskHeader('X-Gateway-Key', 'CRM_EXTRA_HEADERS')
    expect(masked.headers({ 'x-gateway-key': 'abc' })).toEqual({ 'x-gateway-key': '<redacted:CRM_EXTRA_HEADERS>' })
  })

  it('walks a value nested 200,000 levels deep without overflowing, and a cycle without looping', () => {
    let deep: unknown = key
    for (let i = 0; i < 200_000; i++) deep = [deep]
    const redacted = JSON.stringify(r.value({ top: key, deep: (deep as unknown[])[0] }).top)
    expect(redacted).toBe('"<redacted:CRM_API_KEY>"')
    const cyclic: Record<string, unknown> = { key }
    cyclic.self = cyclic
    expect(r.value(cyclic)).toEqual({ key: '<redacted:CRM_API_KEY>', self: '<cycle>' })
  })
})
