// The reference server's HTTP surface (Hono): every path and operation of §4.2 under /v1 and /api/v1, the gate
// of §5 (key, rate limit, IP allowlist), and the generic list/get/create/update/replace/delete handlers that call
// the per-resource models.

import type { HttpBindings } from '@hono/node-server'
import { Hono, type Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { methodNotAllowed } from 'hono/method-not-allowed'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { RESOURCE_LIST, parseFieldType, scopeFor, type OpName, type ResourceSpec, type WriteOp } from '../spec/resources.ts'
import { ApiError, invalidRequest, notFound, type ErrorDetail } from './api-error.ts'
import { bearerOf, ipAllowed, requireScope, unauthorized, type ApiKey, type KeyTable } from './auth.ts'
import { isoOf, type Clock } from './clock.ts'
import type { FaultSet } from './faults.ts'
import { IDEMPOTENCY_KEY_MAX_LENGTH, canonicalJson, keyHonoured, replayedBody, type IdempotencyStore } from './idempotency.ts'
import { MODELS, changesOf, normalizeUuid, own, shape, type Draft, type Workspace, type WriteCtx } from './models.ts'
import { UUID_PATTERN, listPage, parseListQuery } from './pagination.ts'
import type { RateDecision, RateLimiter } from './rate-limit.ts'
import type { Json, Kind, ListSource, Store, StoredRecord } from './store.ts'
import { bodyProblems } from './validation.ts'
import type { SchemaIssue } from '../schemas/registry.ts'
import type { Variant } from './variants.ts'
import type { WebhookDispatcher, WebhookEvent } from './webhooks.ts'

/** Named defaults of the HTTP surface (the spec leaves them open, §8 "not shown"). */
export const HTTP_DEFAULTS = {
  /** Largest request body; larger ones get 413. */
  maxBodyBytes: 1024 * 1024,
  /** Deepest nesting of objects and arrays in a request body. */
  maxBodyDepth: 64,
  /** Per-minute limit of callers without a valid key, per remote address (their 401s carry RateLimit-*). */
  anonymousLimitPerMinute: 600,
}

export const BASE_PATHS = ['/v1', '/api/v1'] as const

/** The `rate-limits.hidden-burst-limit` fault's unannounced cap on one key's calls within a second. */
const HIDDEN_BURST_PER_SECOND = 100
/** How long the `rate-limits.retry-after-fixed-1s` fault keeps a refused key refused. */
const FIXED_1S_HOLD_MS = 20_000

/** The parent a child record names (§4.4): looked up first by the variants that do so. */
const PARENT_FIELD: Partial<Record<Kind, string>> = { comment: 'caseId', payment: 'invoiceId', message: 'conversationId' }

export interface AppState {
  store: Store
  /** What list queries read: the store, or a view of it that shows writes late (a search index). */
  lists: ListSource
  clock: Clock
  variant: Variant
  faults: FaultSet
  keys: KeyTable
  workspaces: ReadonlyMap<string, Workspace>
  limiter: RateLimiter
  idempotency: IdempotencyStore
  webhooks: WebhookDispatcher
  /** Events of this workspace are delivered (the endpoint configured in its settings, §6.1). */
  webhookWorkspace: string
}

type Env = { Bindings: HttpBindings; Variables: { key: ApiKey } }
type Ctx = Context<Env>

export function createApp(state: AppState): Hono<Env> {
  const { store, clock, variant, faults } = state
  /** When the server started: the `filters.index-not-backfilled` fault's search index holds only records written since. */
  const indexedSince = clock.now()

  // ---- responses -------------------------------------------------------------------------------------------

  const errorBody = (err: ApiError): Json => {
    const error: Json = { code: err.code, message: err.message }
    if (err.details && !(faults.has('validation.no-details') && err.status === 400)) {
      error.details = err.details.map((d) => ({
        path: d.in === undefined || d.in === 'body' ? variant.detailPath(d.segments) : d.segments.join('.'),
        message: d.message,
      }))
    }
    return { error }
  }

  const errorResponse = (c: Ctx, err: ApiError): Response => c.json(errorBody(err), err.status as ContentfulStatusCode, err.headers)

  const rateHeaders = (res: Response, d: RateDecision): void => {
    if (faults.has('ratelimit.no-headers-on-errors') && res.status >= 400 && res.status < 500) return
    const reset = variant.rateLimitReset === 'unix-time' ? Math.ceil(clock.now() / 1000) + d.resetSeconds : d.resetSeconds
    // Faults: Remaining never decremented; Limit and Remaining swapped; the reset as an ISO timestamp.
    const remaining = faults.has('rate-limits.remaining-stuck') ? d.limit : d.remaining
    const [limitValue, remainingValue] = faults.has('rate-limits.headers-swapped') ? [remaining, d.limit] : [d.limit, remaining]
    res.headers.set('RateLimit-Limit', variant.rateLimitLimit === 'with-window' ? `${limitValue}, ${limitValue};w=60` : String(limitValue))
    res.headers.set('RateLimit-Remaining', String(remainingValue))
    res.headers.set('RateLimit-Reset', faults.has('rate-limits.reset-iso-date') ? new Date(clock.now() + d.resetSeconds * 1000).toISOString() : String(reset))
    // The fault: the 429 leaves clients to guess how long to wait.
    if (d.retryAfterSeconds !== undefined && !faults.has('rate-limits.429-without-retry-after')) res.headers.set('Retry-After', retryAfterValue(res, retryAfterOf(d.retryAfterSeconds)))
  }

  /** Seconds, or the HTTP date they end at (rounded up to the whole second a date can show), with a Date to count from. */
  const retryAfterValue = (res: Response, seconds: number): string => {
    if (variant.retryAfter === 'delta-seconds') return String(seconds)
    const now = clock.now()
    res.headers.set('Date', new Date(now).toUTCString())
    return new Date(Math.ceil((now + seconds * 1000) / 1000) * 1000).toUTCString()
  }

  /** Retry-After from the limiter's whole seconds (rounded up), or as a fault makes it. */
  const retryAfterOf = (seconds: number): number => {
    if (faults.has('rate-limits.retry-after-fixed-1s')) return 1
    if (faults.has('rate-limits.retry-after-milliseconds')) return seconds * 1000
    return seconds
  }

  const heldUntil = new Map<string, number>()

  // The `rate-limits.hidden-burst-limit` fault: each key's calls of the last second, against a cap no header shows.
  const recentCalls = new Map<string, number[]>()
  const burstExceeded = (id: string, now: number): boolean => {
    const recent = (recentCalls.get(id) ?? []).filter((t) => now - t < 1000)
    recent.push(now)
    recentCalls.set(id, recent)
    return recent.length > HIDDEN_BURST_PER_SECOND
  }

  const dateTimeFields = new Map(
    RESOURCE_LIST.map((spec) => [spec, Object.entries(spec.record).filter(([, t]) => parseFieldType(t).base === 'date-time').map(([f]) => f)]),
  )
  const nullableTextFields = new Map(
    RESOURCE_LIST.map((spec) => [spec, Object.entries(spec.record).filter(([, t]) => parseFieldType(t).nullable && ['string', 'uuid'].includes(parseFieldType(t).base)).map(([f]) => f)]),
  )
  const recordFaults = faults.has('records.missing-updatedAt') || faults.has('records.datetime-without-zone') || faults.has('records.null-as-empty-string')

  /** The record as sent: the stored one, or a copy carrying the record faults that are switched on. */
  const present = (spec: ResourceSpec, record: Json): Json => {
    if (!recordFaults) return record
    const out = { ...record }
    if (faults.has('records.missing-updatedAt')) delete out.updatedAt
    if (faults.has('records.datetime-without-zone')) {
      for (const f of dateTimeFields.get(spec) ?? []) if (typeof out[f] === 'string') out[f] = String(out[f]).replace(/Z$/, '')
    }
    // The fault: a nullable string or uuid that is null is sent as "" (a zero value serialised as is).
    if (faults.has('records.null-as-empty-string')) for (const f of nullableTextFields.get(spec) ?? []) if (out[f] === null) out[f] = ''
    return out
  }

  // ---- request helpers ----------------------------------------------------------------------------------------

  const parseId = (spec: ResourceSpec, raw: string): string => {
    if (UUID_PATTERN.test(raw)) return raw.toLowerCase()
    // The fault: the id goes to the database unchecked, whose uuid cast throws.
    if (faults.has('read-only.non-uuid-500')) throw new Error(`invalid input syntax for type uuid: "${raw}"`)
    if (variant.nonUuidId === 'invalid-400') throw invalidRequest([{ segments: ['id'], in: 'path', message: 'id must be a uuid' }])
    throw notFound(spec.name)
  }

  /** The `auth.item-any-workspace` fault: the workspace a record was found in, when not the key's. */
  const foundIn = new WeakMap<StoredRecord, string>()

  const find = (c: Ctx, spec: ResourceSpec): StoredRecord => {
    const id = parseId(spec, c.req.param('id') ?? '')
    let rec = store.get(c.get('key').workspace, spec.name, id)
    // The fault: the id is looked up in every workspace, not only the key's; writes then act on the owner's copy.
    if (!rec && faults.has('auth.item-any-workspace')) {
      for (const ws of state.workspaces.keys()) if (!rec && (rec = store.get(ws, spec.name, id))) foundIn.set(rec, ws)
    }
    // The fault: the missing record is dereferenced.
    if (!rec && faults.has('auth.unknown-id-500')) throw new TypeError("Cannot read properties of undefined (reading 'record')")
    // The fault: another workspace's record is refused as forbidden, which tells the caller it exists.
    if (!rec && faults.has('auth.foreign-record-403') && [...state.workspaces.keys()].some((ws) => store.get(ws, spec.name, id))) {
      throw new ApiError(403, 'forbidden', 'This record belongs to another workspace.')
    }
    if (!rec) throw notFound(spec.name)
    return rec
  }

  const allow = (c: Ctx, spec: ResourceSpec, op: OpName, role = true): ApiKey => {
    const key = c.get('key')
    const scope = scopeFor(spec.name, op)
    // The fault: comments guarded by comments:* scopes of their own, which §5.4 does not have.
    requireScope(key, faults.has('auth.comments-own-scope') && spec.name === 'comment' ? scope.replace(/^cases:/, 'comments:') : scope, faults, role)
    return key
  }

  /** §7.3: malformed JSON and bodies that are not objects are a 400 naming the body, never a 500. */
  const readBody = async (c: Ctx): Promise<Json> => {
    // hono/body-limit re-wraps the request in a global Request, which needs the Node globals this server leaves
    // alone; the limit is checked here instead.
    const tooLarge = () => new ApiError(413, 'payload_too_large', `The body is larger than ${HTTP_DEFAULTS.maxBodyBytes} bytes.`)
    if (Number(c.req.header('content-length') ?? 0) > HTTP_DEFAULTS.maxBodyBytes) throw tooLarge()
    const text = await c.req.text()
    if (text.length > HTTP_DEFAULTS.maxBodyBytes && Buffer.byteLength(text) > HTTP_DEFAULTS.maxBodyBytes) throw tooLarge()
    // The fault: the body is parsed unguarded and used as an object whatever it is, so a bad body ends in a 500.
    if (faults.has('validation.body-unguarded-500')) {
      const value = JSON.parse(text) as unknown
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new TypeError(`Cannot use 'in' operator to search for 'id' in ${String(value)}`)
      return value as Json
    }
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      throw invalidRequest([{ segments: [], message: 'Body is not valid JSON' }])
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw invalidRequest([{ segments: [], message: 'Body must be a JSON object' }])
    }
    // Deeper bodies would later overflow the stack of JSON.stringify (a 500): refuse them here.
    if (depthOf(value) > HTTP_DEFAULTS.maxBodyDepth) {
      throw invalidRequest([{ segments: [], message: `Body is nested deeper than ${HTTP_DEFAULTS.maxBodyDepth} levels` }])
    }
    return value as Json
  }

  /** Schema (the registry), then references to other records of the workspace. */
  /** Schema issues that a faulty validator overlooks (faults of the validation area). */
  const overlooked = (spec: ResourceSpec, op: WriteOp, issue: SchemaIssue): boolean => {
    if (issue.keyword === 'required') return faults.has('validation.required-unchecked')
    if (issue.keyword === 'enum') return faults.has('validation.enums-unchecked')
    const type = spec[op]!.fields[issue.path]
    return issue.keyword === 'format' && type !== undefined && parseFieldType(type).base === 'uuid' && faults.has('validation.reference-uuid-unchecked')
  }

  const checkBody = (spec: ResourceSpec, op: WriteOp, body: Json, workspace: string): void => {
    // The fault: wrong JSON types are coerced as a form parser would, before validation.
    if (faults.has('validation.types-coerced')) coerceTypes(spec[op]!.fields, body)
    let details: ErrorDetail[] = bodyProblems(spec.name, op, body, (issue) => overlooked(spec, op, issue))
    // The fault: only missing required fields are looked for.
    if (faults.has('bodies.types-unchecked')) details = details.filter((d) => d.segments.length === 1 && own(body, d.segments[0]) === undefined)
    // The fault: the address format is checked without allowing the empty string of §4.1.
    if (faults.has('validation.empty-email-refused')) {
      for (const [f, t] of Object.entries(spec[op]!.fields)) if (t === 'email' && body[f] === '') details.push({ segments: [f], message: `${f} must be an email address` })
    }
    const fields = spec[op]!.fields
    for (const [field, kind] of Object.entries(MODELS[spec.name].refs)) {
      const v = body[field]
      if (own(fields, field) === undefined || typeof v !== 'string' || details.some((d) => d.segments[0] === field)) continue
      // The fault: a reference that is not a uuid reaches the database, whose uuid cast throws.
      if (faults.has('validation.reference-uuid-unchecked') && !UUID_PATTERN.test(v)) throw new Error(`invalid input syntax for type uuid: "${v}"`)
      if (!store.get(workspace, kind, normalizeUuid(v))) details.push({ segments: [field], message: `${field} names no ${kind} of this workspace` })
    }
    if (details.length > 0) throw invalidRequest(details)
  }

  /** The kind of the parent `values` name by a uuid that no record of the workspace has; undefined otherwise. */
  const missingParent = (spec: ResourceSpec, workspace: string, values: Record<string, unknown>): Kind | undefined => {
    const field = PARENT_FIELD[spec.name]
    const value = field === undefined ? undefined : values[field]
    if (typeof value !== 'string' || !UUID_PATTERN.test(value)) return undefined
    const kind = MODELS[spec.name].refs[field!]!
    return store.get(workspace, kind, normalizeUuid(value)) ? undefined : kind
  }

  const refuse = (message: string): ApiError => new ApiError(variant.stateRefusal.status, variant.stateRefusal.code, message)

  const writeCtx = (key: ApiKey, events: WebhookEvent[]): WriteCtx => {
    const user = store.get(key.workspace, 'user', key.userId)
    return {
      store,
      workspace: state.workspaces.get(key.workspace)!,
      actor: { userId: key.userId, displayName: String(user?.record.displayName ?? key.name) },
      at: clock.stamp(),
      stamp: () => clock.stamp(),
      refuse,
      emit: (e) => events.push(e),
      faults,
      variant,
    }
  }

  /** The variant's workspace automation on a record written through the API: tags added on create (§1.6), custom field defaults (§2). */
  const automate = (spec: ResourceSpec, draft: Draft, created: boolean): Draft => {
    const r = draft.record
    if (created && variant.addedTags && Array.isArray(r.tags)) r.tags = [...new Set([...r.tags, ...variant.addedTags])]
    if (variant.customDefaults && 'custom' in spec.record) r.custom = { ...variant.customDefaults, ...(r.custom as Json) }
    return draft
  }

  const publish = (key: ApiKey, events: WebhookEvent[]): void => {
    if (key.workspace !== state.webhookWorkspace) return
    for (const e of events) state.webhooks.emit(e)
  }

  /** Stores a draft as the record of `spec`, stamped with the write time. */
  const commit = (spec: ResourceSpec, workspace: string, id: string, createdAtMs: number, at: number, draft: Draft): StoredRecord => {
    const values: Json = { ...draft.record, id }
    if ('createdAt' in spec.record) values.createdAt = isoOf(createdAtMs)
    if ('updatedAt' in spec.record) values.updatedAt = isoOf(at)
    // The fault: the serialiser writes every column, the write-only ones too (§2 "not in the record").
    const shown = faults.has('records.write-only-echoed') ? { ...shape(spec, values), ...Object.fromEntries(Object.entries(draft.hidden).filter(([f]) => f in spec.writeOnly)) } : shape(spec, values)
    const rec: StoredRecord = { id, createdAtMs, updatedAtMs: at, record: shown, hidden: draft.hidden }
    store.put(workspace, spec.name, rec)
    return rec
  }

  // ---- handlers ------------------------------------------------------------------------------------------------

  const list = (spec: ResourceSpec) => (c: Ctx) => {
    const key = allow(c, spec, 'list')
    const q = parseListQuery(c.req.query(), spec, faults)
    const unknownParent = variant.unknownParentFilter404 ? missingParent(spec, key.workspace, c.req.query()) : undefined
    if (unknownParent) throw notFound(unknownParent)
    const page = listPage(state.lists, key.workspace, spec.name, q, variant, faults)
    // The fault: lists come from a search index refreshed every 10 s, so a record just written is missing.
    if (faults.has('records.list-index-lag')) page.data = page.data.filter((r) => clock.now() - r.createdAtMs > 10_000)
    // Faults: other workspaces' records in this key's lists, when filtered or when not.
    if (faults.has(q.filters.length > 0 ? 'auth.filtered-list-any-workspace' : 'auth.list-any-workspace')) {
      for (const ws of state.workspaces.keys()) if (ws !== key.workspace) page.data.push(...listPage(state.lists, ws, spec.name, q, variant, faults).data)
    }
    // The fault: filtered lists query a search index switched on at start-up and never backfilled, so a filter
    // never finds a record that existed before.
    if (faults.has('filters.index-not-backfilled') && q.filters.length > 0) page.data = page.data.filter((r) => r.createdAtMs >= indexedSince)
    if (faults.has('filters.empty-result-404') && q.filters.length > 0 && page.data.length === 0) throw notFound(spec.name)
    const body: Json = { data: page.data.map((r) => present(spec, r.record)) }
    if (page.nextCursor !== undefined) body.nextCursor = page.nextCursor
    return c.json(body)
  }

  const get = (spec: ResourceSpec) => (c: Ctx) => {
    const key = allow(c, spec, 'get')
    // The fault: the ORM's null for a missing row is sent as is.
    if (faults.has('read-only.unknown-id-200-null') && !store.get(key.workspace, spec.name, parseId(spec, c.req.param('id') ?? ''))) return c.json(null)
    return c.json(present(spec, find(c, spec).record))
  }

  /** The `read-only.create-everywhere` fault: a generic create that stores the body's record fields. */
  const createAnything = (spec: ResourceSpec) => async (c: Ctx) => {
    const key = allow(c, spec, 'create')
    const body = await readBody(c)
    const at = clock.stamp()
    const values = Object.fromEntries(Object.entries(body).filter(([f]) => f in spec.record && f !== 'id'))
    const rec = commit(spec, key.workspace, crypto.randomUUID(), at, at, { record: values, hidden: {} })
    return c.json(present(spec, rec.record), variant.createStatus)
  }

  /** The `read-only.update-everywhere` fault: a generic update that answers the record unchanged. */
  const acceptAnyUpdate = (spec: ResourceSpec) => (c: Ctx) => {
    allow(c, spec, 'update')
    return c.json(present(spec, find(c, spec).record))
  }

  const create = (spec: ResourceSpec) => async (c: Ctx) => {
    // The fault: the scope is checked after the record is written.
    const lateScope = faults.has('auth.scope-checked-after-write')
    // The fault: the owner's role is checked by an after-save hook, once the record is written.
    const lateRole = faults.has('auth.owner-role-checked-after-write')
    const key = lateScope ? c.get('key') : allow(c, spec, 'create', !lateRole)
    const body = await readBody(c)
    const model = MODELS[spec.name]

    // §4.1: the same key and body within 24 h replay the first response; keys are per API key.
    const idemKey = keyHonoured(spec.name, faults) ? c.req.header('idempotency-key') || undefined : undefined
    if (idemKey !== undefined && idemKey.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
      throw invalidRequest([{ segments: ['Idempotency-Key'], in: 'header', message: `Idempotency-Key is longer than ${IDEMPOTENCY_KEY_MAX_LENGTH} characters` }])
    }
    const fingerprint = idemKey === undefined ? '' : `${spec.name}\n${canonicalJson(body)}`
    // Faults: replays found by the body alone, whatever the key; replays shared by every API key.
    const replayKey = idemKey !== undefined && faults.has('idempotency.keyed-by-body') ? fingerprint : idemKey
    const replayOwner = faults.has('idempotency.shared-across-keys') ? '' : key.secret
    if (replayKey !== undefined) {
      const first = state.idempotency.lookup(replayOwner, replayKey, clock.now())
      if (first) {
        if (first.fingerprint !== fingerprint && variant.idempotencyMismatch !== 'replay-first') {
          const { status, code } = variant.idempotencyMismatch
          throw new ApiError(status, code, 'This Idempotency-Key was used with a different request body.')
        }
        // The fault: the create runs before the key is looked up; the first response is still sent.
        if (faults.has('idempotency.replay-also-creates')) {
          const w = writeCtx(key, [])
          commit(spec, key.workspace, crypto.randomUUID(), w.at, w.at, model.create!(w, body, null))
        }
        // The fault: the replay is sent as a plain 200, whatever the first status was.
        const status = faults.has('idempotency.replay-status-200') ? 200 : (first.status as ContentfulStatusCode)
        return c.json(replayedBody(first, faults, (id) => { const now = store.get(key.workspace, spec.name, id); return now && present(spec, now.record) }) as Json, status, { ...first.headers, 'Idempotent-Replayed': 'true' })
      }
    }

    const unknownParent = variant.parentLookedUpFirst ? missingParent(spec, key.workspace, body) : undefined
    if (unknownParent) throw notFound(unknownParent)
    checkBody(spec, 'create', body, key.workspace)
    const events: WebhookEvent[] = []
    const w = writeCtx(key, events)
    const number = model.numberPrefix ? `${model.numberPrefix}-${String(store.nextNumber(key.workspace, spec.name)).padStart(6, '0')}` : null
    // The fault: only the required fields (and the tags) reach the record.
    const kept = faults.has('bodies.create-drops-optional-fields') ? Object.fromEntries(Object.entries(body).filter(([f]) => spec.create!.required.includes(f) || f === 'tags')) : body
    const draft = automate(spec, model.create!(w, kept, number), true)
    // The fault: the comment's HTML is escaped rather than sanitised, so its markup shows as text.
    if (faults.has('records.comment-html-escaped') && spec.name === 'comment') draft.record.body = String(body.html).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
    const rec = commit(spec, key.workspace, crypto.randomUUID(), w.at, w.at, draft)
    events.unshift({ type: `${spec.name}.created`, entityType: spec.name, object: present(spec, rec.record), changes: {} })
    model.afterCreate?.(w, rec)
    publish(key, events)

    const location = `${c.req.path.slice(0, c.req.path.length - spec.path.length)}${spec.path}/${rec.id}`
    const responseBody = present(spec, rec.record)
    if (lateScope || lateRole) allow(c, spec, 'create')
    if (replayKey !== undefined) {
      state.idempotency.save(replayOwner, replayKey, { fingerprint, status: variant.createStatus, body: responseBody, headers: { Location: location }, at: clock.now() })
    }
    return c.json(responseBody, variant.createStatus, { Location: location })
  }

  const change = (spec: ResourceSpec, op: 'update' | 'replace') => async (c: Ctx) => {
    const key = allow(c, spec, op)
    const current = find(c, spec)
    const body = await readBody(c)
    checkBody(spec, op, body, key.workspace)
    const model = MODELS[spec.name]
    if (op === 'replace' && !faults.has('state.replace-non-draft')) {
      let refusal = model.refuseReplace?.(current)
      if (faults.has('state.drafts-locked') && model.refuseReplace) refusal ??= 'Only a draft can be replaced.'
      // The fault: the replace is saved first and the draft rule checked after.
      if (refusal && faults.has('state.refused-write-saved')) {
        const w = writeCtx(key, [])
        commit(spec, key.workspace, current.id, current.createdAtMs, w.at, model.replace!(w, current, body))
      }
      if (refusal) throw refuse(refusal)
    }
    const events: WebhookEvent[] = []
    const w = writeCtx(key, events)
    // The faults: an update that clears every nullable field it was not sent; a replace that skips null values.
    let written = body
    if (op === 'update' && faults.has('bodies.update-resets-unsent-fields')) {
      written = { ...Object.fromEntries(Object.entries(spec.update!.fields).filter(([f, t]) => parseFieldType(t).nullable && own(body, f) === undefined).map(([f]) => [f, null])), ...body }
    }
    if (op === 'replace' && faults.has('bodies.replace-skips-nulls')) written = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== null))
    const draft = automate(spec, op === 'update' ? model.update!(w, current, written) : model.replace!(w, current, written), false)
    // Faults: updatedAt left as it was; the change answered but never saved.
    const rec = commit(spec, foundIn.get(current) ?? key.workspace, current.id, current.createdAtMs, faults.has('records.updatedAt-not-bumped') ? current.updatedAtMs : w.at, draft)
    if (faults.has('records.change-not-persisted')) store.put(key.workspace, spec.name, current)
    events.unshift({ type: `${spec.name}.updated`, entityType: spec.name, object: present(spec, rec.record), changes: changesOf(current.record, rec.record) })
    publish(key, events)
    // The fault: the handler answers with the record it loaded, not the one it saved.
    return c.json(present(spec, faults.has('bodies.write-answers-old-record') ? current.record : rec.record))
  }

  const remove = (spec: ResourceSpec) => (c: Ctx) => {
    const key = allow(c, spec, 'delete')
    const current = find(c, spec)
    const model = MODELS[spec.name]
    let refusal = faults.has('state.delete-non-draft') ? undefined : model.refuseDelete?.(current)
    if (faults.has('state.drafts-locked') && model.refuseDelete) refusal ??= 'Only a draft can be deleted.'
    if (refusal) throw refuse(refusal)
    // §1.6: accounts and contacts go to the recycle bin; either way the record is gone from the API.
    // The fault: the recycle bin is a flag that no read looks at.
    const flagOnly = faults.has('side-effects.recycle-bin-still-visible') && spec.deleteMeans === 'recycle-bin'
    // The fault: the delete is acknowledged and never carried out.
    if (!flagOnly && !faults.has('records.deleted-still-readable')) store.remove(foundIn.get(current) ?? key.workspace, spec.name, current.id, spec.deleteMeans === 'recycle-bin' ? 'recycle' : 'delete')
    publish(key, [{ type: `${spec.name}.deleted`, entityType: spec.name, object: present(spec, current.record), changes: {} }])
    if (variant.deleteReply === 'record-200') return c.json(present(spec, current.record), 200)
    if (variant.deleteReply === 'deleted-flag-200') return c.json({ id: current.id, deleted: true }, 200)
    return c.body(null, 204)
  }

  const me = (c: Ctx) => {
    const key = c.get('key')
    const user = store.get(key.workspace, 'user', key.userId)?.record
    const workspace = state.workspaces.get(key.workspace)!
    const actor = { id: key.userId, email: user?.email ?? null, displayName: user?.displayName ?? null, role: key.ownerRole }
    if (variant.meShape === 'flat') {
      return c.json({ workspace: workspace.id, workspaceName: workspace.name, name: key.name, scopes: key.scopes.join(' '), actor })
    }
    if (variant.meShape === 'scope-map') {
      const permissions: Record<string, string[]> = {}
      for (const scope of key.scopes) (permissions[scope.split(':')[0]!] ??= []).push(scope.split(':')[1]!)
      return c.json({ workspace: { id: workspace.id, name: workspace.name }, apiKey: { label: key.name, permissions }, actingUser: actor })
    }
    // The fault: the key is serialised with its name only, so /me shows no scopes.
    const body = { workspace: { id: workspace.id, name: workspace.name }, key: faults.has('discovery.me-without-scopes') ? { name: key.name } : { name: key.name, scopes: [...key.scopes] }, user: actor }
    // The fault: the body is stringified before c.json, which encodes it again: a JSON string, not an object.
    return c.json(faults.has('discovery.me-double-encoded') ? JSON.stringify(body) : body)
  }

  // ---- routes --------------------------------------------------------------------------------------------------

  const api = new Hono<Env>()
  api.get('/me', me)
  for (const spec of RESOURCE_LIST) {
    const item = `${spec.path}/:id`
    if (spec.ops.list) api.get(spec.path, list(spec))
    if (spec.ops.create) api.post(spec.path, create(spec))
    else if (faults.has('read-only.create-everywhere')) api.post(spec.path, createAnything(spec))
    if (spec.ops.get) api.get(item, get(spec))
    if (spec.ops.update) api.on(variant.updateMethod, item, change(spec, 'update'))
    if (spec.ops.replace) api.put(item, change(spec, 'replace'))
    if (spec.ops.delete || faults.has('read-only.delete-everywhere')) api.delete(item, remove(spec))
    // The fault: the read-only collections got a DELETE stub that answers 204 without looking anything up.
    else if (faults.has('read-only.delete-stub-204')) api.delete(item, (c) => c.body(null, 204))
    // The fault: user writes are routed to the generic handlers, whose scope check was left out for users.
    if (spec.name === 'user' && faults.has('read-only.user-writes-unscoped')) {
      api.post(spec.path, (c) => c.json({ id: crypto.randomUUID() }, variant.createStatus))
      api.on(['PATCH', 'PUT'], item, (c) => c.json(present(spec, find(c, spec).record)))
    }
    if (!spec.ops.update && !spec.ops.replace && faults.has('read-only.update-everywhere')) api.on(['PATCH', 'PUT'], item, acceptAnyUpdate(spec))
  }

  const app = new Hono<Env>()

  // The gate: every response, errors included, carries the RateLimit-* headers (§8).
  app.use(async (c, next) => {
    const now = clock.now()
    const remote = c.env?.incoming?.socket?.remoteAddress
    const authorization = c.req.header('authorization')
    // The fault: the token is the header's second word, whatever the scheme.
    const resolved = state.keys.resolve(faults.has('auth.any-scheme') && authorization !== undefined ? authorization.split(' ')[1] : bearerOf(authorization))
    if (!('key' in resolved)) {
      // No valid key: a per-address bucket, so even a 401 carries rate headers and a flood of them is limited.
      const d = state.limiter.take(`ip:${remote ?? 'unknown'}`, HTTP_DEFAULTS.anonymousLimitPerMinute, now)
      const res = errorResponse(c, d.allowed ? unauthorized(resolved.problem, faults, authorization) : rateLimited())
      rateHeaders(res, d)
      return res
    }
    const key = resolved.key
    let d = state.limiter.take(`key:${key.secret}`, key.limitPerMinute, now)
    // The `rate-limits.retry-after-fixed-1s` fault's real wait: a refused key stays refused for a while, so the
    // 1 s it announces is never enough, however late a loaded client comes back.
    if (faults.has('rate-limits.retry-after-fixed-1s')) {
      if (!d.allowed) heldUntil.set(key.secret, now + FIXED_1S_HOLD_MS)
      else if ((heldUntil.get(key.secret) ?? 0) > now) d = { ...d, allowed: false, remaining: 0, retryAfterSeconds: 1 }
    }
    let refused: ApiError | undefined
    // Faults: the limit announced but not enforced; a burst cap no header announces; the allowlist not compared.
    if (!d.allowed && !faults.has('rate-limits.no-429')) refused = rateLimited()
    else if (faults.has('rate-limits.hidden-burst-limit') && burstExceeded(key.secret, now)) refused = rateLimited({ 'Retry-After': '1' })
    else if (!faults.has('auth.ip-allowlist-ignored') && !ipAllowed(key, remote)) refused = new ApiError(403, 'forbidden', "This key's IP allowlist does not include the caller's address.")
    if (refused) {
      const limited = refused.status === 429
      // Faults: a 429 written as text by a middleware default; a 429 with Retry-After only.
      const res = limited && faults.has('rate-limits.429-plain-text') ? c.text('Too Many Requests', 429) : errorResponse(c, refused)
      if (limited && faults.has('rate-limits.429-without-ratelimit-headers')) res.headers.set('Retry-After', String(d.retryAfterSeconds ?? 1))
      else rateHeaders(res, d)
      return res
    }
    c.set('key', key)
    await next()
    rateHeaders(c.res, d)
    // The fault: a response wrapper sets every body's Content-Type to text/plain, JSON included.
    if (faults.has('invariants.json-as-text') && c.res.headers.get('content-type')?.startsWith('application/json')) c.res.headers.set('Content-Type', 'text/plain; charset=UTF-8')
  })
  app.use(
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, methods) =>
        variant.unroutedUpdate === 'not-found-404' && (c.req.method === 'PATCH' || c.req.method === 'PUT')
          ? errorResponse(c, new ApiError(404, 'not_found', 'No such endpoint.'))
          : faults.has('invariants.framework-default-errors')
            ? c.text('405 Method Not Allowed', 405, { Allow: methods.join(', ') })
            : errorResponse(c, new ApiError(405, 'method_not_allowed', `Use ${methods.join(', ')} on this path.`, undefined, { Allow: methods.join(', ') })),
    }),
  )
  for (const base of BASE_PATHS) app.route(base, api)

  // The fault: the framework's defaults answer unknown paths and wrong methods, as plain text.
  app.notFound((c) => (faults.has('invariants.framework-default-errors') ? c.text('404 Not Found', 404) : errorResponse(c, new ApiError(404, 'not_found', 'No such endpoint.'))))
  app.onError((err, c) => {
    if (err instanceof ApiError) return errorResponse(c, err)
    if (err instanceof HTTPException && err.status < 500) {
      return errorResponse(c, new ApiError(err.status, err.status === 413 ? 'payload_too_large' : 'invalid_request', err.message || 'Bad request.'))
    }
    // A bug of ours: say so, never blame the caller. Under an injected fault the 500 is the fault's, on purpose.
    if (faults.size === 0) console.error('[reference] internal error:', err)
    return errorResponse(c, new ApiError(500, 'internal_error', 'Internal error.'))
  })
  return app
}

/** Nesting depth of a parsed JSON value, without recursion. */
function depthOf(value: unknown): number {
  let max = 0
  const stack: [unknown, number][] = [[value, 1]]
  while (stack.length > 0) {
    const [v, d] = stack.pop()!
    if (v === null || typeof v !== 'object') continue
    if (d > max) max = d
    if (max > HTTP_DEFAULTS.maxBodyDepth) return max
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === 'object') stack.push([child, d + 1])
  }
  return max
}

function rateLimited(headers?: Record<string, string>): ApiError {
  return new ApiError(429, 'rate_limited', "This key's per-minute request limit is reached; retry after Retry-After seconds.", undefined, headers)
}

/** The `validation.types-coerced` fault: numbers become strings, numeric strings integers, fractions are cut. */
function coerceTypes(fields: Record<string, Parameters<typeof parseFieldType>[0]>, body: Json): void {
  for (const [field, type] of Object.entries(fields)) {
    const value = body[field]
    const base = parseFieldType(type).base
    if ((base === 'string' || base === 'email') && typeof value === 'number') body[field] = String(value)
    if (base === 'integer' && typeof value === 'string' && /^-?\d+$/.test(value)) body[field] = Number(value)
    if (base === 'integer' && typeof value === 'number') body[field] = Math.trunc(value)
  }
}
