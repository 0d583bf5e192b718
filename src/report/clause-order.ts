// Orders spec clauses the way the spec reads: §1 … §9, numeric-aware (§4.1 < §4.2 < §4.10).
import type { CheckResult, Level } from '../checks/types.ts'

const LEVEL_RANK: Record<Level, number> = { MUST: 0, SHOULD: 1, INFO: 2 }

function clauseParts(clause: string): number[] | undefined {
  const match = /^\s*§?\s*(\d+(?:\.\d+)*)\s*$/.exec(clause)
  return match ? match[1].split('.').map(Number) : undefined
}

/** Numeric-aware clause comparison; anything that is not `§N(.N)*` sorts after, alphabetically. */
export function compareClauses(a: string, b: string): number {
  const pa = clauseParts(a)
  const pb = clauseParts(b)
  if (pa && pb) {
    for (let i = 0; i < Math.min(pa.length, pb.length); i++) if (pa[i] !== pb[i]) return pa[i] - pb[i]
    return pa.length - pb.length
  }
  if (pa) return -1
  if (pb) return 1
  return a < b ? -1 : a > b ? 1 : 0
}

export function compareLevels(a: Level, b: Level): number {
  return (LEVEL_RANK[a] ?? 9) - (LEVEL_RANK[b] ?? 9)
}

/** Level (MUST first), then clause, then id: the order failures are listed in. */
export function compareByLevelClauseId(a: CheckResult, b: CheckResult): number {
  return compareLevels(a.level, b.level) || compareClauses(a.clause, b.clause) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
}
