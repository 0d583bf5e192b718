// §4.3 a uuid filter names one field: "cases of that account" is the case's accountId, not its contactId or any
// other id it holds. The run's own record of a collection (made.ts) is queried by each uuid filter with the value
// of ANOTHER id field of that same record: it must not come back. A positive control first (the record listed by
// its own value) shows the list has caught up before the absence is judged (src/checks/eventually.ts).
import { readUntil, RESOURCES } from '../../src/checks/index.ts'
import type { CheckContext, AnyRecord, ApiResponse, FilterSpec, ResourceName } from '../../src/checks/index.ts'
import { MAKERS } from './made.ts'
import { describeQuery, expectSound, filterQuery } from './queries.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The uuid filters a run's own record of the collection can be queried by. */
export function crossableFilters(resource: ResourceName): FilterSpec[] {
  const maker = MAKERS[resource]
  if (!maker) return []
  return RESOURCES[resource].filters.filter((f) => f.kind === 'uuid' && !maker.unreachable?.includes(f.param))
}

/**
 * Another id the record holds, for a query by `filter`: the field of another filter of the collection first (the
 * likeliest mix-up), then any other uuid field, the record's own id last. Undefined when the record holds none.
 */
export function otherId(resource: ResourceName, record: AnyRecord, filter: FilterSpec): { field: string; value: string } | undefined {
  const own = String(record[filter.field] ?? '').toLowerCase()
  const usable = (field: string) => {
    const v = record[field]
    return typeof v === 'string' && UUID.test(v) && v.toLowerCase() !== own && field !== filter.field ? { field, value: v } : undefined
  }
  const filtered = RESOURCES[resource].filters.filter((f) => f.kind === 'uuid').map((f) => f.field)
  const others = Object.keys(record).filter((k) => k !== 'id' && !filtered.includes(k))
  for (const field of [...filtered, ...others, 'id']) {
    const found = usable(field)
    if (found) return found
  }
  return undefined
}

const listsRecord = (id: string) => (res: ApiResponse) =>
  res.status === 200 && Array.isArray(res.body?.data) && res.body.data.some((r: AnyRecord) => String(r?.id).toLowerCase() === id)

/** Runs the crossings of one collection; returns how many were judged (answered with records or refused). */
export async function probeOtherFields(ctx: CheckContext, resource: ResourceName, mayRefuse: (f: FilterSpec, status: number) => boolean): Promise<number> {
  const maker = MAKERS[resource]!
  const crossings: { filter: FilterSpec; record: AnyRecord; other: { field: string; value: string } }[] = []
  for (const filter of crossableFilters(resource)) {
    const record = await maker.make(ctx, filter)
    if (typeof record[filter.field] !== 'string') {
      ctx.note(`the run's ${resource} has no ${filter.field}: ${filter.param} not crossed`)
      continue
    }
    const other = otherId(resource, record, filter)
    if (other) crossings.push({ filter, record, other })
  }
  if (crossings.length === 0) return 0
  // One positive control per record: listed by its own value of the first filter that crosses it.
  const controlled = new Set<string>()
  let judged = 0
  for (const { filter, record, other } of crossings) {
    const id = String(record.id).toLowerCase()
    if (!controlled.has(id)) {
      const own = String(record[filter.field])
      const { shown } = await readUntil(ctx, () => filterQuery(ctx, resource, filter, own, false), listsRecord(id))
      if (!shown) {
        ctx.note(`${describeQuery(resource, filter, own)} does not list the run's ${resource} ${record.id} within the window: its crossings are not judged`)
        continue
      }
      controlled.add(id)
    }
    const res = await filterQuery(ctx, resource, filter, other.value, false)
    ctx.observe(`${filter.param}=<${other.field}>`, res.status)
    // A refusal of an id no record of the filter's kind holds is judged too: the value was read as that kind's id.
    judged++
    if (mayRefuse(filter, res.status)) continue
    expectSound(ctx, res, resource, filter, other.value, `: the run's ${resource} ${record.id} holds ${other.value} in ${other.field}, not in ${filter.field}`)
  }
  return judged
}
