/**
 * NDJSON exchanges: the format `crm-conformance proxy --record` writes and `verify-traffic` reads.
 *
 * One JSON object per line, one line per exchange, in the order the exchanges ended:
 *
 * ```json
 * {"request":{"method":"POST","url":"http://127.0.0.1:8080/v1/accounts?x=1","headers":{"authorization":"Bearer <redacted:CRM_API_KEY>","content-type":"application/json"},"body":{"name":"Acme"}},
 *  "response":{"status":201,"headers":{"content-type":"application/json","ratelimit-remaining":"599"},"body":{"id":"…"}},
 *  "startedAt":"2026-11-24T03:00:00.000Z","endedAt":"2026-11-24T03:00:00.012Z"}
 * ```
 * (written on one line)
 *
 * - `request.method`, `request.url` (absolute, with the query string), `request.headers` (names in lower case,
 *   one string per name; repeated headers joined with `, `), `request.body` (parsed JSON when the body was JSON,
 *   else its text; absent when none was sent).
 * - `response.status`, `response.headers`, `response.body` as above; `response.truncated: true` when the body was
 *   cut at the size cap (rules that judge bodies skip it); `response` absent when none was received.
 * - `startedAt`, `endedAt`: ISO 8601 times the request started and the response ended.
 * - optional: `keyRole` (which configured key sent it: `main`, `rateLimited`, … or `key#N` for another key).
 * Every secret is masked in a written file (`Bearer <redacted:CRM_API_KEY>`, `<redacted>`). Blank lines are skipped.
 */
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs'
import { once } from 'node:events'
import { DEFAULTS } from '../config/config.ts'
import { CrmConfError } from '../errors.ts'
import { jsonDepth, MAX_JSON_DEPTH } from '../http/bounded-json.ts'
import type { Readable } from 'node:stream'
import type { TrafficExchange } from './types.ts'

/** One line of an NDJSON file: a TrafficExchange without the fields a reader assigns. */
export type NdjsonExchange = Omit<TrafficExchange, 'seq' | 'source'>

export class TrafficFileError extends CrmConfError {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super('CRMCONF_TRAFFIC_FILE_INVALID', `${file}: ${message}`)
    this.name = 'TrafficFileError'
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function headersOf(value: unknown): Record<string, string> {
  if (!isObject(value)) return {}
  // A Map, then entries: a header named constructor or __proto__ is data, never Object's own member.
  const out = new Map<string, string>()
  for (const [name, v] of Object.entries(value)) {
    if (v === undefined || v === null) continue
    const lower = name.toLowerCase()
    const text = Array.isArray(v) ? v.map(String).join(', ') : String(v)
    const before = out.get(lower)
    out.set(lower, before === undefined ? text : `${before}, ${text}`)
  }
  return Object.fromEntries(out)
}

/** A parsed line as an exchange; throws (with the reason) when it is not one. */
export function exchangeOfLine(value: unknown, source: string, seq: number): TrafficExchange {
  if (!isObject(value) || !isObject(value.request)) throw new Error('not an exchange: no "request" object')
  const request = value.request
  if (typeof request.method !== 'string' || typeof request.url !== 'string') throw new Error('request.method and request.url must be strings')
  const exchange: TrafficExchange = {
    seq,
    source,
    request: {
      method: request.method.toUpperCase(),
      url: request.url,
      headers: headersOf(request.headers),
      ...(request.body !== undefined ? { body: request.body } : {}),
    },
    startedAt: typeof value.startedAt === 'string' ? value.startedAt : '',
    endedAt: typeof value.endedAt === 'string' ? value.endedAt : typeof value.startedAt === 'string' ? value.startedAt : '',
    ...(typeof value.keyRole === 'string' ? { keyRole: value.keyRole } : {}),
  }
  const response = value.response
  if (isObject(response)) {
    const status = Number(response.status)
    if (!Number.isInteger(status)) throw new Error('response.status must be an integer')
    exchange.response = {
      status,
      headers: headersOf(response.headers),
      ...(response.body !== undefined ? { body: response.body } : {}),
      ...(response.truncated === true ? { truncated: true } : {}),
    }
  }
  return exchange
}

/**
 * Reads an NDJSON file line by line (memory flat whatever its size). `seq` is assigned from `firstSeq` on;
 * `source` is `<label>:<line>`. A line that is not an exchange ends the read with a TrafficFileError.
 */
/**
 * The longest line read: a recorded exchange holds two bodies of at most DEFAULTS.maxResponseBytes each; a longer
 * line is an unreadable input (one line naming it), never read whole into memory.
 */
export const MAX_LINE_BYTES = 4 * DEFAULTS.maxResponseBytes

/** The lines of a byte stream, each at most `max` bytes (else a TrafficFileError naming its number); CRLF ends a line too. */
async function* boundedLines(chunks: AsyncIterable<Buffer | string>, label: string, max: number): AsyncGenerator<string> {
  let parts: Buffer[] = []
  let size = 0
  let lineNo = 0
  const line = (): string => {
    const text = Buffer.concat(parts, size).toString('utf8')
    parts = []
    size = 0
    return text.endsWith('\r') ? text.slice(0, -1) : text
  }
  for await (const raw of chunks) {
    let chunk = typeof raw === 'string' ? Buffer.from(raw) : raw
    for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a)) {
      lineNo++
      if (size + nl > max) throw new TrafficFileError(label, `line ${lineNo} is longer than ${max} bytes: not read (a line is one exchange)`)
      parts.push(chunk.subarray(0, nl))
      size += nl
      yield line()
      chunk = chunk.subarray(nl + 1)
    }
    if (size + chunk.length > max) throw new TrafficFileError(label, `line ${lineNo + 1} is longer than ${max} bytes: not read (a line is one exchange)`)
    parts.push(chunk)
    size += chunk.length
  }
  if (size > 0) yield line()
}

export async function* readNdjson(
  input: string | Readable,
  options: { label?: string; firstSeq?: number; maxLineBytes?: number } = {},
): AsyncGenerator<TrafficExchange> {
  for await (const unit of readNdjsonUnits(input, options)) yield unit.exchange
}

/** Each line read: its exchange, and its text for a --jobs worker to read the exchange from again (see har.ts HarUnit). */
export async function* readNdjsonUnits(
  input: string | Readable,
  options: { label?: string; firstSeq?: number; maxLineBytes?: number } = {},
): AsyncGenerator<{ exchange: TrafficExchange; text: string }> {
  const label = options.label ?? (typeof input === 'string' ? input : 'ndjson')
  const stream = typeof input === 'string' ? createReadStream(input) : input
  const lines = boundedLines(stream as AsyncIterable<Buffer | string>, label, options.maxLineBytes ?? MAX_LINE_BYTES)
  let lineNo = 0
  let seq = options.firstSeq ?? 1
  try {
    for await (const line of lines) {
      lineNo++
      if (line.trim() === '') continue
      if (jsonDepth(line) > MAX_JSON_DEPTH) throw new TrafficFileError(label, `line ${lineNo} is nested more than ${MAX_JSON_DEPTH} levels deep: not read`)
      let parsed: unknown
      try {
        parsed = JSON.parse(line)
      } catch (error) {
        throw new TrafficFileError(label, `line ${lineNo} is not JSON (${(error as Error).message})`)
      }
      let exchange: TrafficExchange
      try {
        exchange = exchangeOfLine(parsed, `${label}:${lineNo}`, seq++)
      } catch (error) {
        throw new TrafficFileError(label, `line ${lineNo}: ${(error as Error).message}`)
      }
      yield { exchange, text: line }
    }
  } finally {
    await lines.return(undefined)
    if (typeof input === 'string') stream.destroy()
  }
}

/** The line `--record` writes for an exchange (already redacted). */
export function ndjsonLine(exchange: TrafficExchange): string {
  const line: NdjsonExchange = {
    request: exchange.request,
    ...(exchange.response ? { response: exchange.response } : {}),
    startedAt: exchange.startedAt,
    endedAt: exchange.endedAt,
    ...(exchange.keyRole ? { keyRole: exchange.keyRole } : {}),
  }
  return `${JSON.stringify(line)}\n`
}

/** Appends exchanges to an NDJSON file; the caller hands it redacted exchanges only. */
export class NdjsonWriter {
  private readonly stream: WriteStream
  private failed: Error | undefined
  written = 0

  /** `append`: add to the file (the proxy's judging thread, started again after a crash, continues the file). */
  constructor(
    readonly path: string,
    options: { append?: boolean } = {},
  ) {
    this.stream = createWriteStream(path, { flags: options.append ? 'a' : 'w', encoding: 'utf8' })
    this.stream.on('error', (error) => (this.failed = error))
  }

  /** Opened (or why not): call before accepting traffic, so a bad path fails at start. */
  async ready(): Promise<void> {
    if (this.failed) throw this.failed
    await Promise.race([once(this.stream, 'open'), once(this.stream, 'error').then(([e]) => Promise.reject(e as Error))])
  }

  write(exchange: TrafficExchange): void {
    if (this.failed) return
    this.stream.write(ndjsonLine(exchange))
    this.written++
  }

  async close(): Promise<void> {
    if (this.stream.closed) return
    await new Promise<void>((resolve) => this.stream.end(resolve))
    if (this.failed) throw this.failed
  }
}
