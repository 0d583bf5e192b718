// The file readers and the redaction of observed traffic: HAR as devtools, Playwright, mitmproxy and Charles
// write it, NDJSON as --record writes it, and no secret surviving into an exchange.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { afterAll, describe, expect, it } from 'vitest'
import { readHar } from '../../src/traffic/har.ts'
import { harEntryTexts, HarStructureError } from '../../src/traffic/har-entries.ts'
import { readNdjson, TrafficFileError, ndjsonLine } from '../../src/traffic/ndjson.ts'
import { TrafficRedactor } from '../../src/traffic/redaction.ts'
import type { TrafficExchange } from '../../src/traffic/types.ts'
import { basePathOf, detectFormat, verifyTrafficCommand } from '../../src/traffic/verify-command.ts'

const dir = mkdtempSync(join(tmpdir(), 'crmconf-readers-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const item of items) out.push(item)
  return out
}

const devtoolsHar = {
  log: {
    version: '1.2',
    creator: { name: 'WebInspector', version: '537.36' },
    pages: [],
    entries: [
      {
        startedDateTime: '2026-11-24T03:00:00.000Z',
        time: 12.5,
        request: {
          method: 'post',
          url: 'https://crm.example.com/api/v1/accounts',
          headers: [
            { name: ':authority', value: 'crm.example.com' },
            { name: 'Authorization', value: 'Bearer crm_ws_main_supersecretvalue1' },
            { name: 'Content-Type', value: 'application/json' },
          ],
          postData: { mimeType: 'application/json', text: '{"name":"Acme"}' },
        },
        response: {
          status: 201,
          headers: [
            { name: 'Content-Type', value: 'application/json' },
            { name: 'Set-Cookie', value: 'a=1' },
            { name: 'Set-Cookie', value: 'b=2' },
          ],
          content: { size: 16, mimeType: 'application/json', text: Buffer.from('{"id":"abc"}').toString('base64'), encoding: 'base64' },
        },
      },
      // Playwright keeps bodies in attached files; devtools record a blocked request with status 0.
      {
        startedDateTime: '2026-11-24T03:00:01.000Z',
        time: 3,
        request: { method: 'GET', url: 'https://crm.example.com/api/v1/me', headers: [] },
        response: { status: 200, headers: [], content: { size: 120, mimeType: 'application/json', _file: 'abc.json' } },
      },
      {
        startedDateTime: '2026-11-24T03:00:02.000Z',
        time: 0,
        request: { method: 'GET', url: 'https://crm.example.com/api/v1/me', headers: [] },
        response: { status: 0, headers: [], content: { size: 0 } },
      },
    ],
  },
}

describe('readHar', () => {
  it('streams the entries of a devtools / Playwright export into exchanges', async () => {
    const file = join(dir, 'devtools.har')
    writeFileSync(file, JSON.stringify(devtoolsHar, null, 2))
    const exchanges = await all(readHar(file, { label: 'devtools.har' }))
    expect(exchanges).toHaveLength(3)
    const [post, me, blocked] = exchanges as [TrafficExchange, TrafficExchange, TrafficExchange]
    expect(post).toMatchObject({ seq: 1, source: 'devtools.har#entry 1', startedAt: '2026-11-24T03:00:00.000Z', endedAt: '2026-11-24T03:00:00.012Z' })
    expect(post.request).toEqual({
      method: 'POST',
      url: 'https://crm.example.com/api/v1/accounts',
      headers: { authorization: 'Bearer crm_ws_main_supersecretvalue1', 'content-type': 'application/json' },
      body: { name: 'Acme' },
    })
    expect(post.response).toEqual({ status: 201, headers: { 'content-type': 'application/json', 'set-cookie': 'a=1, b=2' }, body: { id: 'abc' } })
    expect(me.response).toEqual({ status: 200, headers: {}, truncated: true, note: expect.stringMatching(/left this body out/) })
    expect(blocked.response).toBeUndefined()
  })

  it('reads from a stream and fails with a TrafficFileError on a broken file', async () => {
    expect(await all(readHar(Readable.from([JSON.stringify({ log: { entries: [] } })])))).toEqual([])
    await expect(all(readHar(Readable.from(['{"log":{"entries":[{"request":']), { label: 'cut.har' }))).rejects.toBeInstanceOf(TrafficFileError)
  })
})

describe('harEntryTexts (the HAR entry scanner)', () => {
  // Strings holding what would end a naive scan: escaped quotes and backslashes, braces and brackets, keys
  // named like the path, and multi-byte UTF-8 (2, 3 and 4 bytes).
  const tricky = {
    log: {
      version: '1.2',
      creator: { name: 'x "entries": [{', version: '\\\\' },
      pages: [{ id: 'p', entries: [{ not: 'an entry' }] }],
      entries: [
        { request: { method: 'GET', url: 'http://h/v1/me?q="}]\\\\"' }, note: 'ß 漢字 🦄 "{[\\"]}" \\\\' },
        { request: { method: 'POST', url: 'http://h/v1/accounts', postData: { text: '{"name":"Ünïcødé \\"quoted\\" {}"}' } }, nested: [[{}], { a: [] }] },
        { request: { method: 'GET', url: 'http://h/v1/accounts/🦄' }, empty: '' },
      ],
      comment: 'after the entries: { never read',
    },
  }
  const text = JSON.stringify(tricky, null, 1)
  const expected = tricky.log.entries.map((e) => JSON.stringify(e))
  const texts = async (chunks: (Buffer | string)[]) => (await all(harEntryTexts(Readable.from(chunks)))).map((t) => JSON.stringify(JSON.parse(t)))

  it('yields each entry of log.entries whole, and nothing else', async () => {
    expect(await texts([text])).toEqual(expected)
  })

  it('gives the same entries whatever chunk boundaries split (strings, escapes, UTF-8 sequences, entries)', async () => {
    const bytes = Buffer.from(text)
    // One byte at a time splits every escape and every multi-byte character; then a few odd sizes.
    for (const size of [1, 2, 3, 7, 64]) {
      const chunks: Buffer[] = []
      for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size))
      expect(await texts(chunks)).toEqual(expected)
    }
  })

  it('refuses a cut file, an item that is not an object, and a file without log.entries', async () => {
    await expect(all(harEntryTexts(Readable.from(['{"log":{"entries":[{"a":"}'])))).rejects.toBeInstanceOf(HarStructureError)
    await expect(all(harEntryTexts(Readable.from(['{"log":{"entries":["x"]}}'])))).rejects.toBeInstanceOf(HarStructureError)
    await expect(all(harEntryTexts(Readable.from(['{"log":{"entries":[1]}}'])))).rejects.toBeInstanceOf(HarStructureError)
    await expect(all(harEntryTexts(Readable.from(['{"log":{"pages":[]}}'])))).rejects.toBeInstanceOf(HarStructureError)
    await expect(all(harEntryTexts(Readable.from(['not json'])))).rejects.toBeInstanceOf(HarStructureError)
  })
})

describe('readNdjson', () => {
  it('reads what ndjsonLine writes, skipping blank lines, numbering from firstSeq', async () => {
    const exchange: TrafficExchange = {
      seq: 9,
      source: 'proxy',
      request: { method: 'GET', url: 'http://h/v1/me', headers: { authorization: 'Bearer <redacted>' } },
      response: { status: 200, headers: {}, body: { a: 1 } },
      startedAt: 't0',
      endedAt: 't1',
      keyRole: 'key#1',
    }
    const text = `${ndjsonLine(exchange)}\n${ndjsonLine({ ...exchange, response: undefined })}`
    const read = await all(readNdjson(Readable.from([text]), { label: 'x.ndjson', firstSeq: 5 }))
    expect(read.map((e) => [e.seq, e.source])).toEqual([
      [5, 'x.ndjson:1'],
      [6, 'x.ndjson:3'],
    ])
    expect(read[0]).toEqual({ ...exchange, seq: 5, source: 'x.ndjson:1' })
    expect(read[1]!.response).toBeUndefined()
  })

  it('names the line that is not an exchange', async () => {
    await expect(all(readNdjson(Readable.from(['{"request":{"method":"GET","url":"u","headers":{}}}\nnot json\n']), { label: 'bad.ndjson' }))).rejects.toThrow(
      /bad.ndjson: line 2 is not JSON/,
    )
  })
})

describe('detectFormat and basePathOf', () => {
  it('tells HAR from NDJSON by extension, else by content', async () => {
    writeFileSync(join(dir, 'a.json'), JSON.stringify(devtoolsHar))
    writeFileSync(join(dir, 'b.log'), '{"request":{"method":"GET","url":"http://h/v1/me","headers":{}}}\n')
    expect(await detectFormat(join(dir, 'a.json'))).toBe('har')
    expect(await detectFormat(join(dir, 'b.log'))).toBe('ndjson')
    expect(await detectFormat('x.har')).toBe('har')
    expect(basePathOf('https://h/api/v1/accounts?x=1')).toBe('/api/v1')
    expect(basePathOf('https://h/v1')).toBe('/v1')
    expect(basePathOf('https://h/health')).toBeUndefined()
  })
})

describe('verifyTrafficCommand', () => {
  it('exits 2 when the traffic exercised no rule (nothing of the API under the base path)', async () => {
    const file = join(dir, 'elsewhere.ndjson')
    writeFileSync(
      file,
      '{"request":{"method":"GET","url":"http://h/health","headers":{}},"response":{"status":200,"headers":{}},"startedAt":"","endedAt":""}\n',
    )
    const outcome = await verifyTrafficCommand({ files: [file], reportDir: join(dir, 'r-elsewhere'), write: () => {}, env: {} })
    // A page or asset outside the base path is neither judged nor counted.
    expect(outcome).toMatchObject({ exitCode: 2, exchanges: 0 })
  })
})

describe('TrafficRedactor: credentials no variable names', () => {
  const base = (request: Partial<TrafficExchange['request']>, response: Partial<NonNullable<TrafficExchange['response']>>): TrafficExchange => ({
    seq: 1,
    source: 't',
    request: { method: 'GET', url: 'http://h/v1/accounts', headers: {}, ...request },
    response: { status: 200, headers: {}, ...response },
    startedAt: '',
    endedAt: '',
  })

  it('masks a value taken from a credential name wherever the same exchange echoes it, in any form', () => {
    const token = 'gw/T0ken+with=signs'
    const out = new TrafficRedactor().exchange(
      base({ headers: { 'x-gateway-token': token } }, { body: { error: { message: `bad ${encodeURIComponent(token)} or ${token}` } } }),
    )
    expect(out.request.headers['x-gateway-token']).toBe('<redacted>')
    expect(JSON.stringify(out)).not.toContain('T0ken')
  })

  it('leaves a body with nothing to mask as it is (no copy), and keeps what is no credential', () => {
    const body = { data: [{ id: '1', stageKey: 'won', name: 'Acme' }], nextCursor: '' }
    const out = new TrafficRedactor().exchange(base({ headers: { 'idempotency-key': 'idem-12345678' } }, { body }))
    expect(out.response!.body).toBe(body)
    expect(out.request.headers['idempotency-key']).toBe('idem-12345678')
  })
})

describe('TrafficRedactor', () => {
  const main = 'crm_ws_main_abcdefghijklmnop'
  const secret = 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0'
  const redactor = new TrafficRedactor([
    { name: 'CRM_API_KEY', value: main },
    { name: 'CRM_WEBHOOK_SECRET', value: secret },
  ])
  const exchange = (authorization: string, extra: Record<string, string> = {}): TrafficExchange => ({
    seq: 1,
    source: 't',
    request: { method: 'POST', url: `http://h/v1/accounts?key=${main}`, headers: { authorization, ...extra }, body: { note: `my key is ${main}`, s: secret } },
    response: { status: 200, headers: { 'set-cookie': 'sid=1' }, body: { echo: main } },
    startedAt: '',
    endedAt: '',
  })

  it('masks configured keys everywhere and names their role', () => {
    const out = redactor.exchange(exchange(`Bearer ${main}`))
    expect(out.keyRole).toBe('main')
    expect(JSON.stringify(out)).not.toContain(main)
    expect(JSON.stringify(out)).not.toContain('abcdefghijklmnop')
    expect(JSON.stringify(out)).not.toContain(secret.slice(6))
    expect(out.request.headers.authorization).toBe('Bearer <redacted:CRM_API_KEY>')
    expect(out.response!.headers['set-cookie']).toMatch(/^<redacted/)
  })

  it('masks a bearer token no variable names, and other credential headers, telling keys apart by digest', () => {
    const a = redactor.exchange(exchange('Bearer other_key_1', { 'x-api-key': 'k1', cookie: 'c=1', 'proxy-authorization': 'Basic eDp5' }))
    const b = redactor.exchange(exchange('Bearer other_key_2'))
    const a2 = redactor.exchange(exchange('Bearer other_key_1'))
    expect(a.request.headers.authorization).toBe('Bearer <redacted>')
    for (const name of ['x-api-key', 'cookie']) expect(a.request.headers[name]).toMatch(/^<redacted/)
    expect(a.request.headers['proxy-authorization']).toBe('Basic <redacted>')
    expect(a.keyRole).toBe(a2.keyRole)
    expect(a.keyRole).not.toBe(b.keyRole)
    // The scheme is no secret, and traffic.client.key names it.
    expect(redactor.exchange(exchange('Basic dXNlcjpwYXNz')).request.headers.authorization).toBe('Basic <redacted>')
  })
})
