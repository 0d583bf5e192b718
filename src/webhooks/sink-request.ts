// What the sink reads of every request, whatever its verdict (headers with credentials redacted, the record
// ids a body claims), and how it answers (JSON, never to a client already gone).
import type { ServerResponse } from 'node:http'

const REDACTED_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie'])

export function recordedHeaders(raw: string[]): Record<string, string | string[]> {
  // No prototype: a header named __proto__ stays a header.
  const headers = Object.create(null) as Record<string, string | string[]>
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i].toLowerCase()
    const value = REDACTED_HEADERS.has(name) ? '<redacted>' : raw[i + 1]
    const previous = headers[name]
    headers[name] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value]
  }
  return headers
}

/** Record ids longer than this are not ids anyone's run created. */
const MAX_CLAIM_LENGTH = 200

/** The record ids an event names: `data.id` and `data.object.id` (§6.3 does not say whose id `data.id` is). */
export function claimsOf(parsed: unknown): string[] {
  const data = (parsed as { data?: { id?: unknown; object?: { id?: unknown } } } | null)?.data
  const ids = [data?.id, data?.object?.id].filter((v): v is string => typeof v === 'string' && v.length > 0 && v.length <= MAX_CLAIM_LENGTH)
  return [...new Set(ids)]
}

/** The event kind and record ids a refused body claims, for the record and the tie to the run: not verified. */
export function readBody(body: Buffer): { type?: string; claims: string[] } {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { type?: unknown }
    return { type: typeof parsed?.type === 'string' ? parsed.type.slice(0, MAX_CLAIM_LENGTH) : undefined, claims: claimsOf(parsed) }
  } catch {
    return { claims: [] }
  }
}

export function send(res: ServerResponse, status: number, body: unknown, close = false): void {
  if (res.headersSent || res.destroyed) return
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...(close ? { connection: 'close' } : {}) })
  res.end(text)
}
