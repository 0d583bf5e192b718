// Finding, with the main key, a record that a refused call should not have created.
import { readUntil, createRecord, trackCreated, RESOURCES } from '../../src/checks/index.ts'
import type { CheckContext, ApiResponse, ResourceName } from '../../src/checks/index.ts'
import { validCreateBody, type ValidBody } from './bodies.ts'

export interface Sighting {
  /** Ids of the records the body's lookup and label match; undefined when the list could not be read. */
  ids?: string[]
  response: ApiResponse
}

/** The records matching a body, newest first, as the main key lists them. */
export async function sight(ctx: CheckContext, resource: ResourceName, valid: ValidBody): Promise<Sighting> {
  const response = await ctx.api.get(RESOURCES[resource].path, valid.lookup)
  if (!response.ok || !Array.isArray(response.body?.data)) return { response }
  const label = valid.label
  const ids = (response.body.data as Record<string, unknown>[]).filter((r) => label === undefined || JSON.stringify(r).includes(label)).map((r) => String(r.id))
  return { ids, response }
}

/**
 * Takes a sighting before a call whose body has no label (an order names only its quotation), so that a
 * record created by the call can be told from those that were there already.
 */
export async function baseline(ctx: CheckContext, resource: ResourceName, valid: ValidBody): Promise<Set<string> | undefined> {
  if (valid.label !== undefined) return undefined
  const before = await sight(ctx, resource, valid)
  return new Set(before.ids ?? [])
}

/**
 * Ids created since the baseline (or matching the label); each is tracked for clean-up. A record another call of
 * this run created is not one of them: without a label the baseline cannot tell them apart (the run's one order
 * of the accepted quotation, created by another check meanwhile, or shortly before and shown late by a lagging
 * list), so creates on their way are awaited and the run's own records left out.
 */
export async function createdDespite(
  ctx: CheckContext,
  resource: ResourceName,
  valid: ValidBody,
  before: Set<string> | undefined,
): Promise<Sighting & { created: string[] }> {
  const after = await sight(ctx, resource, valid)
  await ctx.others(ctx.session.ledger.settled())
  const created = (after.ids ?? []).filter((id) => !before?.has(id) && !ctx.session.ledger.created(id))
  for (const id of created) trackCreated(ctx, resource, id)
  return { ...after, created }
}

/**
 * Creates whose control record would use up a fixture (an accepted quotation, an invoice's balance) or go out
 * (§1.6): a task stands in for them, a write of the same moment in another collection of the same server.
 */
const NO_CONTROL: ReadonlySet<ResourceName> = new Set(['order', 'payment', 'message'])
const STAND_IN: ResourceName = 'task'

/**
 * A positive control for "nothing was created": a record the main key creates after the refused call, waited for
 * until its list shows it. A list fed by an index shows writes late, so without it a record created despite the
 * refusal could be missing from the list only because the list has not caught up. False when no control can be
 * made or it never shows (the absence is then judged on a list that may lag).
 */
export async function listCaughtUp(ctx: CheckContext, refused: ResourceName): Promise<boolean> {
  const resource = NO_CONTROL.has(refused) ? STAND_IN : refused
  let valid: ValidBody
  let record: Record<string, unknown>
  try {
    valid = await validCreateBody(ctx, resource, `auth scope control ${resource}`)
    record = (await createRecord(ctx, resource, valid.body, { validate: false })).record
  } catch {
    return false // the records area judges creates
  }
  const shown = await readUntil(
    ctx,
    () => sight(ctx, resource, valid),
    (s) => s.ids === undefined || s.ids.includes(String(record.id)),
  )
  return shown.shown && shown.answer.ids !== undefined
}
