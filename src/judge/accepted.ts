// Requests the spec accepts beyond doubt: nothing in them §7.3 ("invalid or missing fields") could name. A 400
// to one is a refusal no clause allows. Only what the spec shows is judged: a string filter over keys the
// workspace defines (status, tier) may be refused when the key is unknown, and an E.164 or email form may be
// validated, so a query with one is never called accepted; neither is a cursor (whether it still holds is the
// caller's to know).
import { LIST_PARAMETERS, type ResourceSpec } from '../spec/resources.ts'

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** RFC 3339 date-time with a zone: the form of §2 `date-time` nobody reads two ways. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/

/** True when a §4.1 common parameter's value is one the spec accepts beyond doubt. */
function commonAccepted(param: string, value: string): boolean {
  switch (param) {
    case 'limit':
      return /^[1-9]\d{0,2}$/.test(value) && Number(value) <= LIST_PARAMETERS.limit.max
    case 'sort':
      return (LIST_PARAMETERS.sort.values as readonly string[]).includes(value)
    case 'order':
      return (LIST_PARAMETERS.order.values as readonly string[]).includes(value)
    case 'createdSince':
    case 'updatedSince':
      return RFC3339.test(value) && !Number.isNaN(Date.parse(value))
    default:
      return false
  }
}

/**
 * True when every parameter of a list query (the cursor aside) is one §4.1 or §4.3 lists, once, with a value the
 * spec accepts: limit 1–100, a listed sort and order, an RFC 3339 since bound, a uuid for a uuid filter, a listed
 * value for an enumerated filter (§3.3). `names` are the parameter names as sent, repeats included.
 */
export function acceptedListQuery(resource: ResourceSpec, query: Record<string, string>, names: readonly string[]): boolean {
  if (new Set(names).size !== names.length) return false
  for (const [param, value] of Object.entries(query)) {
    if (param === 'cursor') continue
    if (param in LIST_PARAMETERS) {
      if (!commonAccepted(param, value)) return false
      continue
    }
    const filter = resource.filters.find((f) => f.param === param)
    if (!filter) return false
    if (filter.kind === 'uuid' && !UUID.test(value)) return false
    if (filter.kind === 'enum' && !(filter.values ?? []).includes(value)) return false
    if (filter.kind === 'string') return false
  }
  return true
}
