import { describe, expect, it } from 'vitest'
import { LIST_PARAMETERS, RESOURCE_LIST } from '../spec/resources.ts'
import { isCredentialName, maskQueryByName, maskTextByName } from './credential-names.ts'
import { Redactor } from './redact.ts'

describe('isCredentialName', () => {
  it.each([
    'authorization',
    'Proxy-Authorization',
    'cookie',
    'Set-Cookie',
    'X-Gateway-Token',
    'x-api-key',
    'api_key',
    'apiKey',
    'X-Client-Secret',
    'client_secret',
    'x-session-id',
    'sessionId',
    'X-Hub-Signature-256',
    'webhook-signature',
    'password',
    'newPassword',
    'refresh_token',
    'access_token',
    'privateKey',
    'credentials',
  ])('%s is a credential', (name) => expect(isCredentialName(name)).toBe(true))

  it.each([
    'Idempotency-Key',
    'idempotency_key',
    'stageKey',
    'keyName',
    'apiKeyLabel',
    'token_type',
    'keyname',
    'name',
    'author',
    'authorId',
    'content-type',
    'keep-alive',
  ])('%s is not', (name) => expect(isCredentialName(name)).toBe(false))

  it("names no field, write-body field, filter or list parameter of the spec as a credential (they are the API's data)", () => {
    const names = new Set<string>(Object.keys(LIST_PARAMETERS))
    for (const r of RESOURCE_LIST) {
      for (const name of [...Object.keys(r.record), ...Object.keys(r.writeOnly), ...r.filters.map((f) => f.param)]) names.add(name)
      for (const body of [r.create, r.update, r.replace]) for (const name of Object.keys(body?.fields ?? {})) names.add(name)
    }
    expect([...names].filter(isCredentialName)).toEqual([])
  })
})

describe('masking by name', () => {
  it('masks credential query parameters and keeps the rest as written', () => {
    const seen: string[] = []
    expect(maskQueryByName('http://h/v1/accounts?limit=3&access_token=abc%2Fdef&stageKey=won#x', (v) => seen.push(v))).toBe(
      'http://h/v1/accounts?limit=3&access_token=<redacted>&stageKey=won#x',
    )
    expect(seen).toEqual(['abc/def'])
  })

  it('masks JSON members and form pairs in a body kept as text, also cut short', () => {
    expect(maskTextByName('{"name":"a","password":"hunter22","apiKey":"sk_live_1"')).toBe('{"name":"a","password":"<redacted>","apiKey":"<redacted>"')
    expect(maskTextByName('{"name":"a","token":"cut-at-the-cap')).toBe('{"name":"a","token":"<redacted>"')
    expect(maskTextByName('user=a&password=p%40ss&session_id=xyz')).toBe('user=a&password=<redacted>&session_id=<redacted>')
  })

  it('a Redactor byName masks fields at any depth, keeps objects under a credential name walked, and learns what it masked', () => {
    const learned: string[] = []
    const redactor = new Redactor([], { byName: true })
    const body = redactor.value(
      {
        name: 'x',
        stageKey: 'won',
        auth: { clientSecret: 's3cr3t-value', tokens: ['t1', 't2'] },
        apiKey: { label: 'CI', permissions: ['read'] },
        pin: { password: 1234 },
      },
      (v) => learned.push(v),
    )
    expect(body).toEqual({
      name: 'x',
      stageKey: 'won',
      auth: { clientSecret: '<redacted>', tokens: ['<redacted>', '<redacted>'] },
      apiKey: { label: 'CI', permissions: ['read'] },
      pin: { password: '<redacted>' },
    })
    expect(learned).toEqual(['s3cr3t-value', 't1', 't2', '1234'])
    const headers = redactor.headers({ Authorization: 'Token abc', 'X-Gateway-Token': 'gw', 'Idempotency-Key': 'idem-1', cookie: 'session=1' })
    expect(headers).toEqual({ Authorization: 'Token <redacted>', 'X-Gateway-Token': '<redacted>', 'Idempotency-Key': 'idem-1', cookie: '<redacted>' })
  })
})
