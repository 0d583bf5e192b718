// Writes: create (with §4.1 idempotency), update and replace (with the §3 state rules), delete (§1.6 recycle
// bin), each stamped, stored, answered in the variant's shape and published as §6 events.

import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { parseFieldType, type ResourceSpec } from '../../spec/resources.ts'
import { ApiError, invalidRequest, notFound } from '../api-error.ts'
import type { ApiKey } from '../auth.ts'
import { isoOf } from '../clock.ts'
import type { FaultId, SwitchesOf } from '../faults.ts'
import { IDEMPOTENCY_KEY_MAX_LENGTH, canonicalJson, keyHonoured, replayedBody } from '../idempotency.ts'
import { own, shape, type Draft, type WriteCtx } from '../model-kit.ts'
import { MODELS, changesOf } from '../models.ts'
import type { Json, StoredRecord } from '../store.ts'
import type { WebhookEvent } from '../webhooks.ts'
import type { AppState, Ctx } from './context.ts'
import type { RequestReader } from './request.ts'
import type { Responses } from './responses.ts'

/** The faults this module plays (faults.ts): the only switches its code can read. */
export const WRITE_FAULTS = [
  'records.write-only-echoed',
  'auth.scope-checked-after-write',
  'auth.owner-role-checked-after-write',
  'idempotency.keyed-by-body',
  'idempotency.shared-across-keys',
  'idempotency.replay-also-creates',
  'idempotency.replay-status-200',
  'bodies.create-drops-optional-fields',
  'records.comment-html-escaped',
  'state.replace-non-draft',
  'state.drafts-locked',
  'state.refused-write-saved',
  'bodies.update-resets-unsent-fields',
  'bodies.update-applies-create-defaults',
  'bodies.replace-skips-nulls',
  'records.updatedAt-not-bumped',
  'records.change-not-persisted',
  'bodies.write-answers-old-record',
  'state.delete-non-draft',
  'side-effects.recycle-bin-still-visible',
  'records.deleted-still-readable',
  'records.put-upserts',
  'records.delete-unknown-204',
  'records.update-unknown-200',
  'idempotency.mismatch-overwrites-first',
  'state.replace-refused-only-when-sent',
  'state.delete-refused-only-when-sent',
  'validation.create-saved-before-validation',
  'validation.change-saved-before-validation',
  'records.empty-text-as-null',
  'bodies.replace-merges-partial',
] as const satisfies readonly FaultId[]

/** What the create path of a case, lead and deal fills in when the body leaves it out (models.ts): the fault runs it again on update. */
const CREATE_DEFAULTS: Readonly<Record<string, Json>> = { case: { description: '' }, lead: { source: 'api' }, opportunity: { amountSen: 0 } }

export function writeRoutes(state: AppState, { allow, find, foundIn, readBody, checkBody, missingParent }: RequestReader, { present }: Responses) {
  const { store, clock, variant } = state
  const faults: SwitchesOf<typeof WRITE_FAULTS> = state.faults
  // The fault: the body binder turns every blank string into null once the body is validated (ASP.NET's
  // ConvertEmptyStringToNull, a nilify-blanks hook), so text written "" is stored null even where §2 says string.
  const blanksAsNull = (body: Json): Json =>
    faults['records.empty-text-as-null'] ? Object.fromEntries(Object.entries(body).map(([f, v]) => [f, v === '' ? null : v])) : body

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
      faults: state.faults,
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
    const shown = faults['records.write-only-echoed']
      ? { ...shape(spec, values), ...Object.fromEntries(Object.entries(draft.hidden).filter(([f]) => f in spec.writeOnly)) }
      : shape(spec, values)
    const rec: StoredRecord = { id, createdAtMs, updatedAtMs: at, record: shown, hidden: draft.hidden }
    store.put(workspace, spec.name, rec)
    return rec
  }

  const create = (spec: ResourceSpec) => async (c: Ctx) => {
    // The fault: the scope is checked after the record is written.
    const lateScope = faults['auth.scope-checked-after-write']
    // The fault: the owner's role is checked by an after-save hook, once the record is written.
    const lateRole = faults['auth.owner-role-checked-after-write']
    const key = lateScope ? c.get('key') : allow(c, spec, 'create', !lateRole)
    const body = await readBody(c)
    const model = MODELS[spec.name]

    // §4.1: the same key and body within 24 h replay the first response; keys are per API key.
    const idemKey = keyHonoured(spec.name, state.faults) ? c.req.header('idempotency-key') || undefined : undefined
    if (idemKey !== undefined && idemKey.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
      throw invalidRequest([
        { segments: ['Idempotency-Key'], in: 'header', message: `Idempotency-Key is longer than ${IDEMPOTENCY_KEY_MAX_LENGTH} characters` },
      ])
    }
    const fingerprint = idemKey === undefined ? '' : `${spec.name}\n${canonicalJson(body)}`
    // Faults: replays found by the body alone, whatever the key; replays shared by every API key.
    const replayKey = idemKey !== undefined && faults['idempotency.keyed-by-body'] ? fingerprint : idemKey
    const replayOwner = faults['idempotency.shared-across-keys'] ? '' : key.secret
    if (replayKey !== undefined) {
      const stored = state.idempotency.lookup(replayOwner, replayKey, clock.now())
      // The fault: a body that differs from the stored one is taken for a new request, whose response then
      // replaces the stored one, so a retry of the first request no longer gets the first response.
      const first = stored && faults['idempotency.mismatch-overwrites-first'] && stored.fingerprint !== fingerprint ? undefined : stored
      if (first) {
        if (first.fingerprint !== fingerprint && variant.idempotencyMismatch !== 'replay-first') {
          const { status, code } = variant.idempotencyMismatch
          throw new ApiError(status, code, 'This Idempotency-Key was used with a different request body.')
        }
        // The fault: the create runs before the key is looked up; the first response is still sent.
        if (faults['idempotency.replay-also-creates']) {
          const w = writeCtx(key, [])
          commit(spec, key.workspace, crypto.randomUUID(), w.at, w.at, model.create!(w, body, null))
        }
        // The fault: the replay is sent as a plain 200, whatever the first status was.
        const status = faults['idempotency.replay-status-200'] ? 200 : (first.status as ContentfulStatusCode)
        const current = (id: string) => {
          const now = store.get(key.workspace, spec.name, id)
          return now && present(spec, now.record)
        }
        return c.json(replayedBody(first, state.faults, current) as Json, status, { ...first.headers, 'Idempotent-Replayed': 'true' })
      }
    }

    const unknownParent = variant.parentLookedUpFirst ? missingParent(spec, key.workspace, body) : undefined
    if (unknownParent) throw notFound(unknownParent)
    try {
      checkBody(spec, 'create', body, key.workspace)
    } catch (error) {
      // The fault: the record is inserted before the body is validated, and the 400 does not roll it back.
      if (faults['validation.create-saved-before-validation'] && error instanceof ApiError) {
        try {
          const w = writeCtx(key, [])
          commit(spec, key.workspace, crypto.randomUUID(), w.at, w.at, automate(spec, model.create!(w, body, null), true))
        } catch {
          // A body the model cannot store either is only refused.
        }
      }
      throw error
    }
    const events: WebhookEvent[] = []
    const w = writeCtx(key, events)
    const number = model.numberPrefix ? `${model.numberPrefix}-${String(store.nextNumber(key.workspace, spec.name)).padStart(6, '0')}` : null
    // The fault: only the required fields (and the tags) reach the record.
    const kept = faults['bodies.create-drops-optional-fields']
      ? Object.fromEntries(Object.entries(body).filter(([f]) => spec.create!.required.includes(f) || f === 'tags'))
      : blanksAsNull(body)
    const draft = automate(spec, model.create!(w, kept, number), true)
    // The fault: the comment's HTML is escaped rather than sanitised, so its markup shows as text.
    if (faults['records.comment-html-escaped'] && spec.name === 'comment')
      draft.record.body = String(body.html).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
    const rec = commit(spec, key.workspace, crypto.randomUUID(), w.at, w.at, draft)
    events.unshift({ type: `${spec.name}.created`, entityType: spec.name, object: present(spec, rec.record), changes: {} })
    model.afterCreate?.(w, rec)
    publish(key, events)

    const location = `${c.req.path.slice(0, c.req.path.length - spec.path.length)}${spec.path}/${rec.id}`
    const responseBody = present(spec, rec.record)
    if (lateScope || lateRole) allow(c, spec, 'create')
    if (replayKey !== undefined) {
      state.idempotency.save(replayOwner, replayKey, {
        fingerprint,
        status: variant.createStatus,
        body: responseBody,
        headers: { Location: location },
        at: clock.now(),
      })
    }
    return c.json(responseBody, variant.createStatus, { Location: location })
  }

  /** The `records.put-upserts` fault: a PUT to an id that names nothing creates the record under that id. */
  const upsert = async (c: Ctx, spec: ResourceSpec, key: ApiKey) => {
    const body = await readBody(c)
    checkBody(spec, 'create', body, key.workspace)
    const w = writeCtx(key, [])
    const rec = commit(spec, key.workspace, (c.req.param('id') ?? '').toLowerCase(), w.at, w.at, automate(spec, MODELS[spec.name].create!(w, body, null), true))
    return c.json(present(spec, rec.record), variant.createStatus)
  }

  const missing = (c: Ctx, spec: ResourceSpec): boolean => {
    try {
      find(c, spec)
      return false
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return true
      throw error
    }
  }

  const change = (spec: ResourceSpec, op: 'update' | 'replace') => async (c: Ctx) => {
    const key = allow(c, spec, op)
    if (faults['records.put-upserts'] && c.req.method === 'PUT' && spec.create && missing(c, spec)) return upsert(c, spec, key)
    // The fault: the update is an `UPDATE … WHERE id = ?` whose row count is never read; it answers what was sent.
    if (faults['records.update-unknown-200'] && op === 'update' && missing(c, spec)) return c.json({ ...(await readBody(c)), id: c.req.param('id') ?? '' })
    const current = find(c, spec)
    const body = await readBody(c)
    const model = MODELS[spec.name]
    try {
      // The fault: a replace checked against the create's required fields only (then merged over the record as it is).
      checkBody(spec, op === 'replace' && faults['bodies.replace-merges-partial'] ? 'create' : op, body, key.workspace)
    } catch (error) {
      // The fault: the change is saved before the body is validated, and the 400 does not roll it back.
      if (faults['validation.change-saved-before-validation'] && error instanceof ApiError) {
        try {
          const w = writeCtx(key, [])
          commit(spec, key.workspace, current.id, current.createdAtMs, w.at, (op === 'update' ? model.update! : model.replace!)(w, current, body))
        } catch {
          // A body the model cannot store either is only refused.
        }
      }
      throw error
    }
    if (op === 'replace' && !faults['state.replace-non-draft']) {
      let refusal = model.refuseReplace?.(current)
      // The fault: the draft rule is written as status === 'sent', so other non-draft states pass.
      if (faults['state.replace-refused-only-when-sent'] && current.record.status !== 'sent') refusal = undefined
      if (faults['state.drafts-locked'] && model.refuseReplace) refusal ??= 'Only a draft can be replaced.'
      // The fault: the replace is saved first and the draft rule checked after.
      if (refusal && faults['state.refused-write-saved']) {
        const w = writeCtx(key, [])
        commit(spec, key.workspace, current.id, current.createdAtMs, w.at, model.replace!(w, current, body))
      }
      if (refusal) throw refuse(refusal)
    }
    const events: WebhookEvent[] = []
    const w = writeCtx(key, events)
    // The faults: an update that clears every nullable field it was not sent; a replace that skips null values.
    let written = blanksAsNull(body)
    if (op === 'update' && faults['bodies.update-resets-unsent-fields']) {
      written = {
        ...Object.fromEntries(
          Object.entries(spec.update!.fields)
            .filter(([f, t]) => parseFieldType(t).nullable && own(body, f) === undefined)
            .map(([f]) => [f, null]),
        ),
        ...body,
      }
    }
    if (op === 'replace' && faults['bodies.replace-skips-nulls']) written = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== null))
    const draft = automate(spec, op === 'update' ? model.update!(w, current, written) : model.replace!(w, current, written), false)
    // The fault: the create defaults run again over what an update of a case, lead or deal does not name.
    if (op === 'update' && faults['bodies.update-applies-create-defaults'])
      for (const [f, v] of Object.entries(CREATE_DEFAULTS[spec.name] ?? {})) if (own(body, f) === undefined) draft.record[f] = v
    // Faults: updatedAt left as it was; the change answered but never saved.
    const rec = commit(
      spec,
      foundIn(current) ?? key.workspace,
      current.id,
      current.createdAtMs,
      faults['records.updatedAt-not-bumped'] ? current.updatedAtMs : w.at,
      draft,
    )
    if (faults['records.change-not-persisted']) store.put(key.workspace, spec.name, current)
    events.unshift({ type: `${spec.name}.updated`, entityType: spec.name, object: present(spec, rec.record), changes: changesOf(current.record, rec.record) })
    publish(key, events)
    // The fault: the handler answers with the record it loaded, not the one it saved.
    return c.json(present(spec, faults['bodies.write-answers-old-record'] ? current.record : rec.record))
  }

  const remove = (spec: ResourceSpec) => (c: Ctx) => {
    const key = allow(c, spec, 'delete')
    // The fault: the delete is a `DELETE … WHERE id = ?` whose row count nobody reads, so an unknown id answers 204 too.
    if (faults['records.delete-unknown-204'] && missing(c, spec)) return c.body(null, 204)
    const current = find(c, spec)
    const model = MODELS[spec.name]
    let refusal = faults['state.delete-non-draft'] ? undefined : model.refuseDelete?.(current)
    // The fault: the draft rule is written as status === 'sent', so other non-draft states pass.
    if (faults['state.delete-refused-only-when-sent'] && current.record.status !== 'sent') refusal = undefined
    if (faults['state.drafts-locked'] && model.refuseDelete) refusal ??= 'Only a draft can be deleted.'
    if (refusal) throw refuse(refusal)
    // §1.6: accounts and contacts go to the recycle bin; either way the record is gone from the API.
    // The fault: the recycle bin is a flag that no read looks at.
    const flagOnly = faults['side-effects.recycle-bin-still-visible'] && spec.deleteMeans === 'recycle-bin'
    // The fault: the delete is acknowledged and never carried out.
    if (!flagOnly && !faults['records.deleted-still-readable'])
      store.remove(foundIn(current) ?? key.workspace, spec.name, current.id, spec.deleteMeans === 'recycle-bin' ? 'recycle' : 'delete')
    publish(key, [{ type: `${spec.name}.deleted`, entityType: spec.name, object: present(spec, current.record), changes: {} }])
    if (variant.deleteReply === 'record-200') return c.json(present(spec, current.record), 200)
    if (variant.deleteReply === 'deleted-flag-200') return c.json({ id: current.id, deleted: true }, 200)
    return c.body(null, 204)
  }

  return { create, change, remove, commit }
}
