// Named faults: each one a realistic implementer mistake, switched on by name to prove that some check fails.
// Adding a fault: one entry here, and one `if (faults.has('<id>'))` where the mistake would be made.

export interface FaultInfo {
  id: string
  /** The mistake, as a reviewer would describe it. */
  description: string
  /** The suite area whose checks should catch it. */
  area: string
}

export const FAULTS = [
  { id: 'records.missing-updatedAt', area: 'records', description: 'Records are returned without their updatedAt field.' },
  { id: 'records.datetime-without-zone', area: 'records', description: 'Date-time fields are written without a zone (2025-01-01T10:00:00.000).' },
  { id: 'pagination.default-limit-20', area: 'pagination', description: 'A list without limit returns 20 records, not 25.' },
  { id: 'pagination.repeat-boundary-record', area: 'pagination', description: 'The next page starts with the last record of the previous page.' },
  { id: 'filters.email-ignored', area: 'filters', description: 'The email filter is ignored: every record is returned.' },
  { id: 'validation.no-details', area: 'validation', description: 'A 400 for an invalid body has no details array.' },
  { id: 'auth.missing-key-403', area: 'auth', description: 'A request without a key answers 403 instead of 401.' },
  { id: 'auth.scopes-ignored', area: 'auth', description: 'Scopes are not enforced: any valid key may call anything.' },
  { id: 'idempotency.ignored', area: 'idempotency', description: 'Idempotency-Key is ignored: every retry creates another record.' },
  { id: 'ratelimit.no-headers-on-errors', area: 'ratelimit', description: 'RateLimit-* headers are missing on 4xx responses.' },
  { id: 'state.replace-non-draft', area: 'state', description: 'A quotation or invoice that is no longer a draft can still be replaced.' },
  { id: 'webhooks.hex-signature', area: 'webhooks', description: 'The webhook signature is hex, not base64.' },
] as const satisfies readonly FaultInfo[]

export type FaultId = (typeof FAULTS)[number]['id']

/** The faults switched on for one server; `has` is typed, so a misspelt id is a compile error. */
export type FaultSet = ReadonlySet<FaultId>

const KNOWN: ReadonlySet<string> = new Set(FAULTS.map((f) => f.id))

/** Throws on an unknown id, naming the known ones: a typo must not silently test nothing. */
export function faultSet(ids: readonly string[] = []): FaultSet {
  const unknown = ids.filter((id) => !KNOWN.has(id))
  if (unknown.length > 0) throw new Error(`Unknown fault id(s): ${unknown.join(', ')}. Known: ${[...KNOWN].join(', ')}`)
  return new Set(ids as FaultId[])
}
