// Values to filter by, taken from records that already exist: one list page per collection and run, shared by
// every filter of that collection. Works in every profile, on collections the API cannot write (§4.2).
import { recordsNotInUse, RESOURCES, comparable, queryValueFor, revealsCase } from '../../src/checks/index.ts'
import type { CheckContext, AnyRecord, FilterSpec, ResourceName } from '../../src/checks/index.ts'
import { PAGE } from './queries.ts'

export interface Sample {
  record: AnyRecord
  /** The value to query, in the filter's form. */
  value: string
}

/** The newest records of a collection (one GET per run); skips the check when the list cannot be read. */
export async function sampleRecords(ctx: CheckContext, resource: ResourceName): Promise<AnyRecord[]> {
  const path = RESOURCES[resource].path
  const res = await ctx.session.memo(`filters.sample:${resource}`, () => ctx.api.get(path, { limit: PAGE }))
  if (res.status !== 200 || !Array.isArray(res.body?.data)) ctx.skip(`GET ${path} answered ${res.status} without a data array; no record to take a value from`)
  return res.body.data as AnyRecord[]
}

/**
 * A record holding a value the filter can name, and that value. Records a run of the suite created are left out
 * (the check that made them may change or delete them). Preferred: a value whose stored case differs from the queried form (it shows
 * a case-sensitive comparison), then the rarest value (it shows a filter that is ignored), then the newest.
 */
export async function sampleFor(ctx: CheckContext, resource: ResourceName, filter: FilterSpec): Promise<Sample | undefined> {
  const records = await recordsNotInUse(ctx, await sampleRecords(ctx, resource))
  const candidates: (Sample & { reveals: boolean })[] = []
  for (const record of records) {
    const value = queryValueFor(filter, record[filter.field])
    if (value !== undefined) candidates.push({ record, value, reveals: revealsCase(filter, String(record[filter.field])) })
  }
  if (candidates.length === 0) return undefined
  const count = new Map<string, number>()
  for (const c of candidates) count.set(comparable(filter, c.value), (count.get(comparable(filter, c.value)) ?? 0) + 1)
  let best = candidates[0]!
  for (const c of candidates) {
    const better = c.reveals !== best.reveals ? c.reveals : count.get(comparable(filter, c.value))! < count.get(comparable(filter, best.value))!
    if (better) best = c
  }
  return { record: best.record, value: best.value }
}
