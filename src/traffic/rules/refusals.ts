// Refusals that look legal (server side): a 400 to a request with nothing §7.3 could name (/me, a record by
// uuid, a list whose every parameter the spec accepts, or the cursor the server itself just handed out), and a
// 404 to a list whose collection the key was just shown (a list is no record that "does not exist", §5.7). Each
// judges only what the traffic proves; what the spec leaves open (a workspace key unknown to a string filter, a
// parent the traffic never showed) is not judged.
import { DEFAULTS } from '../../config/config.ts'
import { UUID, acceptedListQuery } from '../../judge/accepted.ts'
import { errorCode, pathNames } from '../../judge/errors.ts'
import { RESOURCES } from '../../spec/resources.ts'
import type { TrafficExchange, TrafficRule } from '../types.ts'
import {
  BoundedMap,
  acrossExchanges,
  acrossKeyLight,
  answerOf,
  answeredWithin,
  isObject,
  keyOf,
  keyedCall,
  perExchange,
  querySignature,
  recordsOf,
  requestLine,
  resourceOf,
  wholeBody,
  type Judges,
} from './kit.ts'
import { writeDefects } from './responses.ts'

/** How long a cursor the server handed out is taken to hold: §4.1 shows no expiry, so only a prompt next page is judged. */
export const CURSOR_FRESH_MS = 60_000

/** The parameter names of the request's query as sent, repeats included. */
function paramNames(url: string): string[] {
  const q = url.indexOf('?')
  if (q === -1) return []
  return [...new URLSearchParams(url.slice(q + 1).split('#')[0]).keys()]
}

export const nothingToRefuse: TrafficRule = acrossExchanges(
  {
    id: 'traffic.refusal.nothing-invalid',
    clauses: ['§7.3', '§5.5', '§4.1'],
    level: 'MUST',
    side: 'server',
    title:
      'A GET with nothing §7.3 could name (/me, a record by uuid, a list whose every parameter §4.1 and §4.3 accept, or the cursor just handed out) is not answered 400',
  },
  // The cursors a key was handed for one collection; a /me or a record by uuid is judged alone.
  'collection',
  () => {
    /** `${key} ${nextCursor}` → the page that handed it out, with who asked and for what query (by key: two keys' equal cursors are two). */
    const cursors = new BoundedMap<string, { exchange: TrafficExchange; key: string; resource: string; signature: string }>(DEFAULTS.trafficKeysRemembered)
    return {
      observe(exchange, ctx) {
        const op = ctx.operation
        const response = exchange.response
        if (!response || exchange.request.method.toUpperCase() !== 'GET') return
        const resource = resourceOf(op)
        const key = keyOf(exchange)
        if (op.op === 'list' && resource && response.status === 200 && key !== undefined) {
          const body = wholeBody(exchange)
          const next = isObject(body) && typeof body.nextCursor === 'string' && body.nextCursor !== '' ? body.nextCursor : undefined
          if (next !== undefined) cursors.set(`${key} ${next}`, { exchange, key, resource, signature: querySignature(op) })
        }
        // A body on a GET is something a server may refuse with 400.
        if (exchange.request.body !== undefined || exchange.request.truncated) return
        let accepted = false
        if (op.op === 'me') accepted = Object.keys(op.query).length === 0 && paramNames(exchange.request.url).length === 0
        else if (op.op === 'get') accepted = op.id !== undefined && UUID.test(op.id) && paramNames(exchange.request.url).length === 0
        else if (op.op === 'list' && resource) {
          accepted = acceptedListQuery(RESOURCES[resource], op.query, paramNames(exchange.request.url))
          const cursor = op.query.cursor
          if (accepted && cursor !== undefined) {
            // Only the cursor this key was just handed for this very query: anything else may have expired.
            const issued = cursors.peek(`${key} ${cursor}`)
            accepted =
              issued !== undefined &&
              issued.key === key &&
              issued.resource === resource &&
              issued.signature === querySignature(op) &&
              answeredWithin(issued.exchange, exchange, CURSOR_FRESH_MS)
          }
        }
        if (!accepted) return
        ctx.exercised()
        if (response.status === 400)
          ctx.violation({
            message: `${requestLine(exchange)} was answered 400, but nothing in it is invalid: ${op.op === 'me' ? 'GET /me takes no parameter' : op.op === 'get' ? 'the id is a uuid' : 'every parameter is one §4.1/§4.3 accept, with an accepted value'} (§7.3)`,
            expected:
              '400 only for invalid or missing fields (§7.3); a key that is missing or not valid gives 401 (§5.5), a record the key cannot see 404 (§5.7), a list 200',
          })
      },
    }
  },
)

export const listNotFound: TrafficRule = acrossKeyLight(
  {
    id: 'traffic.refusal.list-not-404',
    clauses: ['§4.1', '§5.7', '§4.3'],
    level: 'MUST',
    side: 'server',
    title:
      'A list of a collection the same key was answered 2xx is not answered 404 when every uuid filter names a record the traffic showed (a filter that matches nothing gives an empty page)',
  },
  () => {
    /** `${key} ${resource}` of lists answered 2xx, and `${key} ${id}` of records shown to a key. */
    const listed = new BoundedMap<string, true>(DEFAULTS.trafficKeysRemembered)
    const shown = new BoundedMap<string, true>(DEFAULTS.trafficRecordsRemembered)
    return {
      observe(exchange, ctx) {
        const call = keyedCall(exchange, ctx.operation)
        if (!call) return
        const { key, operation: op, response } = call
        const resource = resourceOf(op)
        for (const r of recordsOf(op, exchange)) if (typeof r.id === 'string') shown.set(`${key} ${r.id.toLowerCase()}`, true)
        if (!resource || op.op !== 'list' || exchange.request.method.toUpperCase() !== 'GET') return
        const ok = response.status >= 200 && response.status < 300
        // A key refused first (401, 403, 429) or a failure (5xx) says nothing about the list; a cursor may have
        // expired (§4.1 shows no lifetime); a uuid filter naming a record never shown may name a parent that does
        // not exist, which §4.3 leaves open (an empty page or a 404).
        const judged =
          (ok || response.status === 404) &&
          op.query.cursor === undefined &&
          listed.peek(`${key} ${resource}`) !== undefined &&
          RESOURCES[resource].filters.every(
            (f) => f.kind !== 'uuid' || op.query[f.param] === undefined || shown.peek(`${key} ${op.query[f.param]!.toLowerCase()}`),
          )
        if (ok) listed.set(`${key} ${resource}`, true)
        if (!judged) return
        ctx.exercised()
        if (response.status === 404)
          ctx.violation({
            message: `${requestLine(exchange)} was answered 404, though this key was answered a list of ${op.path} before and was shown every record its uuid filters name (§4.1)`,
            expected: 'a page, empty when nothing matches: `{ data: [], … }` (§4.1, §4.3); 404 is for a record that does not exist or is not visible (§5.7)',
          })
      },
    }
  },
)

/** A write refused 400 invalid_request, seen whole: the refusals whose details §7.2 speaks of. */
const INVALID_WRITES: Judges<'create' | 'update' | 'replace'> = {
  ops: ['create', 'update', 'replace'],
  status: 400,
  wholeBody: true,
  where: ({ body }) => errorCode(body) === 'invalid_request',
}

/**
 * §7.2 "details … lists each field to fix": a 400 invalid_request with details, to a body with several fields at
 * fault, names each of them (as validation.*.several-defects). Whether a 400 is due and names one field at all is
 * traffic.error.invalid-request's; this rule judges only refusals that already carry details.
 */
export const detailsEachField: TrafficRule = perExchange(
  {
    id: 'traffic.error.details-each-field',
    clauses: ['§7.2', '§7.3'],
    level: 'MUST',
    side: 'server',
    title: 'A 400 invalid_request to a body with several fields at fault names each of them in details',
  },
  (exchange, ctx) => {
    const answer = answerOf(INVALID_WRITES, exchange, ctx.operation)
    if (!answer) return
    const details = (answer.body as { error?: { details?: unknown } }).error?.details
    if (!Array.isArray(details) || details.length === 0) return
    const { resource, operation } = answer
    const known = RESOURCES[resource][operation.op]?.fields ?? {}
    const fields = [...new Set((writeDefects(exchange, resource, operation.op) ?? []).map((i) => i.path))].filter((f) => f in known)
    if (fields.length < 2) return
    ctx.exercised()
    const unnamed = fields.filter((f) => !details.some((d: { path?: unknown }) => pathNames(d?.path, f)))
    if (unnamed.length > 0)
      ctx.violation({
        message: `${requestLine(exchange)} with ${fields.length} fields at fault (${fields.join(', ')}) was answered 400 whose details do not name ${unnamed.join(', ')} (§7.2)`,
        expected: '§7.2: details lists each field to fix, with path naming the field',
      })
  },
)

export const REFUSAL_RULES: TrafficRule[] = [nothingToRefuse, listNotFound, detailsEachField]
