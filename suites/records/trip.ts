// One round trip per resource, made once per run and shared by the checks that judge it: create → get → find
// in the list → update or replace → get → delete → get. Every step's response is kept; a step that goes wrong
// is recorded, not thrown, so that each check judges exactly its own part. Only a refused create ends the trip.
import { createRecord, deleteRecord, itemPath, replaceRecord, tagged, updateRecord, readUntil, RESOURCES } from '../../src/checks/index.ts'
import type { CheckContext, ApiResponse, AnyRecord } from '../../src/checks/index.ts'
import { createBody, type ChangePlan, type RoundTripPlan } from './plans.ts'

/** Listing a just-created record: bounded pages, looked at again within the consistency window (eventually.ts). */
const LIST = { limit: 100, maxPages: 3 }

export interface Listed {
  /** The record as the list shows it, when found. */
  record?: AnyRecord
  pages: ApiResponse[]
  /** Set when a page could not be read (not 200 with a data array). */
  broken?: ApiResponse
}

export interface Trip {
  sent: AnyRecord
  created: ApiResponse
  record: AnyRecord
  got: ApiResponse
  listed: Listed
  change?: { op: ChangePlan['op']; sent: AnyRecord; response: ApiResponse; got?: ApiResponse }
  deleted?: { response: ApiResponse; got?: ApiResponse }
}

export function tripOf(ctx: CheckContext, plan: RoundTripPlan): Promise<Trip> {
  return ctx.session.memo(`records:trip:${plan.resource}`, () => makeTrip(ctx, plan))
}

async function makeTrip(ctx: CheckContext, plan: RoundTripPlan): Promise<Trip> {
  const spec = RESOURCES[plan.resource]
  const body = await createBody(ctx, plan)
  // The schema is judged by records.<r>.schema, not here, so that one broken field does not fail every check.
  const { record, response: created } = await createRecord(ctx, plan.resource, body, { validate: false })
  const sent = tagged(ctx, plan.resource, body)
  const got = await ctx.api.get(itemPath(plan.resource, record.id))
  const listed = await findListed(ctx, plan, record, created)
  const trip: Trip = { sent, created, record, got, listed }

  if (plan.change) {
    const changeBody = plan.change.body(ctx, got.ok ? got.body : record, sent)
    const response =
      plan.change.op === 'update'
        ? await updateRecord(ctx, plan.resource, record.id, changeBody)
        : await replaceRecord(ctx, plan.resource, record.id, changeBody)
    trip.change = { op: plan.change.op, sent: changeBody, response }
    if (response.ok) trip.change.got = await ctx.api.get(itemPath(plan.resource, record.id))
  }
  if (spec.ops.delete) {
    const response = await deleteRecord(ctx, plan.resource, record.id)
    trip.deleted = { response }
    if (response.ok) trip.deleted.got = await ctx.api.get(itemPath(plan.resource, record.id))
  }
  return trip
}

/**
 * Records created after a moment shortly before this one: its createdAt, else the server's Date header less the
 * whole exchange (a slow server stamps Date when it answers, seconds after it stored the record).
 */
function createdSince(record: AnyRecord, created: ApiResponse): string | undefined {
  const shown = typeof record.createdAt === 'string' ? Date.parse(record.createdAt) : Number.NaN
  const at = Number.isNaN(shown) ? Date.parse(created.header('date') ?? '') - created.exchange.durationMs : shown
  return Number.isNaN(at) ? undefined : new Date(at - 2_000).toISOString()
}

async function findListed(ctx: CheckContext, plan: RoundTripPlan, record: AnyRecord, created: ApiResponse): Promise<Listed> {
  const path = RESOURCES[plan.resource].path
  const since = createdSince(record, created)
  const pages: ApiResponse[] = []
  const id = String(record.id).toLowerCase()
  const walk = async (): Promise<Listed> => {
    let cursor: string | undefined
    for (let page = 0; page < LIST.maxPages; page++) {
      const res = await ctx.api.get(path, { limit: LIST.limit, createdSince: since, cursor })
      pages.push(res)
      if (res.status !== 200 || !Array.isArray(res.body?.data)) return { pages, broken: res }
      const found = (res.body.data as AnyRecord[]).find((r) => typeof r?.id === 'string' && r.id.toLowerCase() === id)
      if (found) return { record: found, pages }
      const next = res.body.nextCursor
      if (typeof next !== 'string' || next === '' || res.body.data.length === 0) break
      cursor = next
    }
    return { pages }
  }
  return (await readUntil(ctx, walk, (l) => l.record !== undefined || l.broken !== undefined)).answer
}
