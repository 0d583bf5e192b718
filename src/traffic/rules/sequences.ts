// Rules across exchanges (server side), what no schema tool sees: an idempotent replay, a read after a write,
// writes accepted on a quotation or invoice that is no longer a draft, an order from a draft quotation, and
// RateLimit-Remaining rising within one window. Each keeps bounded state and judges only what the traffic proves.
import { parseResetHeader, headerInt } from '../../http/rate-headers.ts'
import { notCreatedAsDraft } from '../../judge/draft.ts'
import { differingFields } from '../../judge/same-response.ts'
import { deepEqual, describeMismatches, writtenMismatches } from '../../judge/written.ts'
import type { ResourceName } from '../../spec/resources.ts'
import type { RuleContext, RuleMemory, TrafficExchange, TrafficRule } from '../types.ts'
import {
  BoundedMap,
  acrossExchanges,
  acrossKeyLight,
  answerOf,
  answeredWithin,
  endedBefore,
  idempotentCreate,
  isObject,
  isSuccess,
  keyedCall,
  perAnswer,
  recordsOf,
  resourceOf,
  timeOf,
  wholeBody,
  type Answer,
  type AnyRecord,
  type Judges,
  type Op,
  type RuleMeta,
} from './kit.ts'

/** §8 idempotency retention. */
const RETENTION_MS = 24 * 3600 * 1000

export const idempotentReplay: TrafficRule = acrossExchanges(
  {
    id: 'traffic.idempotency.replay',
    clauses: ['§4.1'],
    level: 'MUST',
    side: 'server',
    title: 'A create retried with the same Idempotency-Key and body returns the first response: same status, same record, no second id',
  },
  // A create and its retries share the API key, the path and the Idempotency-Key: one collection's.
  'collection',
  () => {
    const firsts = new BoundedMap<string, TrafficExchange>()
    return {
      observe(exchange, ctx) {
        const create = idempotentCreate(exchange, ctx.operation)
        const response = exchange.response
        if (!create || !response || response.truncated) return
        const { idem, retryKey } = create
        const first = firsts.peek(retryKey)
        if (!first) {
          if (isSuccess(response.status) && isObject(response.body)) firsts.set(retryKey, exchange)
          return
        }
        // A different body is the client's fault (traffic.client.idempotency-key-reuse); a retry sent while the
        // first was still unanswered, or after the retention, proves nothing.
        if (first.request.truncated || exchange.request.truncated) return
        if (!deepEqual(first.request.body, exchange.request.body) || !answeredWithin(first, exchange, RETENTION_MS)) return
        ctx.exercised()
        const was = first.response!
        const evidence = { exchanges: [first, exchange] }
        if (response.status !== was.status) {
          ctx.violation({
            message: `the retry with Idempotency-Key ${JSON.stringify(idem)} answered ${response.status}, the first response was ${was.status} (§4.1)`,
            expected: 'the first response, status included (§4.1)',
            ...evidence,
          })
          return
        }
        const body = response.body as AnyRecord
        const firstBody = was.body as AnyRecord
        if (body?.id !== firstBody.id) {
          ctx.violation({
            message: `the retry with Idempotency-Key ${JSON.stringify(idem)} returned record ${JSON.stringify(body?.id ?? null)}, the first response was ${firstBody.id}: a second record (§4.1)`,
            expected: 'the first response, and no duplicate (§4.1)',
            ...evidence,
          })
          return
        }
        const differs = isObject(body) ? differingFields(firstBody, body) : []
        if (differs.length > 0)
          ctx.violation({
            message: `the retry's record differs from the first response in ${differs.join(', ')} (§4.1)`,
            expected: 'the first response (§4.1)',
            ...evidence,
          })
      },
    }
  },
)

/** How long after a write a read is still taken to show it: past it, a change no traffic showed may explain a difference. */
export const READ_AFTER_WRITE_WINDOW_MS = 30_000

export const readAfterWrite: TrafficRule = acrossExchanges(
  {
    id: 'traffic.records.read-after-write',
    clauses: ['§4.2', '§2', '§4.4'],
    level: 'MUST',
    side: 'server',
    title: "A record returned by a write, or read after it, holds what was written (compared by meaning, with the records area's leniency)",
  },
  'collection',
  () => {
    const writes = new BoundedMap<string, { exchange: TrafficExchange; op: 'create' | 'update' | 'replace'; sent: AnyRecord }>()
    return {
      observe(exchange, ctx) {
        const resource = resourceOf(ctx.operation)
        const op = ctx.operation.op
        const response = exchange.response
        if (!resource || !response || !isSuccess(response.status)) return
        if (op === 'create' || op === 'update' || op === 'replace') {
          const body = wholeBody(exchange)
          const id = op === 'create' ? (isObject(body) ? body.id : undefined) : ctx.operation.id
          // A create answering with a record already seen created is an Idempotency-Key replay: it may answer the
          // first body's record, whatever this one sent (the spec leaves a reused key with another body open).
          const replay = op === 'create' && (exchange.request.headers['idempotency-key'] !== undefined || writes.peek(`${resource}/${id}`) !== undefined)
          if (typeof id === 'string' && isObject(exchange.request.body) && !replay) {
            writes.set(`${resource}/${id}`, { exchange, op, sent: exchange.request.body })
            // The write's own answer, when it carries the record (§4.2 "responses carry the record"; success bodies of
            // writes are otherwise not shown), holds what was written too: a server answering with the old record.
            if (isObject(body) && body.id === id) {
              ctx.exercised()
              const mismatches = writtenMismatches(resource as ResourceName, op, exchange.request.body, body)
              if (mismatches.length > 0)
                ctx.violation({
                  message: `${exchange.request.method} ${ctx.operation.path} (${op}) answered ${response.status} with a record that does not hold what was sent: ${describeMismatches(mismatches)} (§4.2)`,
                  expected: 'the record returned holds what was written, by meaning (§2, §4.4)',
                })
            }
          }
          return
        }
        if (op === 'delete') writes.delete(`${resource}/${ctx.operation.id}`)
        if (op !== 'get' || response.status !== 200) return
        const key = `${resource}/${ctx.operation.id}`
        const write = writes.peek(key)
        const record = wholeBody(exchange)
        if (!write || !isObject(record) || !answeredWithin(write.exchange, exchange, READ_AFTER_WRITE_WINDOW_MS)) return
        ctx.exercised()
        const mismatches = writtenMismatches(resource as ResourceName, write.op, write.sent, record)
        if (mismatches.length > 0) {
          ctx.violation({
            message: `GET ${ctx.operation.path} after ${write.exchange.request.method} ${write.op}: ${describeMismatches(mismatches)} (§4.2)`,
            expected: 'the record holds what was written, by meaning (§2, §4.4)',
            exchanges: [write.exchange, exchange],
          })
        }
      },
    }
  },
)

export const goneAfterDelete: TrafficRule = acrossExchanges(
  {
    id: 'traffic.records.gone-after-delete',
    clauses: ['§4.2', '§1.6', '§7.6'],
    level: 'MUST',
    side: 'server',
    title: 'A record deleted (or moved to the recycle bin) with a 2xx is answered 404 by a get sent after (as records.*.delete)',
  },
  'collection',
  () => {
    const deleted = new BoundedMap<string, TrafficExchange>()
    return {
      observe(exchange, ctx) {
        const resource = resourceOf(ctx.operation)
        const op = ctx.operation.op
        const response = exchange.response
        if (!resource || !response || ctx.operation.id === undefined) return
        const key = `${resource}/${ctx.operation.id}`
        if (op === 'delete' && isSuccess(response.status)) {
          deleted.set(key, exchange)
          return
        }
        if (op !== 'get') return
        const deletion = deleted.peek(key)
        // Only a get sent once the delete was answered (concurrent calls reach the server in either order), and
        // not refused for its key first (401, 403, 429).
        if (!deletion || !endedBefore(deletion, exchange) || [401, 403, 429].includes(response.status) || response.status >= 500) return
        ctx.exercised()
        if (response.status !== 404)
          ctx.violation({
            message: `GET ${ctx.operation.path} answered ${response.status} after ${deletion.request.method} of it answered ${deletion.response!.status} (§7.6)`,
            expected: '404 for a deleted record, or one in the recycle bin (§1.6, §7.6)',
            exchanges: [deletion, exchange],
          })
      },
    }
  },
)

/** How recent the state seen before a write must be: §3 shows no transitions, so an older one may have changed unseen. */
export const STATE_FRESH_MS = 60_000

interface SeenState {
  status: unknown
  exchange: TrafficExchange
}

function noteStates(
  states: BoundedMap<string, SeenState>,
  exchange: TrafficExchange,
  resource: ResourceName | undefined,
  records: AnyRecord[],
  listed: boolean,
): void {
  if (resource !== 'quotation' && resource !== 'invoice') return
  for (const r of records)
    if (typeof r.id === 'string') states.set(`${resource}/${r.id}`, { status: r.status, exchange: listed ? withOnly(exchange, r) : exchange })
}

/** A list exchange kept as evidence for one of its records: the page itself would hold up to 100 records per entry. */
function withOnly(exchange: TrafficExchange, record: AnyRecord): TrafficExchange {
  const response = exchange.response!
  return { ...exchange, response: { ...response, body: { ...(response.body as AnyRecord), data: [record] } } }
}

/**
 * A rule that judges the answers its Judges pick against the status a quotation or invoice was last seen with:
 * `lastSeen(key)` gives the state of `${resource}/${id}` seen before this exchange and recently enough
 * (STATE_FRESH_MS), and each exchange's records are noted after it is judged; a list's only where `fromLists`.
 */
function againstSeenStatus<O extends Op, R extends ResourceName>(
  meta: RuleMeta,
  memory: RuleMemory,
  fromLists: boolean,
  judges: Judges<O, R>,
  judge: (answer: Answer<O, R>, ctx: RuleContext, lastSeen: (key: string) => SeenState | undefined) => void,
): TrafficRule {
  return acrossExchanges(meta, memory, () => {
    const states = new BoundedMap<string, SeenState>()
    return {
      observe(exchange, ctx) {
        const answer = answerOf(judges, exchange, ctx.operation)
        if (answer)
          judge(answer, ctx, (key) => {
            const seen = states.peek(key)
            return seen && answeredWithin(seen.exchange, exchange, STATE_FRESH_MS) ? seen : undefined
          })
        const op = ctx.operation.op
        if (fromLists || op !== 'list') noteStates(states, exchange, resourceOf(ctx.operation), recordsOf(ctx.operation, exchange), op === 'list')
      },
    }
  })
}

export const draftOnly: TrafficRule = againstSeenStatus(
  {
    id: 'traffic.state.draft-only',
    clauses: ['§3.1', '§4.2'],
    level: 'MUST',
    side: 'server',
    title: 'A replace or delete of a quotation, or a replace of an invoice, is refused when it was last seen not a draft',
  },
  'collection',
  true,
  {
    resources: ['quotation', 'invoice'],
    ops: ['replace', 'delete'],
    // §3.1 limits a quotation's replace and delete to drafts, an invoice's replace only.
    where: ({ resource, operation }) => resource === 'quotation' || operation.op === 'replace',
  },
  ({ exchange, operation, resource, response }, ctx, lastSeen) => {
    const seen = lastSeen(`${resource}/${operation.id}`)
    if (!seen || typeof seen.status !== 'string') return
    ctx.exercised()
    if (seen.status !== 'draft' && isSuccess(response.status)) {
      ctx.violation({
        message: `${exchange.request.method} ${operation.path} (${operation.op}) answered ${response.status} on a ${resource} last seen with status ${JSON.stringify(seen.status)} (§3.1)`,
        expected: `§3.1: a quotation can be replaced or deleted only while it is a draft; an invoice can be replaced only while it is a draft`,
        exchanges: [seen.exchange, exchange],
      })
    }
  },
)

export const createdDraft: TrafficRule = perAnswer(
  {
    id: 'traffic.state.created-draft',
    clauses: ['§3', '§4.2'],
    level: 'MUST',
    side: 'server',
    title: 'A quotation or invoice created 2xx carries status draft (as state.*.created-draft)',
  },
  {
    resources: ['quotation', 'invoice'],
    ops: ['create'],
    status: '2xx',
    wholeBody: true,
    // A create answered without the record (success bodies are not shown for every write) says nothing here.
    where: ({ body }) => isObject(body) && 'status' in body,
  },
  ({ operation, resource, response, body }, ctx) => {
    const problem = notCreatedAsDraft(resource, (body as AnyRecord).status)
    if (problem) ctx.violation({ message: `POST ${operation.path} answered ${response.status}: ${problem.message}`, expected: problem.expected })
  },
)

export const orderFromAccepted: TrafficRule = againstSeenStatus(
  {
    id: 'traffic.state.order-from-accepted',
    clauses: ['§3.2', '§4.2'],
    level: 'MUST',
    side: 'server',
    title: 'An order is not created from a quotation last seen as a draft (§3.2: from an accepted quotation)',
  },
  // The state remembered and read is a quotation's: an order's create is judged where the quotations are; what
  // other collections show it notes but never reads.
  (_exchange, operation) => (operation.resource === 'order' || operation.resource === 'quotation' ? 'quotation' : undefined),
  // A list may lag behind a change (a search index): only reads and writes of the record itself say its state.
  false,
  { resources: ['order'], ops: ['create'] },
  ({ exchange, operation, response }, ctx, lastSeen) => {
    const quoteId = isObject(exchange.request.body) ? exchange.request.body.quoteId : undefined
    const seen = typeof quoteId === 'string' ? lastSeen(`quotation/${quoteId}`) : undefined
    // "draft" is the only status value §3 names, and a draft is not accepted; the accepted value is not shown.
    if (seen && seen.status === 'draft') {
      ctx.exercised()
      if (isSuccess(response.status)) {
        ctx.violation({
          message: `POST ${operation.path} answered ${response.status} for quotation ${quoteId}, last seen as a draft (§3.2)`,
          expected: '§3.2: an order is created from an accepted quotation',
          exchanges: [seen.exchange, exchange],
        })
      }
    }
  },
)

interface Quota {
  exchange: TrafficExchange
  remaining: number
  limit: number
  /** When the response says the window resets (ms), as the pacer reads RateLimit-Reset. */
  resetAt: number
  start: number
  end: number
}

const RECENT_PER_KEY = 8

/**
 * §8 RateLimit-Remaining: within one window the quota only goes down. Judged only where the traffic proves one
 * window and rules out a refill: B sent after A was answered, the same limit, both announcing the same reset
 * (within the rounding of whole seconds and the two latencies, `tolerance`) although more than twice that
 * tolerance passed between them (a reset that moves with time, a sliding window's, is never "the same"), B
 * answered before that reset, and B's Remaining above A's by more than a token bucket could have refilled
 * between them. Concurrent requests and unnamed keys are never compared.
 */
export const remainingNeverRises: TrafficRule = acrossKeyLight(
  {
    id: 'traffic.ratelimit.remaining-never-rises',
    clauses: ['§8', '§5.8'],
    level: 'MUST',
    side: 'server',
    title: 'RateLimit-Remaining never rises within one window of the same key (beyond what a refill explains)',
  },
  () => {
    /** Per key: the last responses, and the first one seen announcing the current reset (the longest gap to compare). */
    const keys = new BoundedMap<string, { recent: Quota[]; anchor?: Quota }>()
    return {
      observe(exchange, ctx) {
        const call = keyedCall(exchange, ctx.operation)
        if (!call) return
        const { key, response } = call
        const remaining = headerInt(response.headers['ratelimit-remaining'])
        const limit = headerInt(response.headers['ratelimit-limit'])
        const start = timeOf(exchange.startedAt)
        const end = timeOf(exchange.endedAt)
        if (remaining === undefined || !limit || Number.isNaN(start) || Number.isNaN(end)) return
        const resetAt = parseResetHeader(response.headers['ratelimit-reset'], end)
        if (resetAt === undefined) return
        const b: Quota = { exchange, remaining, limit, resetAt, start, end }
        const seen = keys.get(key) ?? { recent: [] }
        const candidates = seen.anchor ? [seen.anchor, ...seen.recent] : seen.recent
        let judged = false
        for (const a of candidates) {
          if (a.end > b.start || a.limit !== b.limit || !sameWindow(a, b)) continue
          if (!judged) ctx.exercised()
          judged = true
          const refill = Math.ceil(((b.end - a.start) * limit) / 60_000) + 1
          if (b.remaining > a.remaining + refill) {
            ctx.violation({
              message: `RateLimit-Remaining rose from ${a.remaining} to ${b.remaining} within one window (both announce the reset at ${new Date(a.resetAt).toISOString()}; at most ${refill} could have been refilled) (§8)`,
              expected: 'RateLimit-Remaining counts down within a window until it resets (§8)',
              exchanges: [a.exchange, exchange],
            })
            break
          }
        }
        seen.recent.push(b)
        if (seen.recent.length > RECENT_PER_KEY) seen.recent.shift()
        if (!seen.anchor || Math.abs(b.resetAt - seen.anchor.resetAt) > toleranceOf(seen.anchor, b)) seen.anchor = b
        keys.set(key, seen)
      },
    }
  },
)

/** Whole seconds of RateLimit-Reset, and the time each response spent in flight, blur when the reset falls. */
function toleranceOf(a: Quota, b: Quota): number {
  return 1000 + (a.end - a.start) + (b.end - b.start)
}

function sameWindow(a: Quota, b: Quota): boolean {
  const tolerance = toleranceOf(a, b)
  return Math.abs(b.resetAt - a.resetAt) <= tolerance && b.start - a.end > 2 * tolerance && b.end < a.resetAt - tolerance
}

export const SEQUENCE_RULES: TrafficRule[] = [
  idempotentReplay,
  readAfterWrite,
  goneAfterDelete,
  draftOnly,
  createdDraft,
  orderFromAccepted,
  remainingNeverRises,
]
