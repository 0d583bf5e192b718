// Rules that judge an answer by what the traffic showed before it (server side): the scopes a key's /me showed,
// the workspace a record was shown in, a record's state before an update, a collection seen whole before a
// cursor walk, and a quota seen spent. Each keeps bounded state (DEFAULTS.traffic*Remembered) and judges only
// what the traffic proves: a fresh before-state, no write seen between, never a choice the spec leaves open.
import { DEFAULTS } from '../../config/config.ts'
import { scopesFromMe } from '../../judge/me.ts'
import { headerInt, parseResetHeader } from '../../http/rate-headers.ts'
import { sortAsked } from '../../judge/lists.ts'
import { changedUnsent, cleared } from '../../judge/unsent.ts'
import { namesUser, showsKeyName, stringsOf } from '../../judge/me-parts.ts'
import { RESOURCES, scopeFor, type OpName, type ResourceName } from '../../spec/resources.ts'
import type { TrafficExchange, TrafficRule } from '../types.ts'
import {
  BoundedMap,
  WriteClock,
  acrossExchanges,
  acrossKeyLight,
  answeredWithin,
  endedBefore,
  isObject,
  isSuccess,
  keyOf,
  keyedCall,
  recordsOf,
  requestLine,
  resourceOf,
  timeOf,
  wholeBody,
  type AnyRecord,
} from './kit.ts'
import { CompleteListings, MAX_WALK_IDS, OpenWalks, isCompleteListing, pageOf } from './lists.ts'
import { STATE_FRESH_MS } from './sequences.ts'

const OPS: ReadonlySet<string> = new Set<OpName>(['list', 'get', 'create', 'update', 'replace', 'delete'])

/** How long the scopes a /me showed are taken to hold: a key's scopes can be edited in the application (§5). */
export const SCOPES_FRESH_MS = 10 * 60_000

const SCOPE_WORD = /^[a-z_]+:(read|write)$/
const SCOPE_FIELD = /scope|permission|grant/i

/**
 * The key's scopes as its /me shows them (§2 leaves the shape open: judge/me.ts reads a list, a string or a map),
 * only when every word of every field named for scopes is a scope: `['*']`, `full_access` or `accounts:*` say
 * more than a list, and a key shown with them is never judged as lacking one.
 */
export function scopesShown(body: unknown): Set<string> | undefined {
  const scopes = scopesFromMe(body)
  if (!scopes || scopes.length === 0) return undefined
  let plain = true
  const visit = (value: unknown, depth: number): void => {
    if (!plain || depth > 6 || typeof value !== 'object' || value === null) return
    for (const [field, v] of Object.entries(value)) {
      if (SCOPE_FIELD.test(field)) {
        const words = typeof v === 'string' ? v.split(/[\s,]+/).filter(Boolean) : Array.isArray(v) ? v : []
        if (!words.every((w) => typeof w === 'string' && SCOPE_WORD.test(w))) plain = false
      }
      visit(v, depth + 1)
    }
  }
  visit(body, 0)
  return plain ? new Set(scopes) : undefined
}

export const scopeEnforced: TrafficRule = acrossKeyLight(
  {
    id: 'traffic.auth.scope-enforced',
    clauses: ['§5.4', '§5.6', '§1.2'],
    level: 'MUST',
    side: 'server',
    title: "A call outside the scopes the key's own /me just showed is not answered 2xx (refused with 403)",
  },
  () => {
    const keys = new BoundedMap<string, { scopes: Set<string>; exchange: TrafficExchange }>(DEFAULTS.trafficKeysRemembered)
    return {
      observe(exchange, ctx) {
        const call = keyedCall(exchange, ctx.operation)
        if (!call) return
        const { key, operation: op, response } = call
        if (op.op === 'me') {
          if (response.status !== 200) return
          const scopes = scopesShown(wholeBody(exchange))
          if (scopes) keys.set(key, { scopes, exchange })
          else keys.delete(key)
          return
        }
        const resource = resourceOf(op)
        const seen = keys.peek(key)
        if (!resource || !OPS.has(op.op ?? '') || !seen || !answeredWithin(seen.exchange, exchange, SCOPES_FRESH_MS)) return
        const scope = scopeFor(resource, op.op as OpName)
        const area = RESOURCES[resource].scopeArea
        // Whether a write scope also grants reading is not shown: a key holding either is not judged on a read.
        const lacks = scope.endsWith(':read') ? !seen.scopes.has(scope) && !seen.scopes.has(`${area}:write`) : !seen.scopes.has(scope)
        // The order of the checks is not shown either: a 400 for the body or a 404 for the id before the 403 is not
        // judged, nor a key refused first (401, 429) or a failure (5xx).
        if (!lacks || !(isSuccess(response.status) || response.status === 403)) return
        ctx.exercised()
        if (isSuccess(response.status))
          ctx.violation({
            message: `${requestLine(exchange)} answered ${response.status} to a key whose /me showed the scopes ${[...seen.scopes].sort().join(' ')}: ${op.op} on ${resource} needs ${scope} (§5.4)`,
            expected: `403: a key reaches only resources inside its scopes (§1.2, §5.4, §5.6)`,
            exchanges: [seen.exchange, exchange],
          })
      },
    }
  },
)

const ITEM_OPS: ReadonlySet<string> = new Set(['get', 'update', 'replace', 'delete'])

export const foreignRecordHidden: TrafficRule = acrossExchanges(
  {
    id: 'traffic.auth.foreign-record-hidden',
    clauses: ['§5.7', '§1.2'],
    level: 'MUST',
    side: 'server',
    title:
      "A record shown to this workspace's keys is answered 404 to another workspace's key (CRM_API_KEY_FOREIGN), never 2xx, and not 403 once that key reads the collection",
  },
  'collection',
  () => {
    /** Records shown to the configured keys of the workspace (every role but `foreign`), by `resource/id`. */
    const shown = new BoundedMap<string, TrafficExchange>(DEFAULTS.trafficRecordsRemembered)
    /** Collections the foreign key was answered 2xx: its scopes, role and allowlist let it read them. */
    const foreignReads = new Set<ResourceName>()
    return {
      observe(exchange, ctx) {
        const op = ctx.operation
        const resource = resourceOf(op)
        const response = exchange.response
        const role = exchange.keyRole
        if (!resource || !response || role === undefined || role.startsWith('key#')) return
        if (role !== 'foreign') {
          for (const r of recordsOf(op, exchange)) if (typeof r.id === 'string') shown.set(`${resource}/${r.id.toLowerCase()}`, exchange)
          return
        }
        if (isSuccess(response.status) && op.op === 'list') foreignReads.add(resource)
        if (!ITEM_OPS.has(op.op ?? '') || op.id === undefined) return
        const other = shown.peek(`${resource}/${op.id.toLowerCase()}`)
        if (!other || !endedBefore(other, exchange)) return
        const status = response.status
        const forbidden = status === 403 && foreignReads.has(resource)
        if (status !== 404 && !isSuccess(status) && !forbidden) return
        ctx.exercised()
        if (status === 404) return
        ctx.violation({
          message: `${requestLine(exchange)} by another workspace's key answered ${status} for a ${resource} shown to this workspace's keys${forbidden ? ' (403 tells the record exists; the same key reads this collection)' : ''} (§5.7)`,
          expected: '404, as if the record did not exist: a key reaches only its own workspace (§1.2, §5.7)',
          exchanges: [other, exchange],
        })
      },
    }
  },
)

export const updateKeepsUnsent: TrafficRule = acrossExchanges(
  {
    id: 'traffic.records.update-keeps-unsent',
    clauses: ['§4.4', '§4.2'],
    level: 'MUST',
    side: 'server',
    title: 'An update answered with the record keeps the fields it did not send that the record held just before (no value cleared)',
  },
  'collection',
  () => {
    const states = new BoundedMap<string, { record: AnyRecord; exchange: TrafficExchange }>(DEFAULTS.trafficRecordsRemembered)
    return {
      observe(exchange, ctx) {
        const op = ctx.operation
        const resource = resourceOf(op)
        const response = exchange.response
        if (!resource || !op.op || !response) return
        const id = op.id?.toLowerCase()
        if (op.op === 'delete' && id) states.delete(`${resource}/${id}`)
        if (!isSuccess(response.status) || !['get', 'create', 'update', 'replace'].includes(op.op)) return
        const record = recordsOf(op, exchange)[0]
        const recordId = typeof record?.id === 'string' ? record.id.toLowerCase() : undefined
        const key = `${resource}/${op.op === 'create' ? recordId : id}`
        const sent = exchange.request.body
        if (op.op === 'update' && record && recordId === id && isObject(sent) && !exchange.request.truncated) {
          const before = states.peek(key)
          if (before && answeredWithin(before.exchange, exchange, STATE_FRESH_MS)) {
            ctx.exercised()
            const lost = changedUnsent(resource, 'update', sent, before.record, record).filter(cleared)
            if (lost.length > 0)
              ctx.violation({
                message: `${requestLine(exchange)} sent ${Object.keys(sent).join(', ') || 'no field'} and answered a record whose unsent ${lost.map((c) => `${c.field} (${JSON.stringify(c.before)} → ${JSON.stringify(c.after)})`).join(', ')} ${lost.length === 1 ? 'was' : 'were'} cleared (§4.4)`,
                expected: '§4.4: on update all fields are optional; what is not sent is left as it was (replace is the operation that sends every field)',
                exchanges: [before.exchange, exchange],
              })
          }
        }
        // A write answered without the record leaves its state unknown.
        if (record && recordId !== undefined && (op.op === 'create' || recordId === id)) states.set(key, { record, exchange })
        else if (id) states.delete(key)
      },
    }
  },
)

interface WalkPage {
  exchange: TrafficExchange
  key: string
  records: AnyRecord[]
  /** Ids the walk showed so far (bounded). */
  ids: Set<string>
}

const SHAPING = new Set(['limit', 'sort', 'order', 'cursor'])

/**
 * A cursor walk skips nothing at the page boundary: a record a complete listing just showed (one page, no filter,
 * no nextCursor, the same key, no write to the collection seen since) whose sort value lies strictly between the
 * last record of one page and the first of the next belongs on one of them. Ties are never judged (their order
 * is open), nor walks with filters or since bounds (the listing does not show what they match).
 */
export const walkSkipsNothing: TrafficRule = acrossExchanges(
  {
    id: 'traffic.list.walk-skips-nothing',
    clauses: ['§4.1', '§9.2'],
    level: 'MUST',
    side: 'server',
    title: 'Consecutive pages of a walk leave out no record a complete listing just showed between their boundary records in the sort asked',
  },
  'collection',
  () => {
    const listings = new CompleteListings()
    const walks = new OpenWalks<WalkPage>()
    const writes = new WriteClock()
    return {
      observe(exchange, ctx) {
        if (writes.note(exchange, ctx.operation)) return
        const op = ctx.operation
        const resource = resourceOf(op)
        const key = keyOf(exchange)
        const page = pageOf(exchange, op)
        if (!resource || !page || key === undefined) return
        const params = Object.keys(op.query)
        if (!params.every((p) => SHAPING.has(p))) return
        listings.note(key, page, exchange)
        let ids = new Set<string>()
        const previous = walks.follow(page, (p) => p.key === key)
        if (previous) {
          ids = previous.ids
          const listing = listings.justBefore(key, resource, writes, previous.exchange, exchange)
          const asked = sortAsked(op.query)
          const last = previous.records.at(-1)
          const first = page.records[0]
          if (listing && asked && last && first) {
            const a = timeOf(String(last[asked.sort]))
            const b = timeOf(String(first[asked.sort]))
            if (!Number.isNaN(a) && !Number.isNaN(b)) {
              ctx.exercised()
              const onPages = new Set([...previous.records, ...page.records].map((r) => String(r.id)))
              const skipped = listing.records.find((r) => {
                const t = timeOf(String(r[asked.sort]))
                const between = asked.order === 'desc' ? t < a && t > b : t > a && t < b
                return between && !onPages.has(String(r.id)) && !ids.has(String(r.id))
              })
              if (skipped)
                ctx.violation({
                  message: `${requestLine(exchange)} skipped ${resource} ${skipped.id} (${asked.sort} ${skipped[asked.sort]}), which lies between the previous page's last ${last.id} (${last[asked.sort]}) and this page's first ${first.id} (${first[asked.sort]}) and was in the complete listing just before (§4.1)`,
                  expected: 'each record once in a walk by nextCursor (§4.1, §9.2)',
                  exchanges: [listing.exchange, previous.exchange, exchange],
                })
            }
          }
        }
        if (page.next === undefined) return
        for (const r of page.records) {
          ids.add(String(r.id))
          if (ids.size > MAX_WALK_IDS) ids.delete(ids.values().next().value as string)
        }
        walks.hold(page, { exchange, key, records: page.records, ids })
      },
    }
  },
)

/** Answers accepted per key that the quota rule remembers: past it (a limit above it) the rule does not judge. */
const MAX_ACCEPTED_PER_KEY = 1_000

/**
 * §8 a per-minute limit, §7.7 429 when it is reached: after an answer said RateLimit-Remaining 0, a call of the
 * same key that every usual limiter must refuse is not answered 2xx. Judged only when all three agree: a fixed
 * window (answered before the announced reset, whole-second rounding aside), a token bucket (less than one token
 * could refill since), and a sliding log (the traffic itself shows `limit` calls of the key accepted within the
 * minute before).
 */
export const limitEnforced: TrafficRule = acrossKeyLight(
  {
    id: 'traffic.ratelimit.limit-enforced',
    clauses: ['§8', '§7.7', '§5.8'],
    level: 'MUST',
    side: 'server',
    title: 'After RateLimit-Remaining 0, a call of the same key that no window, bucket or log could admit is refused with 429, not answered 2xx',
  },
  () => {
    const keys = new BoundedMap<string, { accepted: number[]; spent?: { exchange: TrafficExchange; limit: number; resetAt: number } }>(
      DEFAULTS.trafficKeysRemembered,
    )
    return {
      observe(exchange, ctx) {
        const call = keyedCall(exchange, ctx.operation)
        if (!call) return
        const { key, response } = call
        const state = keys.get(key) ?? { accepted: [] }
        const start = timeOf(exchange.startedAt)
        const end = timeOf(exchange.endedAt)
        const spent = state.spent
        if (spent && endedBefore(spent.exchange, exchange) && (isSuccess(response.status) || response.status === 429)) {
          const inWindow = end < spent.resetAt
          const noRefill = ((end - timeOf(spent.exchange.startedAt)) * spent.limit) / 60_000 < 1
          const logFull = state.accepted.filter((t) => t > end - 60_000).length >= spent.limit
          if (inWindow && noRefill && logFull) {
            ctx.exercised()
            if (isSuccess(response.status))
              ctx.violation({
                message: `${requestLine(exchange)} answered ${response.status} after this key's quota was spent (RateLimit-Remaining 0, limit ${spent.limit}, ${state.accepted.filter((t) => t > end - 60_000).length} calls accepted in the last minute) (§8)`,
                expected: '429 with Retry-After until the window resets (§7.7, §8)',
                exchanges: [spent.exchange, exchange],
              })
          }
        }
        if (isSuccess(response.status)) {
          state.accepted.push(start)
          if (state.accepted.length > MAX_ACCEPTED_PER_KEY) state.accepted.shift()
        }
        const remaining = headerInt(response.headers['ratelimit-remaining'])
        const limit = headerInt(response.headers['ratelimit-limit'])
        // The reset counted from when the request was sent, less a second of rounding: the earliest it can fall.
        const reset = parseResetHeader(response.headers['ratelimit-reset'], start)
        if (remaining === 0 && limit && limit <= MAX_ACCEPTED_PER_KEY && reset !== undefined && !Number.isNaN(start))
          state.spent = { exchange, limit, resetAt: reset - 1_000 }
        else if (remaining !== undefined && remaining > 0) delete state.spent
        keys.set(key, state)
      },
    }
  },
)

/**
 * §2 /me "returns the workspace, the key's name and scopes, and the user the key acts as" (field names not
 * shown), as discovery.me.shows-key-name and shows-user judge it: the key's name in any reasonable shape, and the
 * user by a field named for it or as the id of a user the same key's complete /users listing showed (judged at
 * the end, when that listing was seen). The workspace is not judged here: a body may show it only as the id the
 * key carries, and traffic holds the key masked. The scopes are traffic.me.schema's.
 */
export const meShowsParts: TrafficRule = acrossExchanges(
  {
    id: 'traffic.me.shows-parts',
    clauses: ['§2', '§4.2'],
    level: 'MUST',
    side: 'server',
    title:
      "GET /me answered 200 shows the key's name and the user the key acts as (a field named for the user, or the id of a user the key's complete /users listing showed)",
  },
  // Only its /me and /users answers are kept: one key's, whatever else the key sends.
  (exchange, operation) => (operation.op === 'me' || operation.resource === 'user' ? `k ${keyOf(exchange) ?? '?'}` : undefined),
  () => {
    /** Per key: the user ids of its complete /users listing, and its last /me that names no user field (bounded, oldest out). */
    const keys = new Map<string, { users?: Set<string>; me?: TrafficExchange }>()
    const remember = (key: string, state: { users?: Set<string>; me?: TrafficExchange }) => {
      keys.delete(key)
      keys.set(key, state)
      if (keys.size > DEFAULTS.trafficKeysRemembered) keys.delete(keys.keys().next().value as string)
    }
    return {
      observe(exchange, ctx) {
        const call = keyedCall(exchange, ctx.operation)
        if (!call || call.response.status !== 200) return
        const { key, operation: op } = call
        const state = keys.get(key) ?? {}
        if (op.op === 'me') {
          const body = wholeBody(exchange)
          if (!isObject(body)) return
          ctx.exercised()
          if (!showsKeyName(body))
            ctx.violation({
              message: "GET /me shows no name of the key: no name or label at the top, in the key's object, or in a keyName-like field (§2)",
              expected: "§2: /me returns the workspace, the key's name and scopes, and the user the key acts as (field names not shown)",
            })
          if (namesUser(body)) delete state.me
          else state.me = exchange
          remember(key, state)
          return
        }
        const page = op.resource === 'user' ? pageOf(exchange, op) : undefined
        if (page && isCompleteListing(page)) {
          state.users = new Set(page.records.map((r) => String(r.id).toLowerCase()))
          remember(key, state)
        }
      },
      finish(ctx) {
        for (const { users, me } of keys.values()) {
          if (!users || !me) continue
          ctx.exercised()
          if (!stringsOf(wholeBody(me)).some((s) => users.has(s.toLowerCase())))
            ctx.violation({
              message: 'GET /me shows no user: no field named for a user (user, actor, owner, principal), and no id in it is a user the same key listed (§2)',
              expected: "§2: /me returns the workspace, the key's name and scopes, and the user the key acts as (field names not shown)",
              exchanges: [me],
            })
        }
      },
    }
  },
)

export const REMEMBERED_RULES: TrafficRule[] = [scopeEnforced, foreignRecordHidden, updateKeepsUnsent, walkSkipsNothing, limitEnforced, meShowsParts]
