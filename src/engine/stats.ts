// Requests per suite area, for the run summary and report.json.
import type { Exchange } from '../http/exchange.ts'

/** Requests per suite area, from the check id that sent each exchange (`cleanup` when none did). */
export function requestsByArea(exchanges: Exchange[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const exchange of exchanges) {
    const area = exchange.checkId?.split('.')[0] ?? 'harness'
    counts[area] = (counts[area] ?? 0) + 1
  }
  return counts
}
