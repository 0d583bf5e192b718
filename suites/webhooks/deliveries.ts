// Reading the sink's record of deliveries: which event a delivery carries, which §6 rule a refused one broke
// (in the order the verifier applies them), and a compact form for failure evidence.
import type { Delivery, Sink } from '../../src/checks/index.ts'

/** The §6 rules the sink applies, in its order: a delivery refused by one never reaches the next. */
export const RULES = ['headers', 'timestamp', 'signature', 'body-shape', 'entity-type'] as const
export type Rule = (typeof RULES)[number]

/** verify.ts's wording for the one §6.3 rule beyond the schema. */
const ENTITY_TYPE_DETAIL = /^data\.entityType is .*"case" for a case event/

/**
 * The rule a refused delivery broke; undefined when it was accepted, or refused for its transport (a slow or
 * broken sender, an oversized body, a fault of the sink) before any §6 rule applied.
 */
export function brokenRule(d: Delivery): Rule | undefined {
  switch (d.reason) {
    case 'missing_header':
      return 'headers'
    case 'malformed_header':
      if (d.detail?.startsWith('webhook-timestamp')) return 'timestamp'
      if (d.detail?.startsWith('webhook-signature')) return 'signature'
      return 'headers'
    case 'timestamp_not_seconds':
    case 'stale_timestamp':
    case 'future_timestamp':
      return 'timestamp'
    case 'bad_signature':
      return 'signature'
    case 'not_json':
    case 'bad_shape':
      return ENTITY_TYPE_DETAIL.test(d.detail ?? '') ? 'entity-type' : 'body-shape'
    default:
      return undefined
  }
}

/** Whether the verifier got as far as `rule` with this delivery (so the delivery says something about it). */
export function reached(d: Delivery, rule: Rule): boolean {
  if (d.verdict !== 'rejected') return true
  const broken = brokenRule(d)
  return broken !== undefined && RULES.indexOf(broken) >= RULES.indexOf(rule)
}

/** The event kind a delivery carries: verified, or claimed by a refused body. */
export function kindOf(d: Delivery): string | undefined {
  return d.event?.type ?? d.type
}

/**
 * Whether a delivery carries event `type` about record `id`: read from the verified event, or for a refused
 * delivery from its claimed type and the start of its body (a refusal for one rule must not hide the event).
 */
export function carries(d: Delivery, type: string, id: string): boolean {
  // §6.3 does not say whose id `data.id` is: the record's, or the event's with the record in `data.object`.
  if (d.event) return d.event.type === type && (d.event.data?.id === id || (d.event.data?.object as { id?: unknown } | undefined)?.id === id)
  return d.type === type && (d.claims ?? []).includes(id)
}

/** Refusals for the timestamp: when the signature is not the secret's too, they say nothing of the server's clock. */
const TIMESTAMP_REFUSALS = new Set(['stale_timestamp', 'future_timestamp', 'timestamp_not_seconds'])

export interface Attribution {
  /** The deliveries that count for a verdict: the server's, about records of this run. */
  counted: Delivery[]
  /** Everything else the sink received, per reason (the sink's own noise, plus what it kept but does not count). */
  noise: Record<string, number>
  /** Deliveries the sink dropped past its caps (SINK_DEFAULTS.maxDeliveries, maxUnverified). */
  dropped: number
  /**
   * Deliveries signed with the secret that name no record of the run (events of the workspace's other records, or
   * a body too broken to name one): only the server holds the secret, so §6.3's shape is judged on them too.
   */
  signedElsewhere: Delivery[]
}

/**
 * Which deliveries the server under test sent about this run, so that nobody else posting to the sink can change
 * a verdict. A delivery counts when it names a record the run created, after the call that created it (anyone
 * else would have to know the new record's id), and either is signed with the secret (only the server holds it)
 * or, unsigned, is not a copy of a body the server did sign (a stranger's re-post) and was not refused for its
 * timestamp (a stale or future timestamp without the secret's signature is not the server's clock). Unsigned
 * deliveries still count for the header and signature rules: a server that signs with the wrong key must fail.
 */
export function attribute(sink: Sink): Attribution {
  const counts = sink.counts()
  const noise: Record<string, number> = { ...counts.noise }
  const signedBodies = new Set(sink.deliveries.filter((d) => d.authentic && d.bodySha256).map((d) => d.bodySha256))
  const counted: Delivery[] = []
  const signedElsewhere: Delivery[] = []
  for (const d of sink.deliveries) {
    const reason = noiseReason(d, sink, signedBodies)
    if (reason === undefined) counted.push(d)
    else noise[reason] = (noise[reason] ?? 0) + 1
    if (reason !== undefined && d.authentic) signedElsewhere.push(d)
  }
  return { counted, noise, dropped: counts.dropped, signedElsewhere }
}

function noiseReason(d: Delivery, sink: Sink, signedBodies: Set<string | undefined>): string | undefined {
  if (!sink.tiedToRun(d)) return d.authentic ? 'unrelated' : (d.reason ?? 'unrelated')
  if (d.authentic) return undefined
  if (signedBodies.has(d.bodySha256) || TIMESTAMP_REFUSALS.has(d.reason ?? '')) return d.reason ?? 'unrelated'
  return undefined
}

const SHOWN_HEADERS = /^(webhook-|svix-|x-webhook-|content-type$|user-agent$)/

/** What a failure shows of a delivery: enough to see the fault without the whole record. */
export function summary(d: Delivery): Record<string, unknown> {
  return {
    seq: d.seq,
    receivedAt: d.receivedAt,
    type: kindOf(d),
    webhookId: d.webhookId,
    verdict: d.verdict,
    ...(d.reason ? { reason: d.reason, detail: d.detail } : {}),
    ...(d.mistakes?.length ? { mistakes: d.mistakes.map((m) => m.mistake) } : {}),
    answered: d.status,
    headers: Object.fromEntries(Object.entries(d.headers).filter(([name]) => SHOWN_HEADERS.test(name))),
    ...(d.event ? { data: { id: d.event.data.id, entityType: d.event.data.entityType } } : { bodyPreview: d.bodyPreview }),
  }
}

/** Counts per value, for observations: `{ 'case.created': 2, … }`. */
export function tally(values: (string | undefined)[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const v of values) counts[v ?? '(none)'] = (counts[v ?? '(none)'] ?? 0) + 1
  return counts
}
