// The run's webhook traffic: one probe case created through the API (once per run, shared by every check of
// the area), the wait for its case.created delivery, and a short wait for deliveries still in flight.
// The sink answers the first attempt of the probe's case.created with 503, so the retry check can watch the
// same event come again (§6.7); every other delivery is acknowledged with 200 unless a check chose otherwise
// (answers.ts).
import { createRecord, runLabel, updateRecord } from '../../src/checks/index.ts'
import type { CheckContext, CheckDefinition, ApiResponse, Delivery, Sink } from '../../src/checks/index.ts'
import { chosenAnswers } from './answers.ts'
import { carries } from './deliveries.ts'

/** CRM_WEBHOOK_TIMEOUT_S and CRM_WEBHOOK_RETRY_WAIT_S are at most this (src/config/config.ts); a check's own time limit must cover its waits. */
const WAIT_CAP_S = 3600

/** A time limit covering `waits` waits of CRM_WEBHOOK_TIMEOUT_S, plus the requests around them. */
export function waitBudgetMs(waits: number): number {
  return waits * WAIT_CAP_S * 1000 + 60_000
}

/**
 * What a check that watches webhook deliveries declares, for one reason: it waits at the sink for deliveries
 * about records it creates (the probe case, cases of its own, all deleted at clean-up), so it needs the sink,
 * its writes are safe, and its time limit covers `waits` waits of CRM_WEBHOOK_TIMEOUT_S.
 */
export function watchesDeliveries(waits: number): Pick<CheckDefinition, 'writes' | 'webhooks' | 'timeoutMs'> {
  return { writes: 'safe', webhooks: true, timeoutMs: waitBudgetMs(waits) }
}

/** The status answered to the probe's first case.created attempt: any non-2xx asks for a retry (§6.7). */
export const BOUNCE_STATUS = 503

/** No new delivery for this long: nothing more is in flight. */
const QUIET_MS = 750
/** The wait for a quiet sink never exceeds this. */
const MAX_SETTLE_MS = 5_000

export interface Probe {
  id: string
  label: string
  created: ApiResponse
  /** When the create was answered (ms since the epoch). */
  at: number
}

export function timeoutMs(ctx: CheckContext): number {
  return ctx.config.webhookTimeoutS * 1000
}

/** The probe case, created once per run; the sink's answer to its first case.created is set up before the create. */
export function probeCase(ctx: CheckContext): Promise<Probe> {
  return ctx.session.memo('webhooks.probe-case', async () => {
    const label = runLabel(ctx, 'webhook probe')
    let id: string | undefined
    // The delivery may arrive before the create's answer: until the id is known, the label finds it.
    const isProbe = (data: { id?: unknown; object?: unknown } | undefined) =>
      (id !== undefined && data?.id === id) || JSON.stringify(data?.object ?? {}).includes(label)
    ;(await chosenAnswers(ctx)).push({ matches: (event) => event.type === 'case.created' && isProbe(event.data), status: BOUNCE_STATUS })
    const { record, response } = await createRecord(
      ctx,
      'case',
      { subject: label, description: 'crm-conformance webhook probe (§6.2 case.created)' },
      { validate: false },
    )
    id = String(record.id)
    return { id, label, created: response, at: Date.now() }
  })
}

/** The probe's first case.created delivery, verified or not; undefined when none came within CRM_WEBHOOK_TIMEOUT_S. */
export function probeDelivery(ctx: CheckContext, probe: Probe): Promise<Delivery | undefined> {
  return ctx.session.memo('webhooks.probe-delivery', async () => {
    const sink = await ctx.session.sink()
    return sink.waitFor((d) => carries(d, 'case.created', probe.id), timeoutMs(ctx))
  })
}

/**
 * One update of the probe case, once per run: a second event about the same record (if the server emits one
 * for updates, which §6 does not say), so distinct events of one record can be told apart by webhook-id.
 */
export function probeUpdate(ctx: CheckContext, probe: Probe): Promise<ApiResponse> {
  return ctx.session.memo('webhooks.probe-update', () =>
    updateRecord(ctx, 'case', probe.id, { description: `crm-conformance webhook probe, updated (${ctx.runId})` }),
  )
}

/**
 * Waits until no delivery has been kept for QUIET_MS (at most MAX_SETTLE_MS): retries and late events are in.
 * Noise is never kept, so a stranger's flood cannot hold the wait open.
 */
export async function settle(sink: Sink): Promise<void> {
  const until = Date.now() + MAX_SETTLE_MS
  while (Date.now() < until) {
    const seen = sink.deliveries.at(-1)?.seq ?? 0
    const next = await sink.waitFor((d) => d.seq > seen, Math.min(QUIET_MS, until - Date.now()))
    if (next === undefined) return
  }
}

/** The probe's first attempt, when a retry of it is due and can be told; skips the check otherwise. */
export async function bouncedAttempt(ctx: CheckContext): Promise<{ probe: Probe; first: Delivery }> {
  const probe = await probeCase(ctx)
  const first = await probeDelivery(ctx, probe)
  if (first === undefined)
    ctx.skip(
      `no case.created delivery for the probe case ${probe.id} within ${ctx.config.webhookTimeoutS} s, so no retry to watch (webhooks.case.created judges that)`,
    )
  if (first.status < 300) ctx.skip(`the sink answered the first case.created delivery ${first.status}, so no retry is due`)
  if (!first.authentic) {
    ctx.skip(
      `the first case.created delivery is not signed with the secret (${first.reason}), so a retry could not be told from anyone's copy (webhooks.delivery.signature judges the signature)`,
    )
  }
  return { probe, first }
}

/** CRM_WEBHOOK_RETRY_WAIT_S, in ms: how long after a non-2xx answer a retry is awaited (§6.7). */
export function retryWaitMs(ctx: CheckContext): number {
  return ctx.config.webhookRetryWaitS * 1000
}

/**
 * Whether `d` is the server's retry of `first` (§6.7): signed with the secret, the same event, and either the
 * same webhook-id signed anew after the sink answered it non-2xx (the sink's `retry`) or a webhook-id never seen
 * before (a retry sent as a new message, which webhooks.retry.same-id fails). A byte-identical copy of an attempt
 * is a replay anyone who saw it could post: the sink sets it aside as noise, so it is never a retry.
 */
export function isRetryOf(d: Delivery, first: Delivery, probe: Probe): boolean {
  if (d.seq <= first.seq || !d.authentic || !carries(d, 'case.created', probe.id)) return false
  return d.webhookId === first.webhookId ? d.attemptKind === 'retry' : d.attemptKind === 'first'
}

/** Byte-identical copies of an attempt the sink received so far (sink-history.ts): never kept, only counted. */
export async function copiesOf(ctx: CheckContext, attempt: Delivery): Promise<number> {
  return attempt.webhookId === undefined ? 0 : (await ctx.session.sink()).copiesOf(attempt.webhookId)
}

/**
 * Why the absence of a retry proves nothing, when byte-identical copies of the first attempt arrived: a sender that
 * retried within the second of its first attempt sends exactly such a copy (webhook-timestamp in whole seconds,
 * §6.4), and so does anyone who saw the attempt. The sink answered each copy as it answered the attempt, so a
 * sender that retries goes on and its next attempt, signed anew, is the proof; none came within the wait.
 * Undefined when no copy came: then nothing at all arrived, and that is the server's.
 */
export async function unprovenRetry(ctx: CheckContext, first: Delivery): Promise<string | undefined> {
  const copies = await copiesOf(ctx, first)
  if (copies === 0) return undefined
  return (
    `within CRM_WEBHOOK_RETRY_WAIT_S (${ctx.config.webhookRetryWaitS} s) of the sink answering case.created ${first.status}, ` +
    `only ${copies} byte-identical cop${copies === 1 ? 'y' : 'ies'} of that attempt arrived, each answered ${first.status} again, ` +
    `and no attempt signed anew: a copy is what a sender retrying within the same second (webhook-timestamp in whole seconds) ` +
    `or resending its attempt unchanged sends, and what anyone who saw the attempt can post, so whether the server retried ` +
    `cannot be told. To prove it: raise CRM_WEBHOOK_RETRY_WAIT_S past the server's next retry, or have the sender sign each ` +
    `attempt anew with a current webhook-timestamp (Standard Webhooks)`
  )
}

/**
 * The first retry of the probe's first case.created attempt, once per run: awaited until CRM_WEBHOOK_RETRY_WAIT_S
 * after the sink answered it; undefined when none came by then.
 */
export function probeRetry(ctx: CheckContext, probe: Probe, first: Delivery): Promise<Delivery | undefined> {
  return ctx.session.memo('webhooks.probe-retry', async () => {
    const sink = await ctx.session.sink()
    const left = Date.parse(first.receivedAt) + retryWaitMs(ctx) - Date.now()
    return sink.waitFor((d) => isRetryOf(d, first, probe), Math.max(0, left))
  })
}
