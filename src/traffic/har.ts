// Reads HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/) as exchanges, one `log.entries` item at a
// time: a HAR can be gigabytes, so har-entries.ts cuts each entry's text out of the stream and only the current
// entry is ever held. Exports of browser devtools, Playwright, mitmproxy and Charles differ in the optional parts only:
// base64 `content.text`, a body kept out of the file (`_file`, no text), status 0 for a request that got no
// answer, HTTP/2 pseudo-headers.
import { createReadStream } from 'node:fs'
import { Readable } from 'node:stream'
import { DEFAULTS } from '../config/config.ts'
import { parseBoundedJson } from '../http/bounded-json.ts'
import { harEntries, OMITTED_PREFIX, type HarEntryBytes } from './har-entries.ts'
import { harMemberChunks, HarZipError } from './har-zip.ts'
import { TrafficFileError } from './ndjson.ts'
import type { TrafficExchange } from './types.ts'

interface HarHeader {
  name?: unknown
  value?: unknown
}

interface HarEntry {
  startedDateTime?: unknown
  time?: unknown
  request?: {
    method?: unknown
    url?: unknown
    headers?: unknown
    bodySize?: unknown
    postData?: { text?: unknown; mimeType?: unknown; encoding?: unknown; _file?: unknown }
  }
  response?: {
    status?: unknown
    headers?: unknown
    content?: { text?: unknown; encoding?: unknown; size?: unknown; mimeType?: unknown; _file?: unknown }
    _failureText?: unknown
  }
  _failureText?: unknown
}

/** The note on a body whose text in the file was longer than the scanner keeps (har-entries.ts). */
const tooLong = (marker: string) => `the body in the file is ${marker.slice(OMITTED_PREFIX.length)} bytes long, over what is read: not judged`

/** Why a body that was sent is not in the file (Playwright's content 'omit' and 'attach', devtools without content). */
const LEFT_OUT = 'the HAR file left this body out (written without content, or to a separate file): not judged'

/** Headers of a HAR entry: lower-case names, repeated names joined, HTTP/2 pseudo-headers (`:authority`) dropped. */
function headersOf(list: unknown): Record<string, string> {
  if (!Array.isArray(list)) return {}
  // A Map, then entries: a header named constructor or __proto__ is data, never Object's own member.
  const out = new Map<string, string>()
  for (const item of list as HarHeader[]) {
    if (typeof item?.name !== 'string' || item.name.startsWith(':')) continue
    const name = item.name.toLowerCase()
    const value = String(item.value ?? '')
    const before = out.get(name)
    out.set(name, before === undefined ? value : `${before}, ${value}`)
  }
  return Object.fromEntries(out)
}

/** What is kept of a body that is not judged: its start, to show what it was. */
const UNJUDGED_TEXT_KEPT = 4 * 1024

/**
 * Parsed JSON when the text is JSON, else the text; `truncated` (with a note, and only the text's start) when it is
 * past the size cap or nested deeper than any walk after it survives (the depth bound holds whether or not there
 * is a secret to mask).
 */
export function bodyOfText(text: string): { body: unknown; truncated?: boolean; note?: string } {
  if (text.length > DEFAULTS.maxResponseBytes)
    return { body: text.slice(0, UNJUDGED_TEXT_KEPT), truncated: true, note: `the body is over ${DEFAULTS.maxResponseBytes} bytes: not judged` }
  const trimmed = text.trimStart()
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    const parsed = parseBoundedJson(text)
    if (parsed.parsed) return { body: parsed.value }
    if (parsed.note !== undefined) return { body: text.slice(0, UNJUDGED_TEXT_KEPT), truncated: true, note: `${parsed.note}: not judged` }
    // Not JSON after all: kept as text.
  }
  return { body: text }
}

function decoded(text: string, encoding: unknown): string {
  return encoding === 'base64' ? Buffer.from(text, 'base64').toString('utf8') : text
}

/**
 * A request's postData or a response's content as the exchange holds it: the body read from its text, or
 * `truncated` with a note when the text was too long to keep or the exporter left out a body that was `sent`
 * (Playwright's `_file`, devtools without content): never judged as an empty or missing body. Nothing when none was sent.
 */
function bodyOfEntry(text: unknown, encoding: unknown, sent: boolean): { body?: unknown; truncated?: boolean; note?: string } {
  if (typeof text === 'string' && text.startsWith(OMITTED_PREFIX)) return { truncated: true, note: tooLong(text) }
  if (typeof text === 'string' && text !== '') {
    const { body, truncated, note } = bodyOfText(decoded(text, encoding))
    return truncated ? { body, truncated: true, note } : { body }
  }
  return sent ? { truncated: true, note: LEFT_OUT } : {}
}

/** A HAR entry's request line and headers, its times, and nothing of its bodies or response: what routing reads. */
function requestOfEntry(entry: HarEntry, source: string, seq: number): TrafficExchange {
  const request = entry.request
  if (!request || typeof request.method !== 'string' || typeof request.url !== 'string') throw new Error('entry without request.method and request.url')
  const started = typeof entry.startedDateTime === 'string' ? Date.parse(entry.startedDateTime) : NaN
  const time = typeof entry.time === 'number' && entry.time > 0 ? entry.time : 0
  const startedAt = Number.isFinite(started) ? new Date(started).toISOString() : ''
  const endedAt = Number.isFinite(started) ? new Date(started + time).toISOString() : ''
  return {
    seq,
    source,
    request: { method: request.method.toUpperCase(), url: request.url, headers: headersOf(request.headers) },
    startedAt,
    endedAt,
  }
}

/** One HAR entry as an exchange (secrets not yet masked). */
export function exchangeOfEntry(entry: HarEntry, source: string, seq: number): TrafficExchange {
  const exchange = requestOfEntry(entry, source, seq)
  const request = entry.request!
  const postData = request.postData
  const bodySize = typeof request.bodySize === 'number' ? request.bodySize : 0
  const sent = postData?._file !== undefined || bodySize > 0 || (postData !== undefined && postData.text === undefined)
  Object.assign(exchange.request, bodyOfEntry(postData?.text, postData?.encoding, sent))
  const response = entry.response
  const status = typeof response?.status === 'number' ? response.status : Number(response?.status)
  // Browsers record a call that got no answer (blocked, failed, aborted by CORS) with status 0 or -1 and a
  // _failureText: not an exchange the server answered.
  const failed = entry._failureText !== undefined || response?._failureText !== undefined
  if (response && Number.isInteger(status) && status > 0 && !failed) {
    const content = response.content
    const size = typeof content?.size === 'number' ? content.size : 0
    exchange.response = {
      status,
      headers: headersOf(response.headers),
      ...bodyOfEntry(content?.text, content?.encoding, size > 0 || content?._file !== undefined),
    }
  }
  return exchange
}

/**
 * Streams the exchanges of a HAR file (or stream). `seq` is assigned from `firstSeq` on; `source` is
 * `<label>#entry N`. A file that is not JSON ends the read with a TrafficFileError.
 */
export async function* readHar(input: string | Readable, options: { label?: string; firstSeq?: number; zip?: boolean } = {}): AsyncGenerator<TrafficExchange> {
  for await (const unit of readHarUnits(input, options)) yield unit.exchange
}

/**
 * An entry read: its exchange, and its bytes for a --jobs worker to read the exchange from again (jobs.ts posts
 * bytes, not objects: bytes cross threads without a copy, an object graph at the cost of rebuilding it).
 * `light`: only the request line and headers (what routing reads), parsed from the entry's `request` alone; the
 * whole entry is parsed by whoever reads it whole (`whole` here, or a worker from the bytes), once.
 */
export interface HarUnit {
  exchange: TrafficExchange
  bytes: Buffer
  /** `light`: the whole exchange, parsed from the bytes (throws a TrafficFileError naming the entry when it cannot be). */
  whole?: () => TrafficExchange
}

/** The whole exchange of an entry's bytes; throws (with JSON.parse's or the reader's reason) when it is not one. */
export function exchangeOfEntryBytes(bytes: Buffer, source: string, seq: number): TrafficExchange {
  return exchangeOfEntry(JSON.parse(bytes.toString('utf8')) as HarEntry, source, seq)
}

/**
 * What routing reads of an entry (requestOfEntry: no bodies, no times), from its `request` member alone when the
 * scanner found one; otherwise, or when that part is not a request, from the whole entry, so an entry that cannot
 * be read fails with the reason the whole read gives.
 */
function routingOfEntry({ bytes, request }: HarEntryBytes, source: string, seq: number): TrafficExchange {
  if (request) {
    try {
      const parsed = JSON.parse(bytes.toString('utf8', request.start, request.end)) as HarEntry['request']
      if (typeof parsed?.method === 'string' && typeof parsed.url === 'string')
        return {
          seq,
          source,
          request: { method: parsed.method.toUpperCase(), url: parsed.url, headers: headersOf(parsed.headers) },
          startedAt: '',
          endedAt: '',
        }
    } catch {
      // Read whole below, for its reason.
    }
  }
  return requestOfEntry(JSON.parse(bytes.toString('utf8')) as HarEntry, source, seq)
}

/**
 * Bytes read at a time: fewer, larger chunks cost the scanner less (an entry split over chunks is gathered from its
 * parts; 1 MiB measured ~0.1 s less than the stream's 64 KiB on the bench's 53 MB HAR).
 */
const READ_CHUNK = 1024 * 1024

export async function* readHarUnits(
  input: string | Readable,
  options: { label?: string; firstSeq?: number; zip?: boolean; light?: boolean } = {},
): AsyncGenerator<HarUnit> {
  const label = options.label ?? (typeof input === 'string' ? input : 'har')
  const source =
    typeof input === 'string' ? (options.zip ? Readable.from(harMemberChunks(input)) : createReadStream(input, { highWaterMark: READ_CHUNK })) : input
  let seq = options.firstSeq ?? 1
  let index = 0
  const unreadable = (at: number, error: unknown) => new TrafficFileError(label, `entry ${at}: ${(error as Error).message}`)
  try {
    for await (const entry of harEntries(source as AsyncIterable<Buffer | string>)) {
      index++
      let exchange: TrafficExchange
      const where = `${label}#entry ${index}`
      const [at, entryIndex] = [seq, index]
      try {
        exchange = options.light ? routingOfEntry(entry, where, at) : exchangeOfEntryBytes(entry.bytes, where, at)
      } catch (error) {
        throw unreadable(index, error)
      }
      seq++
      const { bytes } = entry
      const whole = () => {
        try {
          return exchangeOfEntryBytes(bytes, where, at)
        } catch (error) {
          throw unreadable(entryIndex, error)
        }
      }
      yield { exchange, bytes, ...(options.light ? { whole } : {}) }
    }
  } catch (error) {
    if (error instanceof TrafficFileError) throw error
    if (error instanceof HarZipError) throw new TrafficFileError(label, error.message)
    throw new TrafficFileError(label, `not a readable HAR file (${(error as Error).message})`)
  } finally {
    source.destroy()
  }
}

/** HAR 1.2 text of exchanges (for tests and for turning a recording into something devtools open). */
export function harOf(exchanges: Iterable<TrafficExchange>, creator = { name: 'crm-conformance', version: '0' }): string {
  const entries = [...exchanges].map((ex) => {
    const text = (body: unknown) => (body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body))
    const requestText = text(ex.request.body)
    const responseText = ex.response ? text(ex.response.body) : undefined
    const started = Date.parse(ex.startedAt)
    const ended = Date.parse(ex.endedAt)
    return {
      startedDateTime: ex.startedAt,
      time: Number.isFinite(started) && Number.isFinite(ended) ? ended - started : 0,
      request: {
        method: ex.request.method,
        url: ex.request.url,
        httpVersion: 'HTTP/1.1',
        headers: Object.entries(ex.request.headers).map(([name, value]) => ({ name, value })),
        queryString: [...new URL(ex.request.url).searchParams].map(([name, value]) => ({ name, value })),
        cookies: [],
        headersSize: -1,
        bodySize: requestText === undefined ? 0 : Buffer.byteLength(requestText),
        ...(requestText !== undefined ? { postData: { mimeType: ex.request.headers['content-type'] ?? 'application/json', text: requestText } } : {}),
      },
      response: ex.response
        ? {
            status: ex.response.status,
            statusText: '',
            httpVersion: 'HTTP/1.1',
            headers: Object.entries(ex.response.headers).map(([name, value]) => ({ name, value })),
            cookies: [],
            content: {
              size: responseText === undefined ? 0 : Buffer.byteLength(responseText),
              mimeType: ex.response.headers['content-type'] ?? '',
              // Base64, as mitmproxy and Charles write bodies: the reader must decode it.
              ...(responseText !== undefined ? { text: Buffer.from(responseText).toString('base64'), encoding: 'base64' } : {}),
            },
            redirectURL: '',
            headersSize: -1,
            bodySize: -1,
          }
        : {
            status: 0,
            statusText: '',
            httpVersion: '',
            headers: [],
            cookies: [],
            content: { size: 0, mimeType: '' },
            redirectURL: '',
            headersSize: -1,
            bodySize: -1,
            _error: 'net::ERR_FAILED',
          },
      cache: {},
      timings: { send: 0, wait: 0, receive: 0 },
    }
  })
  return JSON.stringify({ log: { version: '1.2', creator, entries } })
}
