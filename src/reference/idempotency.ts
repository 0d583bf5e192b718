// §4.1, §8: a create retried with the same Idempotency-Key and body within 24 hours returns the first response.
// Entries are kept per API key, so one caller's keys never answer another's.
import type { FaultId, SwitchesOf } from './faults.ts'

/** The faults this module plays (faults.ts): the only switches its code can read. */
export const IDEMPOTENCY_FAULTS = [
  'idempotency.ignored',
  'idempotency.ignored-on-payments',
  'idempotency.replay-returns-current',
  'idempotency.retention-seconds',
] as const satisfies readonly FaultId[]
type Switches = SwitchesOf<typeof IDEMPOTENCY_FAULTS>

export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000

/** The retention the store keeps: 24 hours, or with the fault 24 seconds (the TTL written in the wrong unit). */
export function retentionMs(faults: Switches): number {
  return faults['idempotency.retention-seconds'] ? 24 * 1000 : IDEMPOTENCY_RETENTION_MS
}
/** Longest accepted Idempotency-Key (not shown in the spec). */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255

export interface StoredResponse {
  /** What the request was: the resource and the canonical JSON of its body. */
  fingerprint: string
  status: number
  body: unknown
  headers: Record<string, string>
  at: number
}

export class IdempotencyStore {
  private readonly entries = new Map<string, StoredResponse>()
  private sweptAt = 0

  constructor(private readonly retentionMs = IDEMPOTENCY_RETENTION_MS) {}

  lookup(apiKey: string, idempotencyKey: string, now: number): StoredResponse | undefined {
    this.sweep(now)
    const entry = this.entries.get(`${apiKey}\u0000${idempotencyKey}`)
    if (entry && now - entry.at >= this.retentionMs) {
      this.entries.delete(`${apiKey}\u0000${idempotencyKey}`)
      return undefined
    }
    return entry
  }

  save(apiKey: string, idempotencyKey: string, response: StoredResponse): void {
    this.entries.set(`${apiKey}\u0000${idempotencyKey}`, response)
  }

  /** Drops expired entries at most once a minute, so memory stays bounded by a day of creates. */
  private sweep(now: number): void {
    if (now - this.sweptAt < 60_000) return
    this.sweptAt = now
    for (const [k, e] of this.entries) if (now - e.at >= this.retentionMs) this.entries.delete(k)
  }
}

/** JSON with object keys sorted at every depth: two bodies are the same when their canonical forms are equal. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  const keys = Object.keys(value).sort()
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`
}

/** Whether a create of this resource looks at its Idempotency-Key; the faults: ignored everywhere, or on payments only. */
export function keyHonoured(resource: string, faults: Switches): boolean {
  if (faults['idempotency.ignored']) return false
  return !(faults['idempotency.ignored-on-payments'] && resource === 'payment')
}

/**
 * The body a replay sends: the first response's (§4.1). The fault: the record is read again by its id, so a record
 * changed since the first create comes back as it is now.
 */
export function replayedBody(first: StoredResponse, faults: Switches, current: (id: string) => unknown): unknown {
  const id = (first.body as { id?: unknown } | null)?.id
  if (!faults['idempotency.replay-returns-current'] || typeof id !== 'string') return first.body
  return current(id) ?? first.body
}
