// §6: events signed the Standard Webhooks way and delivered asynchronously to one target, with retries of
// non-2xx answers under the same webhook-id.

import { createHmac, randomBytes } from 'node:crypto'
import { Webhook } from 'standardwebhooks'
import type { FaultSet } from './faults.ts'
import type { Json } from './store.ts'

/** Named defaults (§6.7 retries "for about 3½ days" on the real service; short here so tests can watch them). */
export const WEBHOOK_DEFAULTS = {
  retrySchedule: [500, 1000, 2000] as readonly number[],
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
  faults: FaultSet
  now: () => number
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
    const id = `msg_${randomBytes(16).toString('hex')}`
    const payload = JSON.stringify({
      type: event.type,
      timestamp: new Date(this.options.now()).toISOString(),
      data: { id: event.object.id, entityType: event.entityType, object: event.object, changes: event.changes },
    })
    this.schedule(this.url, id, payload, 0, 0)
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

  private sign(id: string, at: Date, payload: string): string {
    if (this.options.faults.has('webhooks.hex-signature')) {
      const seconds = Math.floor(at.getTime() / 1000)
      return `v1,${createHmac('sha256', this.key).update(`${id}.${seconds}.${payload}`).digest('hex')}`
    }
    return this.signer.sign(id, at, payload)
  }

  private async deliver(url: string, id: string, payload: string, attempt: number): Promise<void> {
    if (this.closed) return
    // Each attempt is signed afresh: the same webhook-id, a current timestamp (receivers allow 300 s, §6.6).
    const at = new Date(this.options.now())
    let ok = false
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': id,
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': this.sign(id, at, payload),
        },
        body: payload,
        signal: AbortSignal.any([this.abort.signal, AbortSignal.timeout(this.options.timeoutMs ?? WEBHOOK_DEFAULTS.timeoutMs)]),
      })
      ok = res.status >= 200 && res.status < 300
      await res.body?.cancel().catch(() => undefined)
    } catch {
      ok = false
    }
    const schedule = this.options.retrySchedule ?? WEBHOOK_DEFAULTS.retrySchedule
    if (!ok && !this.closed && attempt < schedule.length) this.schedule(url, id, payload, attempt + 1, schedule[attempt])
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
