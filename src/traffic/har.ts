// Reads HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/) as exchanges, one `log.entries` item at a
// time: a HAR can be gigabytes, so har-entries.ts cuts each entry's text out of the stream and only the current
// entry is ever held. Exports of browser devtools, Playwright, mitmproxy and Charles differ in the optional parts only:
// base64 `content.text`, a body kept out of the file (`_file`, no text), status 0 for a request that got no
// answer, HTTP/2 pseudo-headers.
import { createReadStream } from 'node:fs'
import type { Readable } from 'node:stream'
import { DEFAULTS } from '../config/config.ts'
import { harEntryTexts } from './har-entries.ts'
import { TrafficFileError } from './ndjson.ts'
import type { TrafficExchange } from './types.ts'

interface HarHeader {
  name?: unknown
  value?: unknown
}

interface HarEntry {
  startedDateTime?: unknown
  time?: unknown
  request?: { method?: unknown; url?: unknown; headers?: unknown; postData?: { text?: unknown; mimeType?: unknown; encoding?: unknown } }
  response?: { status?: unknown; headers?: unknown; content?: { text?: unknown; encoding?: unknown; size?: unknown; mimeType?: unknown } }
}

/** Headers of a HAR entry: lower-case names, repeated names joined, HTTP/2 pseudo-headers (`:authority`) dropped. */
function headersOf(list: unknown): Record<string, string> {
  const out: Record<string, string> = {}
  if (!Array.isArray(list)) return out
  for (const item of list as HarHeader[]) {
    if (typeof item?.name !== 'string' || item.name.startsWith(':')) continue
    const name = item.name.toLowerCase()
    const value = String(item.value ?? '')
    out[name] = name in out ? `${out[name]}, ${value}` : value
  }
  return out
}

/** Parsed JSON when the text is JSON, else the text; `truncated` when it is past the size cap. */
export function bodyOfText(text: string): { body: unknown; truncated?: boolean } {
  if (text.length > DEFAULTS.maxResponseBytes) return { body: text.slice(0, DEFAULTS.maxResponseBytes), truncated: true }
  const trimmed = text.trimStart()
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return { body: JSON.parse(text) }
    } catch {
      // Not JSON after all: kept as text.
    }
  }
  return { body: text }
}

function decoded(text: string, encoding: unknown): string {
  return encoding === 'base64' ? Buffer.from(text, 'base64').toString('utf8') : text
}

/** One HAR entry as an exchange (secrets not yet masked). */
export function exchangeOfEntry(entry: HarEntry, source: string, seq: number): TrafficExchange {
  const request = entry.request
  if (!request || typeof request.method !== 'string' || typeof request.url !== 'string') throw new Error('entry without request.method and request.url')
  const started = typeof entry.startedDateTime === 'string' ? Date.parse(entry.startedDateTime) : NaN
  const time = typeof entry.time === 'number' && entry.time > 0 ? entry.time : 0
  const startedAt = Number.isFinite(started) ? new Date(started).toISOString() : ''
  const endedAt = Number.isFinite(started) ? new Date(started + time).toISOString() : ''
  const exchange: TrafficExchange = {
    seq,
    source,
    request: { method: request.method.toUpperCase(), url: request.url, headers: headersOf(request.headers) },
    startedAt,
    endedAt,
  }
  const postText = request.postData?.text
  if (typeof postText === 'string' && postText !== '') exchange.request.body = bodyOfText(decoded(postText, request.postData?.encoding)).body
  const response = entry.response
  const status = typeof response?.status === 'number' ? response.status : Number(response?.status)
  // Devtools record a request that got no answer (blocked, failed, aborted) with status 0.
  if (response && Number.isInteger(status) && status > 0) {
    const content = response.content
    const text = content?.text
    const size = typeof content?.size === 'number' ? content.size : 0
    exchange.response = { status, headers: headersOf(response.headers) }
    if (typeof text === 'string' && text !== '') {
      const { body, truncated } = bodyOfText(decoded(text, content?.encoding))
      exchange.response.body = body
      if (truncated) exchange.response.truncated = true
    } else if (size > 0) {
      // The exporter left the body out (Playwright's `_file`, devtools without content): not judged as absent.
      exchange.response.truncated = true
    }
  }
  return exchange
}

/**
 * Streams the exchanges of a HAR file (or stream). `seq` is assigned from `firstSeq` on; `source` is
 * `<label>#entry N`. A file that is not JSON ends the read with a TrafficFileError.
 */
export async function* readHar(input: string | Readable, options: { label?: string; firstSeq?: number } = {}): AsyncGenerator<TrafficExchange> {
  const label = options.label ?? (typeof input === 'string' ? input : 'har')
  const source = typeof input === 'string' ? createReadStream(input) : input
  let seq = options.firstSeq ?? 1
  let index = 0
  try {
    for await (const text of harEntryTexts(source as AsyncIterable<Buffer | string>)) {
      index++
      let exchange: TrafficExchange
      try {
        exchange = exchangeOfEntry(JSON.parse(text) as HarEntry, `${label}#entry ${index}`, seq)
      } catch (error) {
        throw new TrafficFileError(label, `entry ${index}: ${(error as Error).message}`)
      }
      seq++
      yield exchange
    }
  } catch (error) {
    if (error instanceof TrafficFileError) throw error
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
