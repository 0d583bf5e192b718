// The sink's vocabulary: its named defaults, what it records of each request (Delivery), its counts, options
// and interface, and the status it answers for each refusal.
import { DEFAULTS } from '../config/config.ts'
import { MAX_BODY_BYTES } from './verify.ts'
import type { Diagnosis, VerificationFailure, WebhookEvent } from './verify.ts'

/** Named defaults of startSink, documented once. */
export const SINK_DEFAULTS = {
  host: DEFAULTS.sinkHost,
  port: DEFAULTS.sinkPort,
  /** A larger body is refused with 413 as soon as its size is known; the rest is read and thrown away, never kept. */
  maxBodyBytes: MAX_BODY_BYTES,
  /** A sender whose request headers are not complete by then gets 408 (a slow or stalled client). */
  headerTimeoutMs: 10_000,
  /** A sender whose body is not complete this long after its headers gets 408. */
  bodyTimeoutMs: 10_000,
  /** How much of a refused body its record keeps, to show what was sent. */
  bodyPreviewBytes: 512,
  /** Validity of a generated self-signed certificate; it starts a day early to tolerate a sender's clock skew. */
  selfSignedDays: 30,
  /**
   * Deliveries signed with the secret kept in memory (only the server, which holds the secret, can add one); past
   * it the oldest is dropped and counted in `dropped`.
   */
  maxDeliveries: 10_000,
  /**
   * Deliveries that did not verify but name a record, kept in case they are the server's own signed wrongly; past
   * it the oldest not tied to the run is set aside as noise (a flood of forgeries stays this size).
   */
  maxUnverified: 1_000,
  /** Noise requests kept as examples (the latest ones); every one is counted. */
  noiseSamples: 20,
  /** Failed TLS handshakes kept as examples (the latest ones); every one is counted. */
  tlsFailureSamples: 50,
  /** Log lines waiting for the disk past which new lines are dropped (and counted) rather than buffered. */
  maxLogBacklogBytes: 4 * 1024 * 1024,
} as const

/** Refusals of the sink itself, on top of the verifier's. `sink_error` is a bug of ours (answered 500). */
export type SinkRejection = VerificationFailure | 'slow_client' | 'bad_http' | 'incomplete_body' | 'sink_error'

export type Verdict = 'accepted' | 'duplicate' | 'rejected'

/**
 * Of a delivery signed with the secret, by the sink's own history of its webhook-id: `first` (never seen),
 * `retry` (signed anew or with another body after the sink answered the last attempt non-2xx: the server's retry,
 * §6.7), `again` (the same after a 2xx: the server sent it again), `replay` (byte for byte an earlier attempt,
 * whatever the sink answered it: anyone who saw it can post it again, so it says nothing about the server).
 */
export type AttemptKind = 'first' | 'retry' | 'again' | 'replay'

/** Why a request cannot count for a verdict: a refusal that cannot have come from the server, or a replay. */
export type NoiseReason = SinkRejection | 'replayed_id' | 'unrelated'

/** One HTTP request received, whatever its fate. */
export interface Delivery {
  /** 1, 2, … in arrival order. */
  seq: number
  receivedAt: string
  method: string
  path: string
  /** As sent, when the header was there (also for refused deliveries). */
  webhookId?: string
  /** webhook-timestamp, when it was integer seconds. */
  timestamp?: number
  /** The event kind: verified for accepted and duplicate, best effort (unverified) for refused ones. */
  type?: string
  /** `accepted`: verified, first time this webhook-id is seen; `duplicate`: verified, webhook-id seen before (§6.6). */
  verdict: Verdict
  reason?: SinkRejection
  detail?: string
  /** Implementer mistakes the refused delivery matches (verify.ts diagnose). */
  mistakes?: Diagnosis[]
  /** How many verified deliveries have carried this webhook-id, this one included (replays not counted). */
  attempt?: number
  /** Signed with the endpoint's secret, as §6.5 says or with a diagnosed mistake (verify.ts examineSignature). */
  authentic: boolean
  /** For an authentic delivery: how it relates to earlier attempts of its webhook-id. */
  attemptKind?: AttemptKind
  /** Record ids the body names (`data.id`, `data.object.id`), read whether or not the delivery verified. */
  claims?: string[]
  /** SHA-256 of the raw body (hex), to tell a copy of a verified body. */
  bodySha256?: string
  /** Set on a request the sink set aside as noise: it is counted, printed and logged, never kept for a verdict. */
  noise?: NoiseReason
  /** The verified event (accepted and duplicate only). */
  event?: WebhookEvent
  /** Request headers, names in lower case; a repeated header is an array; credentials redacted. */
  headers: Record<string, string | string[]>
  bodyBytes: number
  /** The start of a refused body, decoded as UTF-8. */
  bodyPreview?: string
  /** The status the sink answered (or tried to answer, when the sender had gone). */
  status: number
  remoteAddress?: string
}

/** A TLS handshake that failed: no HTTP request, so no Delivery; often the sender refusing a self-signed certificate. */
export interface TlsFailure {
  at: string
  remoteAddress?: string
  code?: string
  message: string
  hint?: string
}

/** Chooses the answer to a verified delivery: a status from 200 to 599, or undefined for the default 200. */
export type RespondRule = (event: WebhookEvent, delivery: { webhookId: string; attempt: number; verdict: 'accepted' | 'duplicate' }) => number | undefined

/** What the sink received, counted in full however little of it is kept. */
export interface SinkCounts {
  /** Every request recorded, noise included. */
  received: number
  accepted: number
  duplicate: number
  rejected: number
  /** Refused requests per reason. */
  reasons: Record<string, number>
  /** Requests set aside as noise, per reason (not kept, or dropped from the unverified ones). */
  noise: Record<string, number>
  /** Kept deliveries dropped past a cap: signed ones past maxDeliveries, or unsigned ones that all named a record of the run. */
  dropped: number
  tlsFailures: number
  /** Log lines not written because the disk fell behind (SINK_DEFAULTS.maxLogBacklogBytes). */
  logLinesDropped: number
}

export interface SinkOptions {
  /** Default SINK_DEFAULTS.host. */
  host?: string
  /** 0 picks a free port. Default SINK_DEFAULTS.port. */
  port?: number
  /** The endpoint's signing secret, `whsec_…` (§6.1). */
  secret: string
  /** HTTPS with a certificate generated now, or a given one (PEM). Default: plain HTTP, for loopback use. */
  tls?: 'self-signed' | { cert: string | Buffer; key: string | Buffer }
  /** Appends one JSON line per delivery (and per failed TLS handshake). */
  logFile?: string
  maxBodyBytes?: number
  headerTimeoutMs?: number
  bodyTimeoutMs?: number
  maxDeliveries?: number
  maxUnverified?: number
  /**
   * Whether the run created record `id` with a call sent at or before `atMs` (ms since the epoch): ties a delivery
   * to the run. Without it (the standalone sink) nothing is tied, and the oldest unverified deliveries go first.
   */
  runRecords?: (id: string, atMs: number) => boolean
  /** Prints one line per delivery: true for stdout, or a function that takes each line. Default off. */
  print?: boolean | ((line: string) => void)
}

export interface Sink {
  /** Where to send deliveries, e.g. `https://127.0.0.1:8787/` (any path is accepted). */
  url: string
  port: number
  /** The certificate served over HTTPS, to trust or pin it. */
  certificate?: { pem: string; fingerprint256: string }
  /**
   * What may have come from the server, in arrival order: deliveries signed with the secret, and (at most
   * maxUnverified) unverified ones that name a record. Noise is not here (see counts and noiseSamples).
   */
  deliveries: readonly Delivery[]
  /** The latest noise requests, as examples. */
  noiseSamples: readonly Delivery[]
  /** The latest failed TLS handshakes, as examples. */
  tlsFailures: readonly TlsFailure[]
  counts(): SinkCounts
  /**
   * Byte-identical copies of earlier attempts of this webhook-id received so far: set aside as replays, since the
   * sink cannot tell them from a server resending an attempt unchanged, and each answered as the attempt it copies
   * was (a non-2xx again, so a server that retried within the same second retries on, signed anew).
   */
  copiesOf(webhookId: string): number
  /** Whether a delivery names a record the run created, by a call sent before the delivery arrived (runRecords). */
  tiedToRun(delivery: Delivery): boolean
  /** The first kept delivery, past or future, that matches; undefined after timeoutMs or on close. */
  waitFor(predicate: (delivery: Delivery) => boolean, timeoutMs: number): Promise<Delivery | undefined>
  /** Answers chosen verified deliveries with another status (e.g. 503, to observe retries); undefined restores 200. */
  respondWith(rule: RespondRule | undefined): void
  close(): Promise<void>
}

/** The status answered for each refusal. */
export const REJECTION_STATUS: Record<SinkRejection, number> = {
  missing_header: 400,
  malformed_header: 400,
  timestamp_not_seconds: 400,
  not_json: 400,
  bad_http: 400,
  incomplete_body: 400,
  bad_signature: 401,
  stale_timestamp: 401,
  future_timestamp: 401,
  slow_client: 408,
  too_large: 413,
  bad_shape: 422,
  sink_error: 500,
}
