// One request and its response, as recorded for evidence. Secrets are redacted before an Exchange exists.

export interface RecordedRequest {
  method: string
  url: string
  headers: Record<string, string>
  /** Parsed JSON when the body was JSON, else the raw text (undefined when no body was sent). */
  body?: unknown
}

export interface RecordedResponse {
  status: number
  headers: Record<string, string>
  /** Parsed JSON when the body parsed, else the raw text (cut at the size cap). */
  body?: unknown
  /** The raw text, kept only when it did not parse as JSON. */
  rawText?: string
  /** Why the body was not parsed or decoded, when there is a reason beyond "not JSON" (too deeply nested, compressed unasked). */
  note?: string
  /** True when the body was cut at the size cap. */
  truncated?: boolean
}

export interface Exchange {
  /** Sequence number within the run. */
  seq: number
  /** Which key was used (the role, never the key). */
  keyRole: string
  request: RecordedRequest
  /** Absent when no response arrived (network error, timeout). */
  response?: RecordedResponse
  /** The transport error code when no response arrived (CRMCONF_TIMEOUT, CRMCONF_NETWORK, …). */
  error?: { code: string; message: string }
  startedAt: string
  durationMs: number
  /** The check that sent it (set by the check's client view). */
  checkId?: string
}
