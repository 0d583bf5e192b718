// The sink from the outside, over real sockets: deliveries over HTTP (accepted, duplicate, replayed, refused),
// the published Standard Webhooks vectors, HTTPS, the bounds, configuration errors. One file past ~400 lines on
// purpose: every part sends through the signing and raw-socket helpers below.
import { execFile, execFileSync } from 'node:child_process'
import { createHmac, randomUUID } from 'node:crypto'
import { mkdtempSync, readFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import type { OutgoingHttpHeaders } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TLSSocket } from 'node:tls'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CrmConfError } from '../errors.ts'
import { REJECTION_STATUS, startSink } from './sink.ts'
import type { Delivery, Sink, SinkRejection } from './sink.ts'

const hasCurl = (() => {
  try {
    execFileSync('curl', ['--version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
})()

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const KEY = Buffer.from(SECRET.slice('whsec_'.length), 'base64')
const MAX_BODY = 4096
const TIMEOUT_MS = 400

interface Answer {
  status: number
  body: string
}
interface Outgoing {
  headers: OutgoingHttpHeaders
  body: string | Buffer | Buffer[]
  method?: string
}

/** Sends one request (no connection reuse); an array body goes out in chunks without a content-length. */
function send(url: string, out: Outgoing, tls: { rejectUnauthorized?: boolean } = {}): Promise<Answer> {
  const request = url.startsWith('https:') ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    const req = request(url, { method: out.method ?? 'POST', headers: out.headers, agent: false, ...tls }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }))
    })
    req.on('error', reject)
    if (Array.isArray(out.body)) for (const chunk of out.body) req.write(chunk)
    else req.write(out.body)
    req.end()
  })
}

/** Writes raw bytes on a socket, then gathers whatever comes back until the server closes. */
function raw(url: string, steps: (socket: ReturnType<typeof connect>) => Promise<void>): Promise<string> {
  const { port, hostname } = new URL(url)
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname)
    const chunks: Buffer[] = []
    socket.on('data', (c: Buffer) => chunks.push(c))
    socket.on('error', () => undefined)
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')))
    socket.on('connect', () => void steps(socket))
  })
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

const nowS = () => Math.floor(Date.now() / 1000)
let counter = 0
const newId = () => `msg_${Date.now().toString(36)}_${++counter}`

function event(type = 'case.created', extra: object = {}): string {
  const entityType = type.split('.')[0]
  return JSON.stringify({
    type,
    timestamp: new Date().toISOString(),
    data: { id: randomUUID(), entityType, object: { subject: 'Ünïcode ☃' }, changes: {} },
    ...extra,
  })
}

function hmac(key: Buffer | string, id: string, ts: number | string, body: string | Buffer, encoding: 'base64' | 'hex' = 'base64'): string {
  return createHmac('sha256', key)
    .update(Buffer.concat([Buffer.from(`${id}.${ts}.`), Buffer.from(body)]))
    .digest(encoding)
}

function signed(
  body: string | Buffer,
  o: { id?: string; ts?: number | string; signature?: (id: string, ts: number | string) => string; headers?: OutgoingHttpHeaders } = {},
): Outgoing {
  const id = o.id ?? newId()
  const ts = o.ts ?? nowS()
  const signature = o.signature ? o.signature(id, ts) : `v1,${hmac(KEY, id, ts, body)}`
  return {
    headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': signature, ...o.headers },
    body,
  }
}

function without(out: Outgoing, name: string): Outgoing {
  const headers = { ...out.headers }
  delete headers[name]
  return { ...out, headers }
}

/** The latest request a sink recorded, kept or set aside as noise. */
function lastRecorded(sink: Sink): Delivery {
  const kept = sink.deliveries.at(-1)
  const noise = sink.noiseSamples.at(-1)
  return (noise === undefined || (kept !== undefined && kept.seq > noise.seq) ? kept : noise)!
}

describe('webhook sink over HTTP', () => {
  let sink: Sink
  let logFile: string
  const printed: string[] = []

  beforeAll(async () => {
    logFile = join(mkdtempSync(join(tmpdir(), 'crmconf-sink-')), 'deliveries.jsonl')
    sink = await startSink({
      host: '127.0.0.1',
      port: 0,
      secret: SECRET,
      maxBodyBytes: MAX_BODY,
      headerTimeoutMs: TIMEOUT_MS,
      bodyTimeoutMs: TIMEOUT_MS,
      logFile,
      print: (line) => printed.push(line),
    })
  })
  afterAll(async () => {
    await sink?.close()
  })

  const last = (): Delivery => lastRecorded(sink)

  it('listens on an ephemeral port and answers a health probe', async () => {
    expect(sink.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/)
    expect(sink.port).toBeGreaterThan(0)
    expect(await send(sink.url, { method: 'GET', headers: {}, body: '' })).toMatchObject({ status: 200 })
  })

  it('accepts a valid delivery with 200 and records it', async () => {
    const out = signed(event())
    const answer = await send(sink.url, out)
    expect(answer.status).toBe(200)
    expect(last()).toMatchObject({ verdict: 'accepted', type: 'case.created', webhookId: out.headers['webhook-id'], status: 200, attempt: 1 })
    expect(last().event?.data.entityType).toBe('case')
    expect(printed.at(-1)).toMatch(/^✓ case\.created msg_\S+ accepted$/)
  })

  it('accepts a delivery where only one of several signature entries matches (§6.5)', async () => {
    const body = event('invoice.paid')
    const several = signed(body, {
      signature: (id, ts) =>
        `v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc= v1a,AAAA v1,${hmac(KEY, id, ts, body)} v1,Mm7xgUVICxZfQ3bgf0h0Dof65L/IFx+PnZvnDWPCX6Q=`,
    })
    expect((await send(sink.url, several)).status).toBe(200)
    expect(last()).toMatchObject({ verdict: 'accepted', type: 'invoice.paid' })
  })

  it('accepts an event kind the spec does not name (§6.2), never failing it', async () => {
    expect((await send(sink.url, signed(event('widget.exploded')))).status).toBe(200)
    expect(last()).toMatchObject({ verdict: 'accepted', type: 'widget.exploded' })
  })

  it('acknowledges a repeated webhook-id with 2xx but counts it once (§6.6)', async () => {
    const body = event()
    const id = newId()
    const first = await send(sink.url, signed(body, { id }))
    const again = await send(sink.url, signed(body, { id, ts: nowS() + 1 }))
    expect([first.status, again.status]).toEqual([200, 200])
    const mine = sink.deliveries.filter((d) => d.webhookId === id)
    expect(mine.map((d) => d.verdict)).toEqual(['accepted', 'duplicate'])
    expect(mine.map((d) => d.attempt)).toEqual([1, 2])
    expect(mine.map((d) => d.attemptKind)).toEqual(['first', 'again'])
    expect(printed.at(-1)).toMatch(/^↻ case\.created msg_\S+ duplicate \(attempt 2\)$/)
  })

  it('sets aside a byte-identical replay of an attempt answered 2xx as noise: anyone can send it', async () => {
    const out = signed(event())
    const id = String(out.headers['webhook-id'])
    const before = sink.counts()
    expect((await send(sink.url, out)).status).toBe(200)
    expect((await send(sink.url, out)).status).toBe(200)
    expect((await send(sink.url, out)).status).toBe(200)
    expect(sink.deliveries.filter((d) => d.webhookId === id).map((d) => d.attemptKind)).toEqual(['first'])
    expect(last()).toMatchObject({ webhookId: id, verdict: 'duplicate', authentic: true, attemptKind: 'replay', noise: 'replayed_id' })
    expect(sink.counts().noise.replayed_id).toBe((before.noise.replayed_id ?? 0) + 2)
    expect(printed.at(-1)).toMatch(/^↻ case\.created msg_\S+ duplicate \(replay\)$/)
  })

  it('takes the same webhook-id signed anew after a non-2xx answer for a retry, and a byte-identical copy for a replay', async () => {
    sink.respondWith((_e, d) => (d.attempt === 1 ? 500 : undefined))
    try {
      const body = event()
      const out = signed(body)
      const id = String(out.headers['webhook-id'])
      const before = sink.counts().noise.replayed_id ?? 0
      expect((await send(sink.url, out)).status).toBe(500)
      // Anyone who saw the attempt can post it again: it must not pass for the server's retry (issue 32). A server
      // retrying within the same second sends the same bytes: answered 500 again, so it retries on (issue 38).
      expect((await send(sink.url, out)).status).toBe(500)
      expect((await send(sink.url, out)).status).toBe(500)
      expect(sink.deliveries.filter((d) => d.webhookId === id).map((d) => [d.attemptKind, d.status])).toEqual([['first', 500]])
      expect(last()).toMatchObject({ webhookId: id, attemptKind: 'replay', noise: 'replayed_id', status: 500 })
      expect(sink.copiesOf(id)).toBe(2)
      expect(sink.counts().noise.replayed_id).toBe(before + 2)
      // Only the signer can sign the same message with a new timestamp: that is the retry.
      expect((await send(sink.url, signed(body, { id, ts: nowS() + 1 }))).status).toBe(200)
      expect(sink.deliveries.filter((d) => d.webhookId === id).map((d) => [d.attemptKind, d.status])).toEqual([
        ['first', 500],
        ['retry', 200],
      ])
      // Each copy is answered as the attempt it copies was, whatever came after it.
      expect((await send(sink.url, out)).status).toBe(500)
      expect((await send(sink.url, signed(body, { id, ts: nowS() + 1 }))).status).toBe(200)
      expect(sink.copiesOf(id)).toBe(4)
    } finally {
      sink.respondWith(undefined)
    }
  })

  it('counts a storm of copies of a refused attempt as noise: each answered the same, none kept, none a retry', async () => {
    sink.respondWith((_e, d) => (d.attempt === 1 ? 503 : undefined))
    try {
      const out = signed(event())
      const id = String(out.headers['webhook-id'])
      const kept = sink.deliveries.length
      expect((await send(sink.url, out)).status).toBe(503)
      const answers = await Promise.all(Array.from({ length: 60 }, () => send(sink.url, out)))
      expect(new Set(answers.map((a) => a.status))).toEqual(new Set([503]))
      expect(JSON.parse(answers[0]!.body).error.code).toBe('sink_copy_of_refused_attempt')
      expect(sink.deliveries.length).toBe(kept + 1)
      expect(sink.deliveries.filter((d) => d.webhookId === id).map((d) => d.attemptKind)).toEqual(['first'])
      expect(sink.copiesOf(id)).toBe(60)
    } finally {
      sink.respondWith(undefined)
    }
  })

  it('answers a configured non-2xx to chosen deliveries, so retries can be observed', async () => {
    sink.respondWith((e, d) => (e.type === 'invoice.paid' && d.attempt === 1 ? 503 : undefined))
    try {
      const body = event('invoice.paid')
      const id = newId()
      const waiting = sink.waitFor((d) => d.webhookId === id && d.attempt === 2, 5000)
      expect((await send(sink.url, signed(body, { id }))).status).toBe(503)
      expect(last()).toMatchObject({ verdict: 'accepted', status: 503 })
      // The retry carries the same webhook-id with a fresh timestamp.
      expect((await send(sink.url, signed(body, { id, ts: nowS() + 1 }))).status).toBe(200)
      expect(await waiting).toMatchObject({ verdict: 'duplicate', status: 200 })
      expect((await send(sink.url, signed(event('case.created')))).status).toBe(200)
    } finally {
      sink.respondWith(undefined)
    }
  })

  it('answers 500 (and keeps serving) when the respondWith rule itself is broken', async () => {
    sink.respondWith(() => 42)
    try {
      expect((await send(sink.url, signed(event()))).status).toBe(500)
      expect(last().detail).toMatch(/respondWith/)
    } finally {
      sink.respondWith(undefined)
    }
  })

  describe('refuses every bad delivery with a 4xx and records why', () => {
    const replayed = { id: newId(), body: event() }
    const staleBody = event()
    // What the sink keeps: `signed` (with the secret, diagnosed mistakes included), `unsigned` (names a record,
    // kept in case the server signs wrongly), or `noise` (counted, never kept).
    type Kept = 'signed' | 'unsigned' | 'noise'
    const cases: [string, () => Outgoing, SinkRejection, Kept, string[]?][] = [
      ['a forged signature', () => signed(event(), { signature: () => 'v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=' }), 'bad_signature', 'unsigned'],
      ['a signature over another body', () => ({ ...signed(event()), body: event() }), 'bad_signature', 'unsigned'],
      [
        'a signature keyed on the raw whsec_ string',
        () => {
          const b = event()
          return signed(b, { signature: (id, ts) => `v1,${hmac(SECRET, id, ts, b)}` })
        },
        'bad_signature',
        'signed',
        ['key_is_whsec_string'],
      ],
      [
        'a hex signature',
        () => {
          const b = event()
          return signed(b, { signature: (id, ts) => `v1,${hmac(KEY, id, ts, b, 'hex')}` })
        },
        'bad_signature',
        'signed',
        ['hex_signature'],
      ],
      [
        'a signature with no version',
        () => {
          const b = event()
          return signed(b, { signature: (id, ts) => hmac(KEY, id, ts, b) })
        },
        'malformed_header',
        'signed',
        ['missing_version_prefix'],
      ],
      ['a stale timestamp (301 s)', () => signed(staleBody, { ts: nowS() - 301 }), 'stale_timestamp', 'signed'],
      ['a replay of a delivery signed 10 minutes ago', () => signed(replayed.body, { id: replayed.id, ts: nowS() - 600 }), 'stale_timestamp', 'signed'],
      ['a future timestamp (305 s: a second may pass before the sink reads it)', () => signed(event(), { ts: nowS() + 305 }), 'future_timestamp', 'signed'],
      ['a millisecond timestamp', () => signed(event(), { ts: Date.now() }), 'timestamp_not_seconds', 'signed', ['timestamp_milliseconds']],
      ['no webhook-id', () => without(signed(event()), 'webhook-id'), 'missing_header', 'unsigned'],
      ['no webhook-timestamp', () => without(signed(event()), 'webhook-timestamp'), 'missing_header', 'unsigned'],
      ['no webhook-signature', () => without(signed(event()), 'webhook-signature'), 'missing_header', 'unsigned'],
      ['no webhook headers at all', () => ({ headers: { 'content-type': 'application/json' }, body: event() }), 'missing_header', 'unsigned'],
      [
        'svix-* headers instead of webhook-*',
        () => {
          const b = event()
          const id = newId()
          const ts = nowS()
          return { headers: { 'svix-id': id, 'svix-timestamp': String(ts), 'svix-signature': `v1,${hmac(KEY, id, ts, b)}` }, body: b }
        },
        'missing_header',
        'signed',
        ['wrong_header_names'],
      ],
      ['a timestamp that is not a number', () => signed(event(), { ts: 'hello' }), 'malformed_header', 'signed'],
      ['webhook-id sent twice', () => signed(event(), { headers: { 'webhook-id': [newId(), newId()] } }), 'malformed_header', 'unsigned'],
      ['a signature header with an empty entry', () => signed(event(), { signature: () => 'v1,' }), 'malformed_header', 'unsigned'],
      ['a body that is not JSON', () => signed('case.created, please'), 'not_json', 'signed'],
      ['a body that is not UTF-8', () => signed(Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d])), 'not_json', 'signed'],
      ['an empty body', () => signed(''), 'not_json', 'signed'],
      ['a body without data', () => signed(JSON.stringify({ type: 'case.created', timestamp: new Date().toISOString() })), 'bad_shape', 'signed'],
      [
        'a body with data.object null',
        () => signed(JSON.stringify({ type: 'case.created', timestamp: 't', data: { id: 'x', entityType: 'case', object: null, changes: {} } })),
        'bad_shape',
        'signed',
      ],
      [
        'a case event whose entityType is not case',
        () => signed(event('case.created', { data: { id: 'x', entityType: 'ticket', object: {}, changes: {} } })),
        'bad_shape',
        'signed',
      ],
      ['a JSON array', () => signed('[]'), 'bad_shape', 'signed'],
      ['an oversized body with its content-length', () => signed(Buffer.alloc(MAX_BODY + 1, 0x20)), 'too_large', 'noise'],
      [
        'an oversized chunked body',
        () => ({ ...signed('x'), body: [Buffer.alloc(MAX_BODY, 0x20), Buffer.alloc(MAX_BODY, 0x20), Buffer.from('{}')] }),
        'too_large',
        'noise',
      ],
    ]

    it.each(cases)('%s', async (_name, make, reason, kept, mistakes) => {
      const before = sink.counts()
      const answer = await send(sink.url, make())
      expect(answer.status).toBe(REJECTION_STATUS[reason])
      expect(answer.status).toBeGreaterThanOrEqual(400)
      expect(answer.status).toBeLessThan(500)
      expect(JSON.parse(answer.body)).toMatchObject({ error: { code: reason } })
      expect(sink.counts().received).toBe(before.received + 1)
      expect(sink.counts().reasons[reason]).toBe((before.reasons[reason] ?? 0) + 1)
      expect(last()).toMatchObject({ verdict: 'rejected', reason, status: answer.status, authentic: kept === 'signed' })
      expect(sink.deliveries.includes(last())).toBe(kept !== 'noise')
      if (kept === 'noise') expect(last().noise).toBe(reason)
      expect(last().detail).toBeTruthy()
      expect(last().event).toBeUndefined()
      if (mistakes) expect(last().mistakes?.map((m) => m.mistake)).toEqual(mistakes)
      expect(printed.at(-1)).toMatch(new RegExp(`^✗ .* rejected ${reason} → ${answer.status}: `))
    })

    it('refuses a replayed webhook-id whose signature is forged (not a duplicate)', async () => {
      const id = newId()
      expect((await send(sink.url, signed(event(), { id }))).status).toBe(200)
      const forged = await send(sink.url, signed(event(), { id, signature: () => 'v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=' }))
      expect(forged.status).toBe(401)
      expect(last()).toMatchObject({ verdict: 'rejected', reason: 'bad_signature', webhookId: id })
    })

    it('a client that trickles its headers gets 408', async () => {
      const started = Date.now()
      const text = await raw(sink.url, async (socket) => {
        socket.write(`POST / HTTP/1.1\r\nHost: sink\r\nwebhook-id: ${newId()}\r\n`)
        for (let i = 0; i < 40 && !socket.destroyed; i++) {
          socket.write('x')
          await sleep(50)
        }
      })
      expect(text).toMatch(/^HTTP\/1\.1 408 /)
      expect(Date.now() - started).toBeLessThan(TIMEOUT_MS * 4)
      expect(last()).toMatchObject({ verdict: 'rejected', reason: 'slow_client', status: 408 })
    })

    it('a client that stalls in its body gets 408', async () => {
      const text = await raw(sink.url, async (socket) => {
        socket.write(`POST / HTTP/1.1\r\nHost: sink\r\ncontent-length: 100\r\nwebhook-id: ${newId()}\r\n\r\n{"type":`)
      })
      expect(text).toMatch(/^HTTP\/1\.1 408 /)
      expect(last()).toMatchObject({ verdict: 'rejected', reason: 'slow_client', status: 408, bodyBytes: 8 })
    })

    it('a request that is not HTTP gets 400', async () => {
      const text = await raw(sink.url, async (socket) => void socket.write('HELLO THERE\r\n\r\n'))
      expect(text).toMatch(/^HTTP\/1\.1 400 /)
      expect(last()).toMatchObject({ verdict: 'rejected', reason: 'bad_http', status: 400 })
    })

    it('a sender that speaks TLS to the plain-HTTP sink gets 400 and a reason that says so', async () => {
      await send(sink.url.replace('http:', 'https:'), signed(event()), { rejectUnauthorized: false }).catch(() => undefined)
      await expect.poll(() => last().reason).toBe('bad_http')
      expect(last().detail).toMatch(/speaks TLS/)
    })

    it('a sender that hangs up mid-body is recorded, and a header named __proto__ stays a header', async () => {
      await raw(sink.url, async (socket) => {
        socket.write('POST / HTTP/1.1\r\nHost: sink\r\n__proto__: x\r\ncontent-length: 100\r\n\r\n{')
        await sleep(50)
        socket.destroy()
      })
      await expect.poll(() => last().reason).toBe('incomplete_body')
      expect(Object.getPrototypeOf(last().headers)).toBeNull()
      expect(last().headers['__proto__']).toBe('x')
    })

    it('a silent connection is closed without a record', async () => {
      const before = sink.deliveries.length
      const text = await raw(sink.url, async () => undefined)
      expect(text).toBe('')
      expect(sink.deliveries.length).toBe(before)
    })
  })

  it('still serves after all of that, and accepted only what it should', async () => {
    const out = signed(event())
    expect((await send(sink.url, out)).status).toBe(200)
    expect(last()).toMatchObject({ verdict: 'accepted', webhookId: out.headers['webhook-id'] })

    const accepted = sink.deliveries.filter((d) => d.verdict === 'accepted')
    expect(new Set(accepted.map((d) => d.webhookId)).size).toBe(accepted.length)
    for (const d of accepted) expect(d.event).toBeDefined()
    for (const d of sink.deliveries.filter((x) => x.verdict === 'rejected')) {
      expect(d.status).toBeGreaterThanOrEqual(400)
      expect(d.event).toBeUndefined()
    }
    const seqs = sink.deliveries.map((d) => d.seq)
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b))
    expect(sink.counts().received).toBe(Math.max(...seqs, ...sink.noiseSamples.map((d) => d.seq)))
  })

  it('waitFor finds a past delivery at once and gives up on a missing one', async () => {
    expect(await sink.waitFor((d) => d.verdict === 'accepted', 10)).toBeDefined()
    expect(await sink.waitFor((d) => d.type === 'never.sent', 50)).toBeUndefined()
  })

  it('appended one JSON line per delivery', async () => {
    await sleep(50)
    const lines = readFileSync(logFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Delivery & { kind: string })
    expect(lines.length).toBe(sink.counts().received)
    expect(lines.map((l) => l.seq)).toEqual(lines.map((_, i) => i + 1))
    expect(lines.every((l) => l.kind === 'delivery')).toBe(true)
    expect(readFileSync(logFile, 'utf8')).not.toContain(SECRET.slice('whsec_'.length))
  })
})

describe('webhook sink fed the published Standard Webhooks vectors', () => {
  interface Vectors {
    signing: { secret: string; msgId: string; timestamp: number; payload: string; signature: string }[]
    verification: {
      name: string
      vector: number
      omit?: string
      timestampHeader?: string
      signatureHeader?: string
      nowOffsetSeconds?: number
      expect: string
    }[]
  }
  const vectors = JSON.parse(readFileSync(new URL('../../fixtures/webhooks/vectors.json', import.meta.url), 'utf8')) as Vectors
  const sinks: Sink[] = []
  beforeAll(async () => {
    for (const v of vectors.signing) sinks.push(await startSink({ host: '127.0.0.1', port: 0, secret: v.secret }))
  })
  afterAll(async () => {
    for (const s of sinks) await s.close()
  })

  it.each(vectors.signing.map((v, i) => [i, v] as const))('vector %i as published today is stale', async (i, v) => {
    const answer = await send(sinks[i].url, {
      headers: { 'webhook-id': v.msgId, 'webhook-timestamp': String(v.timestamp), 'webhook-signature': v.signature },
      body: v.payload,
    })
    expect(answer.status).toBe(401)
    expect(lastRecorded(sinks[i])).toMatchObject({ reason: 'stale_timestamp' })
  })

  // The libraries build these cases at the current time; so does this test, re-signing the vector now.
  it.each(vectors.verification)('$name → $expect (valid ones then fail §6.3: the vector payload is no CRM event)', async (c) => {
    const v = vectors.signing[c.vector]
    // A request can reach the sink a second or two after it was signed on a loaded machine: a future timestamp
    // keeps its margin past the 300 s tolerance (a past one only grows older).
    const ts = nowS() - (c.nowOffsetSeconds ?? 0) + ((c.nowOffsetSeconds ?? 0) < 0 ? 5 : 0)
    const fresh = `v1,${hmac(Buffer.from(v.secret.slice('whsec_'.length), 'base64'), v.msgId, ts, v.payload)}`
    const headers: OutgoingHttpHeaders = {
      'webhook-id': v.msgId,
      'webhook-timestamp': c.timestampHeader ?? String(ts),
      'webhook-signature': (c.signatureHeader ?? v.signature).replace(v.signature, fresh),
    }
    if (c.omit) delete headers[c.omit]
    const answer = await send(sinks[c.vector].url, { headers, body: v.payload })
    const reason = c.expect === 'valid' ? 'bad_shape' : c.expect
    expect(lastRecorded(sinks[c.vector])).toMatchObject({ verdict: 'rejected', reason })
    expect(answer.status).toBe(REJECTION_STATUS[reason as SinkRejection])
  })

  it('accepted none of them, and still serves', async () => {
    for (const s of sinks) {
      expect(s.deliveries.filter((d) => d.verdict !== 'rejected')).toEqual([])
      expect((await send(s.url, { method: 'GET', headers: {}, body: '' })).status).toBe(200)
    }
  })
})

describe('webhook sink over HTTPS', () => {
  let sink: Sink
  beforeAll(async () => {
    sink = await startSink({ host: '127.0.0.1', port: 0, secret: SECRET, tls: 'self-signed' })
  })
  afterAll(async () => {
    await sink?.close()
  })

  it('serves a self-signed certificate generated on the fly and accepts a valid delivery', async () => {
    expect(sink.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/$/)
    expect(sink.certificate?.fingerprint256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/)
    const peer = await new Promise<string>((resolve, reject) => {
      const req = httpsRequest(sink.url, { method: 'GET', agent: false, rejectUnauthorized: false }, (res) => {
        resolve((res.socket as TLSSocket).getPeerCertificate().fingerprint256)
        res.resume()
      })
      req.on('error', reject)
      req.end()
    })
    expect(peer).toBe(sink.certificate?.fingerprint256)
    expect((await send(sink.url, signed(event()), { rejectUnauthorized: false })).status).toBe(200)
    expect(sink.deliveries.at(-1)).toMatchObject({ verdict: 'accepted' })
  })

  it('records a sender that hangs up on the certificate (as Node clients do), with a hint', async () => {
    const before = sink.tlsFailures.length
    await expect(send(sink.url, signed(event()))).rejects.toThrow(/self.signed/i)
    await expect.poll(() => sink.tlsFailures.length).toBe(before + 1)
    expect(sink.tlsFailures.at(-1)).toMatchObject({ code: 'ECONNRESET', hint: expect.stringMatching(/certificate/) })
  })

  it.skipIf(!hasCurl)('records a sender that refuses the certificate with a TLS alert (curl), with a hint', async () => {
    const before = sink.tlsFailures.length
    await new Promise((resolve) => execFile('curl', ['-sS', '--max-time', '5', sink.url], resolve))
    await expect.poll(() => sink.tlsFailures.length).toBe(before + 1)
    expect(sink.tlsFailures.at(-1)).toMatchObject({ message: expect.stringMatching(/unknown ca/), hint: expect.stringMatching(/certificate/) })
  })

  it('records plain HTTP sent to the HTTPS port', async () => {
    const before = sink.tlsFailures.length
    await send(sink.url.replace('https:', 'http:'), signed(event())).catch(() => undefined)
    await expect.poll(() => sink.tlsFailures.length).toBe(before + 1)
    expect(sink.tlsFailures.at(-1)?.hint).toMatch(/plain HTTP/)
  })

  it('keeps no record of a bare TCP probe', async () => {
    const before = sink.tlsFailures.length
    await raw(sink.url, async (socket) => void socket.end())
    await sleep(100)
    expect(sink.tlsFailures.length).toBe(before)
    expect((await send(sink.url, signed(event()), { rejectUnauthorized: false })).status).toBe(200)
  })
})

describe('webhook sink bounds', () => {
  const eventAbout = (id: string, type = 'case.created') =>
    JSON.stringify({ type, timestamp: new Date().toISOString(), data: { id, entityType: type.split('.')[0], object: { id }, changes: {} } })
  const forged = (body: string) => signed(body, { signature: () => 'v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=' })

  it('refuses a body whose content-length is past the limit at once, before reading it', async () => {
    const sink = await startSink({ host: '127.0.0.1', port: 0, secret: SECRET, maxBodyBytes: MAX_BODY, bodyTimeoutMs: 60_000 })
    try {
      // 50 MiB announced, 9 bytes sent: the answer cannot wait for the body.
      const text = await raw(sink.url, async (socket) => {
        socket.write(`POST / HTTP/1.1\r\nHost: sink\r\ncontent-length: ${50 * 1024 * 1024}\r\n\r\n{"type":`)
        await sleep(300)
        socket.destroy()
      })
      expect(text).toMatch(/^HTTP\/1\.1 413 /)
      expect(sink.deliveries).toEqual([])
      expect(sink.counts()).toMatchObject({ received: 1, rejected: 1, noise: { too_large: 1 } })
      expect(sink.noiseSamples[0]).toMatchObject({ reason: 'too_large', noise: 'too_large', bodyBytes: 0 })
    } finally {
      await sink.close()
    }
  })

  it('answers 413 as soon as a chunked body passes the limit, and cuts the connection when the rest keeps coming', async () => {
    const sink = await startSink({ host: '127.0.0.1', port: 0, secret: SECRET, maxBodyBytes: MAX_BODY, bodyTimeoutMs: TIMEOUT_MS })
    try {
      const started = Date.now()
      let written = 0
      const text = await raw(sink.url, async (socket) => {
        socket.write('POST / HTTP/1.1\r\nHost: sink\r\ntransfer-encoding: chunked\r\n\r\n')
        const chunk = Buffer.alloc(1024, 0x20)
        while (!socket.destroyed && Date.now() - started < 20 * TIMEOUT_MS) {
          socket.write(`${chunk.length.toString(16)}\r\n`)
          socket.write(chunk)
          socket.write('\r\n')
          written += chunk.length
          await sleep(5)
        }
      })
      expect(text).toMatch(/^HTTP\/1\.1 413 /)
      expect(Date.now() - started).toBeLessThan(10 * TIMEOUT_MS)
      expect(written).toBeGreaterThan(MAX_BODY)
      expect(sink.noiseSamples.at(-1)).toMatchObject({ reason: 'too_large', noise: 'too_large' })
    } finally {
      await sink.close()
    }
  })

  it('keeps at most maxDeliveries signed deliveries, dropping the oldest and counting them', async () => {
    const sink = await startSink({ host: '127.0.0.1', port: 0, secret: SECRET, maxDeliveries: 3 })
    try {
      const ids: string[] = []
      for (let i = 0; i < 5; i++) {
        const out = signed(event())
        ids.push(String(out.headers['webhook-id']))
        expect((await send(sink.url, out)).status).toBe(200)
      }
      expect(sink.deliveries.map((d) => d.webhookId)).toEqual(ids.slice(2))
      expect(sink.counts()).toMatchObject({ received: 5, accepted: 5, dropped: 2 })
    } finally {
      await sink.close()
    }
  })

  it('keeps at most maxUnverified unsigned deliveries, setting aside first those that name no record of the run', async () => {
    let ourCreateAt = Infinity
    const sink = await startSink({ host: '127.0.0.1', port: 0, secret: SECRET, maxUnverified: 2, runRecords: (id, at) => id === 'ours' && at >= ourCreateAt })
    try {
      // A forgery about our record before the call that created it is not tied to the run.
      await send(sink.url, forged(eventAbout('ours')))
      expect(sink.tiedToRun(sink.deliveries[0]!)).toBe(false)
      // A millisecond later than now: on loopback the forgery above can have arrived in this very millisecond.
      ourCreateAt = Date.now() + 1
      await sleep(5)
      expect((await send(sink.url, forged(eventAbout('ours')))).status).toBe(401)
      for (let i = 0; i < 10; i++) await send(sink.url, forged(eventAbout(randomUUID())))
      expect(sink.deliveries).toHaveLength(2)
      expect(sink.deliveries.map((d) => d.claims)).toEqual([['ours'], [expect.any(String)]])
      expect(sink.tiedToRun(sink.deliveries[0]!)).toBe(true)
      expect(sink.tiedToRun(sink.deliveries[1]!)).toBe(false)
      expect(sink.counts()).toMatchObject({ received: 12, rejected: 12, noise: { bad_signature: 10 }, dropped: 0 })
      // A signed delivery is never pushed out by unsigned ones.
      const out = signed(eventAbout('ours'))
      expect((await send(sink.url, out)).status).toBe(200)
      for (let i = 0; i < 5; i++) await send(sink.url, forged(eventAbout(randomUUID())))
      expect(sink.deliveries.filter((d) => d.authentic).map((d) => d.webhookId)).toEqual([out.headers['webhook-id']])
    } finally {
      await sink.close()
    }
  })

  it('sets aside an unsigned body that names no record, without keeping it', async () => {
    const sink = await startSink({ host: '127.0.0.1', port: 0, secret: SECRET })
    try {
      for (const body of ['not json', '{"type":"case.created"}', JSON.stringify({ data: { id: 'x'.repeat(500) } })])
        expect((await send(sink.url, forged(body))).status).toBeGreaterThanOrEqual(400)
      expect(sink.deliveries).toEqual([])
      expect(sink.counts().noise).toEqual({ bad_signature: 3 })
      expect(sink.noiseSamples).toHaveLength(3)
    } finally {
      await sink.close()
    }
  })
})

describe('startSink configuration errors', () => {
  it.each(['', 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'whsec_', 'whsec_not base64!'])('refuses the secret %j', async (secret) => {
    await expect(startSink({ port: 0, secret })).rejects.toThrow(CrmConfError)
  })

  it('reports a port in use as a configuration error', async () => {
    const first = await startSink({ host: '127.0.0.1', port: 0, secret: SECRET })
    try {
      await expect(startSink({ host: '127.0.0.1', port: first.port, secret: SECRET })).rejects.toMatchObject({ code: 'CRMCONF_CONFIG_INVALID' })
    } finally {
      await first.close()
    }
  })
})
