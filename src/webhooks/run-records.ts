// Ties a webhook delivery to the run: the records the run created, each with the time the call that created it
// was sent. A delivery that names one of them, arriving after that call, can only come from the server (or from
// someone who learnt the new record's id); anything else posted to the sink is not the run's business.
import type { Exchange } from '../http/exchange.ts'

/**
 * Whether the run created record `id` by a call sent at or before `atMs` (ms since the epoch), read from the
 * run's exchanges as they grow: a 2xx answer to a POST whose body carries the new record's `id` (§4.2 create).
 */
export function createdByRun(exchanges: readonly Exchange[]): (id: string, atMs: number) => boolean {
  const sentAt = new Map<string, number>()
  let scanned = 0
  return (id, atMs) => {
    if (scanned > exchanges.length) scanned = 0
    for (; scanned < exchanges.length; scanned++) {
      const { request, response, startedAt } = exchanges[scanned]!
      if (request.method !== 'POST' || response === undefined || response.status < 200 || response.status >= 300) continue
      const created = (response.body as { id?: unknown } | null | undefined)?.id
      if (typeof created !== 'string') continue
      const at = Date.parse(startedAt)
      if (!(at >= (sentAt.get(created) ?? Infinity))) sentAt.set(created, at)
    }
    const at = sentAt.get(id)
    return at !== undefined && at <= atMs
  }
}
