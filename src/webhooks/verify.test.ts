import { createHmac } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { Webhook } from 'standardwebhooks'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { CrmConfError } from '../errors.ts'
import { diagnose, examineSignature, verifyDelivery, verifySignature } from './verify.ts'
import type { DeliveryInput, ImplementerMistake } from './verify.ts'

interface SigningVector {
  name: string
  secret: string
  msgId: string
  timestamp: number
  payload: string
  signature: string
}
interface VerificationCase {
  name: string
  from: string[]
  vector: number
  secret?: string
  omit?: string
  timestampHeader?: string
  signatureHeader?: string
  nowOffsetSeconds?: number
  expect: string
}
const vectors = JSON.parse(readFileSync(new URL('../../fixtures/webhooks/vectors.json', import.meta.url), 'utf8')) as {
  signing: SigningVector[]
  verification: VerificationCase[]
}

function caseInput(c: VerificationCase): DeliveryInput {
  const v = vectors.signing[c.vector]
  const headers: Record<string, string> = {
    'webhook-id': v.msgId,
    'webhook-timestamp': c.timestampHeader ?? String(v.timestamp),
    'webhook-signature': c.signatureHeader ?? v.signature,
  }
  if (c.omit) delete headers[c.omit]
  return { secret: c.secret ?? v.secret, headers, rawBody: v.payload, now: new Date((v.timestamp + (c.nowOffsetSeconds ?? 0)) * 1000) }
}

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const KEY = Buffer.from('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'base64')
const NOW = new Date('2025-06-01T12:00:00Z')
const NOW_S = NOW.getTime() / 1000
const EVENT = JSON.stringify({
  type: 'case.created',
  timestamp: '2025-06-01T12:00:00Z',
  data: { id: 'c0a8e0b2-0000-4000-8000-000000000001', entityType: 'case', object: { subject: 'Printer on fire ☃' }, changes: {} },
})

/** An independent HMAC (node:crypto), so the tests do not only trust the library under test. */
function hmac(key: Buffer | string, id: string, ts: number | string, body: string | Buffer, encoding: 'base64' | 'hex' | 'base64url' = 'base64'): string {
  return createHmac('sha256', key)
    .update(Buffer.concat([Buffer.from(`${id}.${ts}.`), Buffer.from(body)]))
    .digest(encoding)
}

function delivery(
  over: { id?: string; ts?: number | string; body?: string | Buffer; signature?: string; headers?: Record<string, string | string[]> } = {},
): DeliveryInput {
  const id = over.id ?? 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W'
  const ts = over.ts ?? NOW_S
  const body = over.body ?? EVENT
  return {
    secret: SECRET,
    headers: over.headers ?? { 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': over.signature ?? `v1,${hmac(KEY, id, ts, body)}` },
    rawBody: body,
    now: NOW,
  }
}

afterEach(() => {
  vi.useRealTimers()
})

describe('published Standard Webhooks vectors', () => {
  it.each(vectors.signing)('standardwebhooks signs "$name" as published', (v) => {
    expect(new Webhook(v.secret).sign(v.msgId, new Date(v.timestamp * 1000), v.payload)).toBe(v.signature)
    const key = Buffer.from(v.secret.slice('whsec_'.length), 'base64')
    expect(`v1,${hmac(key, v.msgId, v.timestamp, v.payload)}`).toBe(v.signature)
  })

  it.each(vectors.verification)('verifySignature: $name → $expect', (c) => {
    const result = verifySignature(caseInput(c))
    expect(result.ok ? 'valid' : result.reason).toBe(c.expect)
  })

  it.each(vectors.verification)("agrees with standardwebhooks' own verify: $name", (c) => {
    const input = caseInput(c)
    vi.useFakeTimers({ now: input.now })
    let libraryAccepts = true
    try {
      new Webhook(input.secret).verify(input.rawBody as string, input.headers as Record<string, string>)
    } catch {
      libraryAccepts = false
    }
    expect(verifySignature(input).ok).toBe(libraryAccepts)
  })

  it.each(vectors.verification)('verifyDelivery: $name (the vector payload is not a §6.3 event)', (c) => {
    const result = verifyDelivery(caseInput(c))
    expect(result.ok).toBe(false)
    expect(result.ok ? 'valid' : result.reason).toBe(c.expect === 'valid' ? 'bad_shape' : c.expect)
  })
})

describe('verifyDelivery', () => {
  it('accepts a §6.3 event signed over its raw bytes, non-ASCII included', () => {
    const result = verifyDelivery(delivery())
    expect(result).toMatchObject({ ok: true, webhookId: 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W', timestamp: NOW_S, event: { type: 'case.created' } })
  })

  it('accepts an event kind the spec does not name (§6.2: the list is not shown)', () => {
    const body = JSON.stringify({ type: 'widget.exploded', timestamp: 'now', data: { id: 'w1', entityType: 'widget', object: {}, changes: { a: 1 } } })
    expect(verifyDelivery(delivery({ body })).ok).toBe(true)
  })

  it('matches header names case-insensitively and takes arrays of one value', () => {
    const d = delivery()
    const headers = Object.fromEntries(Object.entries(d.headers).map(([k, v]) => [k.toUpperCase(), [v as string]]))
    expect(verifyDelivery({ ...d, headers }).ok).toBe(true)
  })

  it('accepts the timestamp at exactly 300 s either way and refuses 301 s (§6.6)', () => {
    expect(verifyDelivery(delivery({ ts: NOW_S - 300 })).ok).toBe(true)
    expect(verifyDelivery(delivery({ ts: NOW_S + 300 })).ok).toBe(true)
    expect(verifyDelivery(delivery({ ts: NOW_S - 301 }))).toMatchObject({ ok: false, reason: 'stale_timestamp' })
    expect(verifyDelivery(delivery({ ts: NOW_S + 301 }))).toMatchObject({ ok: false, reason: 'future_timestamp' })
  })

  it.each([
    ['milliseconds', NOW_S * 1000],
    ['microseconds', NOW_S * 1e6],
    ['milliseconds of an old date', 1614265330000],
  ])('refuses a timestamp in %s as timestamp_not_seconds', (_unit, ts) => {
    expect(verifyDelivery(delivery({ ts }))).toMatchObject({ ok: false, reason: 'timestamp_not_seconds' })
  })

  it.each([
    ['a fraction', `${NOW_S}.25`, 'timestamp_not_seconds'],
    ['leading zeros', `00${NOW_S}`, 'malformed_header'],
    ['a sign', `+${NOW_S}`, 'malformed_header'],
    ['an ISO date', NOW.toISOString(), 'malformed_header'],
  ])('refuses a timestamp with %s', (_what, ts, reason) => {
    expect(verifyDelivery(delivery({ ts }))).toMatchObject({ ok: false, reason })
  })

  it('refuses a header sent twice', () => {
    const d = delivery()
    const headers = { ...d.headers, 'webhook-id': ['msg_a', 'msg_b'] }
    expect(verifyDelivery({ ...d, headers })).toMatchObject({ ok: false, reason: 'malformed_header' })
  })

  it('refuses an empty header as missing', () => {
    const d = delivery()
    expect(verifyDelivery({ ...d, headers: { ...d.headers, 'webhook-id': '  ' } })).toMatchObject({ ok: false, reason: 'missing_header' })
  })

  it.each([
    ['the body changed by one byte', (d: DeliveryInput) => ({ ...d, rawBody: (d.rawBody as string).replace('fire', 'fira') })],
    ['the id changed', (d: DeliveryInput) => ({ ...d, headers: { ...d.headers, 'webhook-id': 'msg_other' } })],
    ['the timestamp changed by one second', (d: DeliveryInput) => ({ ...d, headers: { ...d.headers, 'webhook-timestamp': String(NOW_S + 1) } })],
    ['another secret', (d: DeliveryInput) => ({ ...d, secret: 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD' })],
  ])('refuses a signature when %s', (_what, alter) => {
    expect(verifyDelivery(alter(delivery()))).toMatchObject({ ok: false, reason: 'bad_signature' })
  })

  it('accepts any matching entry among several and ignores other versions', () => {
    const good = `v1,${hmac(KEY, 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W', NOW_S, EVENT)}`
    expect(verifyDelivery(delivery({ signature: `v1a,AAAA v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc= ${good}` })).ok).toBe(true)
    expect(verifyDelivery(delivery({ signature: good.replace('v1,', 'v2,') }))).toMatchObject({
      ok: false,
      reason: 'bad_signature',
      detail: expect.stringContaining('no v1 entry'),
    })
  })

  it('refuses a signature header with no <version>,<signature> entry', () => {
    expect(verifyDelivery(delivery({ signature: hmac(KEY, 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W', NOW_S, EVENT) }))).toMatchObject({
      ok: false,
      reason: 'malformed_header',
    })
  })

  it('signs the raw bytes: a body that is not UTF-8 is refused as not_json, not re-encoded', () => {
    const body = Buffer.from([0x7b, 0xff, 0x7d])
    expect(verifyDelivery(delivery({ body }))).toMatchObject({ ok: false, reason: 'not_json' })
  })

  it('refuses a UTF-8 byte order mark (RFC 8259 §8.1) even when signed', () => {
    expect(verifyDelivery(delivery({ body: `\uFEFF${EVENT}` }))).toMatchObject({ ok: false, reason: 'not_json' })
  })

  it.each([
    ['not JSON', 'not json', 'not_json'],
    ['empty', '', 'not_json'],
    ['an array', '[]', 'bad_shape'],
    ['without data', JSON.stringify({ type: 'case.created', timestamp: 't' }), 'bad_shape'],
    [
      'with data.changes null',
      JSON.stringify({ type: 'case.created', timestamp: 't', data: { id: 'x', entityType: 'case', object: {}, changes: null } }),
      'bad_shape',
    ],
    [
      'with a type that is not <entity>.<action>',
      JSON.stringify({ type: 'created', timestamp: 't', data: { id: 'x', entityType: 'case', object: {}, changes: {} } }),
      'bad_shape',
    ],
    [
      'a case event whose entityType is not case',
      JSON.stringify({ type: 'case.created', timestamp: 't', data: { id: 'x', entityType: 'ticket', object: {}, changes: {} } }),
      'bad_shape',
    ],
  ])('refuses a signed body that is %s', (_what, body, reason) => {
    const result = verifyDelivery(delivery({ body }))
    expect(result).toMatchObject({ ok: false, reason })
    if (!result.ok) expect(result.detail).not.toBe('')
  })

  it('refuses a body over the limit before looking at anything else', () => {
    expect(verifyDelivery({ ...delivery(), maxBodyBytes: 10 })).toMatchObject({ ok: false, reason: 'too_large' })
  })

  it('throws a configuration error for an unusable secret', () => {
    expect(() => verifyDelivery({ ...delivery(), secret: 'whsec_' })).toThrow(CrmConfError)
  })
})

describe('diagnose', () => {
  const id = 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W'
  const mistakesOf = (d: DeliveryInput): ImplementerMistake[] => diagnose(d).map((x) => x.mistake)

  it('finds nothing in a valid delivery or a plain forgery', () => {
    expect(mistakesOf(delivery())).toEqual([])
    expect(mistakesOf(delivery({ signature: 'v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=' }))).toEqual([])
  })

  it.each<[string, () => DeliveryInput, ImplementerMistake[]]>([
    ['keyed on the whsec_ string', () => delivery({ signature: `v1,${hmac(SECRET, id, NOW_S, EVENT)}` }), ['key_is_whsec_string']],
    [
      'keyed on the undecoded base64',
      () => delivery({ signature: `v1,${hmac('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', id, NOW_S, EVENT)}` }),
      ['key_is_undecoded_base64'],
    ],
    ['hex', () => delivery({ signature: `v1,${hmac(KEY, id, NOW_S, EVENT, 'hex')}` }), ['hex_signature']],
    [
      'upper-case hex keyed on the whsec_ string',
      () => delivery({ signature: `v1,${hmac(SECRET, id, NOW_S, EVENT, 'hex').toUpperCase()}` }),
      ['key_is_whsec_string', 'hex_signature'],
    ],
    ['base64url', () => delivery({ signature: `v1,${hmac(KEY, id, NOW_S, EVENT, 'base64url')}` }), ['base64url_signature']],
    ['without the v1, prefix', () => delivery({ signature: hmac(KEY, id, NOW_S, EVENT) }), ['missing_version_prefix']],
    ['labelled v1=', () => delivery({ signature: `v1=${hmac(KEY, id, NOW_S, EVENT)}` }), ['wrong_version_label']],
    [
      'over a re-serialised body',
      () => {
        const pretty = JSON.stringify(JSON.parse(EVENT), null, 2)
        return { ...delivery({ body: pretty, signature: `v1,${hmac(KEY, id, NOW_S, EVENT)}` }) }
      },
      ['signed_reserialized_body'],
    ],
    ['with a millisecond timestamp', () => delivery({ ts: NOW_S * 1000 }), ['timestamp_milliseconds']],
    ['with a fractional timestamp', () => delivery({ ts: `${NOW_S}.5` }), ['timestamp_fractional']],
    [
      'with svix-* headers',
      () => delivery({ headers: { 'svix-id': id, 'svix-timestamp': String(NOW_S), 'svix-signature': `v1,${hmac(KEY, id, NOW_S, EVENT)}` } }),
      ['wrong_header_names'],
    ],
  ])('names a signature %s', (_what, make, mistakes) => {
    const input = make()
    expect(verifyDelivery(input).ok).toBe(false)
    expect(mistakesOf(input).sort()).toEqual([...mistakes].sort())
    for (const d of diagnose(input)) expect(d.message).toMatch(/§6\.[45]/)
  })
})

describe('examineSignature', () => {
  const id = 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W'

  it.each<[string, () => DeliveryInput]>([
    ['a valid delivery', () => delivery()],
    ['a stale one, signed with its own timestamp', () => delivery({ ts: NOW_S - 3600 })],
    ['one 400 s in the future, signed with its timestamp', () => delivery({ ts: NOW_S + 400 })],
    ['a millisecond timestamp, signed as sent', () => delivery({ ts: NOW_S * 1000 })],
    ['a hex signature', () => delivery({ signature: `v1,${hmac(KEY, id, NOW_S, EVENT, 'hex')}` })],
    ['a signature keyed on the whsec_ string', () => delivery({ signature: `v1,${hmac(SECRET, id, NOW_S, EVENT)}` })],
    ['svix-* headers', () => delivery({ headers: { 'svix-id': id, 'svix-timestamp': String(NOW_S), 'svix-signature': `v1,${hmac(KEY, id, NOW_S, EVENT)}` } })],
  ])("takes %s for the secret holder's", (_what, make) => {
    expect(examineSignature(make())).toMatchObject({ authentic: true, webhookId: id })
  })

  it.each<[string, () => DeliveryInput]>([
    ['a forged signature', () => delivery({ signature: 'v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=' })],
    ['a signature made with another secret', () => delivery({ signature: `v1,${hmac(Buffer.from('another key'), id, NOW_S, EVENT)}` })],
    ['a real signature over another timestamp', () => ({ ...delivery(), headers: { ...delivery().headers, 'webhook-timestamp': String(NOW_S + 400) } })],
    ['a real signature over another body', () => ({ ...delivery(), rawBody: EVENT.replace('Printer', 'Toaster') })],
    ['no signature at all', () => delivery({ headers: { 'webhook-signature': '' } })],
  ])("does not take %s for the secret holder's", (_what, make) => {
    expect(examineSignature(make()).authentic).toBe(false)
  })
})
