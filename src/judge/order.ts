// Orders of a page by a timestamp, ties allowed (§4.1 sort and order; two records may share a timestamp).
type AnyRecord = Record<string, any>

export type SortKey = 'createdAt' | 'updatedAt'
export type Order = 'asc' | 'desc'

/** The first pair of neighbours out of order, or undefined when the page is in order. */
export function firstMisordered(records: AnyRecord[], key: SortKey, order: Order): { index: number; earlier: AnyRecord; later: AnyRecord } | undefined {
  for (let i = 1; i < records.length; i++) {
    const a = Date.parse(records[i - 1]![key])
    const b = Date.parse(records[i]![key])
    if (Number.isNaN(a) || Number.isNaN(b)) continue
    if (order === 'asc' ? b < a : b > a) return { index: i, earlier: records[i - 1]!, later: records[i]! }
  }
  return undefined
}

/** How many different instants the page holds: with fewer than two, no order can be seen. */
export function distinctInstants(records: AnyRecord[], key: SortKey): number {
  return new Set(records.map((r) => Date.parse(r[key])).filter((t) => !Number.isNaN(t))).size
}
