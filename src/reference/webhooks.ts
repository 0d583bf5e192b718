// §6: events signed the Standard Webhooks way and delivered asynchronously to one target, with retries of
// non-2xx answers under the same webhook-id.

import { createHmac, randomBytes } from 'node:crypto'
import { Webhook } from 'standardwebhooks'
import type { FaultId, SwitchesOf } from './faults.ts'
import type { Json } from './store.ts'

/** The faults this module plays (faults.ts): the only switches its code can read. */
export const WEBHOOK_FAULTS = [
  'webhooks.no-case-created',
  'webhooks.no-invoice-paid',
  'webhooks.id-per-entity',
  'webhooks.entity-type-plural',
  'webhooks.flat-body',
  'webhooks.timestamp-ms',
  'webhooks.raw-secret-key',
  'webhooks.hex-signature',
  'webhooks.svix-headers',
  'webhooks.retry-new-id',
  'webhooks.never-retries',
  'webhooks.kind-own-style',
  'webhooks.kind-table-name',
  'webhooks.ack-200-only',
  'webhooks.body-without-data',
] as const satisfies readonly FaultId[]

/** Named defaults (§6.7 retries "for about 3½ days" on the real service; short here so tests can watch them). */
export const WEBHOOK_DEFAULTS = {
  /**
   * At least a second apart, so every attempt is signed with a later webhook-timestamp (Unix seconds): a receiver
   * can tell the server's retry from a byte-identical replay only by that (Standard Webhooks). Other legal
   * schedules are the variants' (variants.ts webhookRetrySchedule: alt-d retries at once, alt-f after 4 s).
   */
  retrySchedule: [1000, 1500, 2000] as readonly number[],
  /** Per-attempt time limit. */
  timeoutMs: 5_000,
}

export interface WebhookEvent {
  type: string
  entityType: string
  object: Json
  changes: Json
}

export interface WebhookOptions {
  secret: string
  url?: string
  retrySchedule?: readonly number[]
  timeoutMs?: number
  faults: SwitchesOf<typeof WEBHOOK_FAULTS>
  now: () => number
  /** The variant's form of the body's `timestamp` (§6.3: a string). Absent: `toISOString()`. */
  dateTime?: (iso: string) => string
  /** The variant's fields of its own beside those §6.3 lists. Absent: none. */
  extraFields?: boolean
}

function newMessageId(): string {
  return `msg_${randomBytes(16).toString('hex')}`
}

export class WebhookDispatcher {
  private url: string | undefined
  private readonly signer: Webhook
  private readonly key: Buffer
  private readonly timers = new Set<NodeJS.Timeout>()
  private readonly abort = new AbortController()
  private readonly inFlight = new Set<Promise<void>>()
  private closed = false

  constructor(private readonly options: WebhookOptions) {
    this.url = options.url
    this.signer = new Webhook(options.secret)
    this.key = Buffer.from(options.secret.replace(/^whsec_/, ''), 'base64')
  }

  setTarget(url: string | undefined): void {
    this.url = url
  }

  /** Queues an event; never waits for the receiver (an API response is never held up by delivery). */
  emit(event: WebhookEvent): void {
    if (this.closed || this.url === undefined) return
    const faults = this.options.faults
    if (faults['webhooks.no-case-created'] && event.type === 'case.created') return
    if (faults['webhooks.no-invoice-paid'] && event.type === 'invoice.paid') return
    const id = faults['webhooks.id-per-entity'] ? `msg_${String(event.object.id)}` : newMessageId()
    const entityType = faults['webhooks.entity-type-plural'] ? `${event.entityType}s` : event.entityType
    const data = faults['webhooks.flat-body'] ? event.object : { id: event.object.id, entityType, object: event.object, changes: event.changes }
    const iso = new Date(this.options.now()).toISOString()
    const timestamp = this.options.dateTime ? this.options.dateTime(iso) : iso
    // The fault: the event is serialised before its data is attached, so every body is { type, timestamp }.
    const body = faults['webhooks.body-without-data'] ? { type: this.kindOf(event.type), timestamp } : { type: this.kindOf(event.type), timestamp, data }
    const payload = JSON.stringify(this.options.extraFields ? { id, ...body, apiVersion: 'v1' } : body)
    this.schedule(this.url, id, payload, 0, 0)
  }

  /** The fault: kinds the spec does not name are written in the implementer's own style (AccountCreated), not <entity>.<action> (§6.2). */
  private kindOf(type: string): string {
    // The fault: the kind is built from the table name (cases.created), while data.entityType names the entity.
    if (this.options.faults['webhooks.kind-table-name']) return type.replace(/^([^.]+)\./, '$1s.')
    if (!this.options.faults['webhooks.kind-own-style'] || type === 'case.created' || type === 'invoice.paid') return type
    return type
      .split('.')
      .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
      .join('')
  }

  private schedule(url: string, id: string, payload: string, attempt: number, delayMs: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer)
      const p = this.deliver(url, id, payload, attempt).finally(() => this.inFlight.delete(p))
      this.inFlight.add(p)
    }, delayMs)
    timer.unref()
    this.timers.add(timer)
  }

  /** The webhook-timestamp text: Unix seconds (§6.4). */
  private timestampOf(at: Date): string {
    return this.options.faults['webhooks.timestamp-ms'] ? String(at.getTime()) : String(Math.floor(at.getTime() / 1000))
  }

  private sign(id: string, at: Date, timestamp: string, payload: string): string {
    const faults = this.options.faults
    const content = `${id}.${timestamp}.${payload}`
    if (faults['webhooks.raw-secret-key']) return `v1,${createHmac('sha256', this.options.secret).update(content).digest('base64')}`
    if (faults['webhooks.hex-signature']) return `v1,${createHmac('sha256', this.key).update(content).digest('hex')}`
    if (faults['webhooks.timestamp-ms']) return `v1,${createHmac('sha256', this.key).update(content).digest('base64')}`
    return this.signer.sign(id, at, payload)
  }

  private headersFor(id: string, at: Date, payload: string): Record<string, string> {
    const timestamp = this.timestampOf(at)
    const signature = this.sign(id, at, timestamp, payload)
    if (this.options.faults['webhooks.svix-headers']) return { 'svix-id': id, 'svix-timestamp': timestamp, 'svix-signature': signature }
    return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signature }
  }

  private async deliver(url: string, id: string, payload: string, attempt: number): Promise<void> {
    if (this.closed) return
    // Each attempt is signed afresh: the same webhook-id, a current timestamp (receivers allow 300 s, §6.6).
    const at = new Date(this.options.now())
    // The fault: every attempt is sent as a new message, so a retry cannot be told from a new event (§6.4).
    const sentId = attempt > 0 && this.options.faults['webhooks.retry-new-id'] ? newMessageId() : id
    let ok = false
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...this.headersFor(sentId, at, payload) },
        body: payload,
        signal: AbortSignal.any([this.abort.signal, AbortSignal.timeout(this.options.timeoutMs ?? WEBHOOK_DEFAULTS.timeoutMs)]),
      })
      // The fault: only 200 counts as delivered, so a 202 or 204 is retried (§6.7: any 2xx acknowledges).
      ok = this.options.faults['webhooks.ack-200-only'] ? res.status === 200 : res.status >= 200 && res.status < 300
      await res.body?.cancel().catch(() => undefined)
    } catch {
      ok = false
    }
    const schedule = this.options.retrySchedule ?? WEBHOOK_DEFAULTS.retrySchedule
    if (this.options.faults['webhooks.never-retries']) return
    if (!ok && !this.closed && attempt < schedule.length) this.schedule(url, id, payload, attempt + 1, schedule[attempt]!)
  }

  /** Stops retries and aborts deliveries in flight. */
  async close(): Promise<void> {
    this.closed = true
    for (const t of this.timers) clearTimeout(t)
    this.timers.clear()
    this.abort.abort()
    await Promise.allSettled([...this.inFlight])
  }
}
