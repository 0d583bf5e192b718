import fc from 'fast-check'
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

describe('masking by name, for any JSON around the credential (fast-check)', () => {
  const words = ['token', 'secret', 'key', 'session', 'signature', 'password', 'credential']
  // A credential name as APIs spell them: a prefix, the word, a suffix, in any case and with any separator.
  const credentialName = fc
    .tuple(
      fc.constantFrom('', 'x', 'api', 'client', 'access', 'gateway', 'refresh'),
      fc.constantFrom(...words),
      fc.constantFrom('', 'id', 'value', '2'),
      fc.constantFrom('', '-', '_'),
    )
    .chain(([prefix, word, suffix, sep]) =>
      fc.constantFrom(
        [prefix, word, suffix].filter(Boolean).join(sep),
        [prefix, word, suffix].filter(Boolean).join(sep).toUpperCase(),
        [prefix, word, suffix]
          .filter(Boolean)
          .map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1)))
          .join(''),
      ),
    )
    .filter((name) => isCredentialName(name))
  const marker = fc.stringMatching(/^[A-Za-z0-9]{12}$/).map((s) => `SECRET${s}`)
  /** `json` with the credential set somewhere inside it: at the top, or under objects and arrays of its own. */
  const withCredential = fc
    .tuple(
      fc.jsonValue({ maxDepth: 3 }),
      fc.array(fc.constantFrom('object', 'array'), { maxLength: 4 }),
      credentialName,
      marker,
      fc.constantFrom('alone', 'array'),
    )
    .map(([json, path, name, secret, held]) => {
      let node: unknown = { [name]: held === 'alone' ? secret : [1, 'x', secret], other: json }
      for (const step of path) node = step === 'object' ? { data: node, more: json } : [json, node]
      return { node, secret }
    })

  it('a parsed body: no credential value survives, at any depth', () => {
    const redactor = new Redactor([], { byName: true })
    fc.assert(
      fc.property(withCredential, ({ node, secret }) => {
        expect(JSON.stringify(redactor.value(node))).not.toContain(secret)
      }),
    )
  })

  it('a body kept as text, whole or cut anywhere after the value began: no credential value survives', () => {
    fc.assert(
      fc.property(withCredential, fc.nat(), ({ node, secret }, cut) => {
        const text = JSON.stringify(node)
        const at = text.indexOf(secret)
        const kept = text.slice(0, at + secret.length + (cut % (text.length - at - secret.length + 1)))
        expect(maskTextByName(kept)).not.toContain(secret)
      }),
    )
  })
})
