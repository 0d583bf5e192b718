// Rules on what a client sends (side: client): the key on every call, §4.4 bodies, limit within 1–100, the
// Retry-After of a 429 honoured, and an Idempotency-Key never reused for another body.
import { requestedPageSize } from '../../judge/lists.ts'
import { wellFormedRetryAfterMs } from '../../judge/rate-header-forms.ts'
import { deepEqual } from '../../judge/written.ts'
import type { TrafficExchange, TrafficRule } from '../types.ts'
import { BoundedMap, acrossExchanges, idempotentCreate, isApiCall, keyOf, perExchange, resourceOf, timeOf } from './kit.ts'
import { writeDefects } from './responses.ts'

/** What the client sent instead of a bearer key: nothing, another scheme (named), or a bare value. */
function describeAuthorization(auth: string | undefined): string {
  if (auth === undefined) return 'no Authorization header'
  const named = /^([A-Za-z][\w-]*)\s+\S/.exec(auth.trim())?.[1]
  if (named !== undefined && !/^bearer$/i.test(named)) return `Authorization with the ${named} scheme, not Bearer`
  return 'an Authorization header that is not a bearer key'
}

export const keySent: TrafficRule = perExchange(
  {
    id: 'traffic.client.key',
    clauses: ['§5.1', '§4'],
    level: 'MUST',
    side: 'client',
    title: 'Every call carries the bearer key: Authorization: Bearer <API_KEY>',
  },
  (exchange, ctx) => {
    if (!isApiCall(exchange)) return
    ctx.exercised()
    const auth = exchange.request.headers.authorization
    if (auth === undefined || !/^bearer\s+\S/i.test(auth.trim())) {
      ctx.violation({
        message: `${exchange.request.method} ${ctx.operation.path} sent ${describeAuthorization(auth)} (§5.1)`,
        expected: 'Authorization: Bearer <API_KEY> on every call (§4, §5.1)',
      })
    }
  },
)

export const bodyValid: TrafficRule = perExchange(
  {
    id: 'traffic.client.body',
    clauses: ['§4.4', '§4.1'],
    level: 'MUST',
    side: 'client',
    title: 'Write bodies follow §4.4: required fields sent, each field of its type, enumerated fields with a listed value',
  },
  (exchange, ctx) => {
    const resource = resourceOf(ctx.operation)
    const op = ctx.operation.op
    const defects = writeDefects(exchange, resource, op)
    if (defects === undefined) return
    ctx.exercised()
    const body = exchange.request.body
    if (body === undefined || typeof body === 'string') {
      ctx.violation({
        message: `${exchange.request.method} ${ctx.operation.path}: the ${resource} ${op} ${body === undefined ? 'sent no body' : 'body is not JSON'} (§4: bodies are JSON)`,
        expected: `a JSON object matching writes/${resource}.${op} (§4, §4.4)`,
      })
    } else if (defects.length > 0) {
      ctx.violation({
        message: `${exchange.request.method} ${ctx.operation.path}: the ${resource} ${op} body breaks §4.4: ${defects
          .slice(0, 3)
          .map((d) => `${d.path || '(root)'} ${d.message}`)
          .join('; ')}${defects.length > 3 ? `; and ${defects.length - 3} more` : ''}`,
        expected: `a body matching writes/${resource}.${op} (§4.4)`,
      })
    }
  },
)

export const limitInRange: TrafficRule = perExchange(
  {
    id: 'traffic.client.limit',
    clauses: ['§4.1', '§8'],
    level: 'MUST',
    side: 'client',
    title: 'A list asks for limit as an integer of 1–100',
  },
  (_exchange, ctx) => {
    if (ctx.operation.op !== 'list') return
    const limit = ctx.operation.query.limit
    if (limit === undefined) return
    ctx.exercised()
    if (requestedPageSize(limit) === undefined)
      ctx.violation({ message: `GET ${ctx.operation.path} asked for limit=${limit} (§4.1)`, expected: 'limit: an integer, page size 1–100 (§4.1, §8)' })
  },
)

/**
 * §8 "When the limit is reached, the client waits the number of seconds in Retry-After before calling again": the
 * same key's next call of the same method and path, sent before the wait elapsed. The wait is counted from when
 * the 429 was received; a date form from the 429's own `Date` header.
 */
export const retryAfterHonoured: TrafficRule = acrossExchanges(
  {
    id: 'traffic.client.retry-after',
    clauses: ['§8', '§7.7'],
    level: 'MUST',
    side: 'client',
    title: 'After a 429, the client waits Retry-After before calling the same method and path again with the same key',
  },
  // Per key, method and path: one collection's.
  'collection',
  () => {
    const waits = new BoundedMap<string, { until: number; refused: TrafficExchange }>()
    return {
      observe(exchange, ctx) {
        if (!isApiCall(exchange)) return
        const key = keyOf(exchange)
        if (key === undefined) return
        const call = `${key} ${exchange.request.method.toUpperCase()} ${ctx.operation.path}`
        const wait = waits.peek(call)
        const started = timeOf(exchange.startedAt)
        if (wait && started >= timeOf(wait.refused.endedAt)) {
          waits.delete(call)
          ctx.exercised()
          if (started < wait.until) {
            const early = Math.ceil((wait.until - started) / 1000)
            ctx.violation({
              message: `${exchange.request.method} ${ctx.operation.path} sent again ${early} s before the Retry-After of the 429 (${wait.refused.response!.headers['retry-after']}) elapsed (§8)`,
              expected: 'the client waits the number of seconds in Retry-After before calling again (§8)',
              exchanges: [wait.refused, exchange],
            })
          }
        }
        const response = exchange.response
        if (response?.status !== 429) return
        const ended = timeOf(exchange.endedAt)
        const ms = wellFormedRetryAfterMs(response.headers['retry-after'], ended, response.headers.date)
        if (ms === undefined || Number.isNaN(ended)) return
        waits.set(call, { until: ended + ms, refused: exchange })
      },
    }
  },
)

/** §4.1 Idempotency-Key "any unique value": one key, one body (per API key and path). */
export const idempotencyKeyReuse: TrafficRule = acrossExchanges(
  {
    id: 'traffic.client.idempotency-key-reuse',
    clauses: ['§4.1'],
    level: 'SHOULD',
    side: 'client',
    title: 'An Idempotency-Key is not reused with a different body',
  },
  // Per API key, path and Idempotency-Key: one collection's.
  'collection',
  () => {
    const sent = new BoundedMap<string, TrafficExchange>()
    return {
      observe(exchange, ctx) {
        const create = idempotentCreate(exchange, ctx.operation)
        if (!create || exchange.request.truncated) return
        const first = sent.peek(create.retryKey)
        if (!first) {
          sent.set(create.retryKey, exchange)
          return
        }
        ctx.exercised()
        if (!deepEqual(first.request.body, exchange.request.body)) {
          ctx.violation({
            message: `POST ${ctx.operation.path} reused Idempotency-Key ${JSON.stringify(create.idem)} with a different body (§4.1)`,
            expected: 'a unique Idempotency-Key per distinct request (§4.1 "any unique value")',
            exchanges: [first, exchange],
          })
        }
      },
    }
  },
)

export const CLIENT_RULES: TrafficRule[] = [keySent, bodyValid, limitInRange, retryAfterHonoured, idempotencyKeyReuse]
