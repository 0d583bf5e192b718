// The requirement matrix resolved against a set of check ids: the catalogue (`crm-conformance coverage`) or the
// checks a run brought to a verdict (report.json's `coverage` block). A cell is covered when at least one check
// that judges it is in the set; otherwise it is open, with the reason of the first open rule that matches it.
import { STATEMENTS, type Statement } from '../spec/clauses.ts'
import { generateCells, type Cell } from './cells.ts'
import { JUDGES, OPEN, type OpenKind } from './judges.ts'

export interface ResolvedCell {
  id: string
  statement: string
  family: string
  /** The check ids (or `prefix*` patterns) that judge it and are in the set. */
  checks: string[]
  open?: { kind: OpenKind; reason: string }
}

export interface StatementCoverage {
  statement: string
  clause: string
  level: Statement['level']
  text: string
  cells: number
  covered: number
  /** The open cells grouped by reason, each with its cell ids. */
  open: { kind: OpenKind; reason: string; cells: string[] }[]
  /**
   * Covered cells of a MUST statement that only SHOULD or INFO checks judge (given the checks' levels): a server
   * breaking them is not failed at MUST (issue 25, "Level").
   */
  belowLevel?: string[]
}

export interface CoverageBlock {
  /** What "covered" was measured against. */
  against: 'catalogue' | 'run'
  summary: { cells: number; covered: number; share: number; statements: number; byLevel: Record<string, { cells: number; covered: number; share: number }> }
  statements: StatementCoverage[]
}

const globCache = new Map<string, RegExp>()
export function globMatches(glob: string, text: string): boolean {
  let re = globCache.get(glob)
  if (!re) {
    re = new RegExp(
      `^${glob
        .split('*')
        .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
    )
    globCache.set(glob, re)
  }
  return re.test(text)
}

/** `filters.{resource}.{filter}.sound` with the cell's axes; undefined when an axis is missing. */
export function expandTemplate(template: string, axes: Record<string, string>): string | undefined {
  let missing = false
  const out = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (axes[name] === undefined) missing = true
    return axes[name] ?? ''
  })
  return missing ? undefined : out
}

export interface NamedCheck {
  /** The id or `prefix*` pattern as the cell names it. */
  id: string
  /** `?`: judges only when present; a missing explicit id is a defect of the rules (the unit test says so). */
  optional: boolean
}

/** The checks a cell's rules name, expanded; a statement cell names its registry entry's checks. */
export function namedChecks(cell: Cell): NamedCheck[] {
  if (cell.family === 'statement') {
    const s = STATEMENTS.find((x) => x.id === cell.statement)
    return (s?.checks ?? []).map((id) => ({ id, optional: false }))
  }
  const out: NamedCheck[] = []
  for (const rule of JUDGES) {
    if (!globMatches(rule.cells, cell.id) || (rule.when && !rule.when(cell.axes))) continue
    for (const template of rule.checks) {
      const optional = template.endsWith('?')
      const id = expandTemplate(optional ? template.slice(0, -1) : template, cell.axes)
      if (id !== undefined && !out.some((c) => c.id === id)) out.push({ id, optional })
    }
  }
  return out
}

function present(id: string, ids: ReadonlySet<string>, sorted: readonly string[]): boolean {
  if (!id.endsWith('*')) return ids.has(id)
  const prefix = id.slice(0, -1)
  return sorted.some((x) => x.startsWith(prefix))
}

function openReason(cell: Cell): { kind: OpenKind; reason: string } {
  if (cell.family === 'statement') {
    const s = STATEMENTS.find((x) => x.id === cell.statement)
    if (s?.untestable) return { kind: 'not-observable', reason: s.untestable }
  }
  const rule = OPEN.find((r) => globMatches(r.cells, cell.id))!
  return { kind: rule.kind, reason: rule.reason }
}

const NOT_RUN = 'a check judges it, but this run did not bring that check to a verdict (not selected, or skipped)'

/**
 * `checkIds`: the checks that count (the catalogue, or those a run brought to a verdict); `catalogueIds`, for a
 * run: the whole catalogue, so that a cell a check would judge is open as `not-run`, not as unbuilt.
 */
export function resolveCells(checkIds: Iterable<string>, catalogueIds?: Iterable<string>, cells: Cell[] = generateCells()): ResolvedCell[] {
  const ids = new Set(checkIds)
  const sorted = [...ids]
  const catalogue = catalogueIds ? new Set(catalogueIds) : undefined
  const catalogueSorted = catalogue ? [...catalogue] : []
  return cells.map((cell) => {
    const named = namedChecks(cell).map((c) => c.id)
    const checks = named.filter((id) => present(id, ids, sorted))
    const base = { id: cell.id, statement: cell.statement, family: cell.family, checks }
    if (checks.length > 0) return base
    const wouldJudge = catalogue ? named.filter((id) => present(id, catalogue, catalogueSorted)) : []
    if (wouldJudge.length > 0) return { ...base, open: { kind: 'not-run' as const, reason: NOT_RUN } }
    return { ...base, open: openReason(cell) }
  })
}

const share = (covered: number, cells: number) => (cells === 0 ? 1 : Math.round((covered / cells) * 1000) / 1000)

const RANK: Record<string, number> = { MUST: 3, SHOULD: 2, INFO: 1 }

/** The highest level among the checks (ids or `prefix*`) that judge a cell. */
function judgingLevel(checks: string[], levels: ReadonlyMap<string, string>): number {
  let best = 0
  for (const id of checks) {
    if (!id.endsWith('*')) best = Math.max(best, RANK[levels.get(id) ?? ''] ?? 0)
    else for (const [other, level] of levels) if (other.startsWith(id.slice(0, -1))) best = Math.max(best, RANK[level] ?? 0)
  }
  return best
}

/** `levels`: each check's level (the catalogue's), to list the MUST cells judged only below MUST. */
export function coverageBlock(
  checkIds: Iterable<string>,
  against: CoverageBlock['against'],
  catalogueIds?: Iterable<string>,
  levels?: ReadonlyMap<string, string>,
): CoverageBlock {
  const resolved = resolveCells(checkIds, catalogueIds)
  const statements: StatementCoverage[] = []
  for (const s of STATEMENTS.filter((x) => x.level !== 'INFO')) {
    const mine = resolved.filter((c) => c.statement === s.id)
    const groups = new Map<string, { kind: OpenKind; reason: string; cells: string[] }>()
    for (const c of mine)
      if (c.open) {
        const key = `${c.open.kind}\u0000${c.open.reason}`
        const group = groups.get(key) ?? { ...c.open, cells: [] }
        group.cells.push(c.id)
        groups.set(key, group)
      }
    statements.push({
      statement: s.id,
      clause: s.clause,
      level: s.level,
      text: s.text,
      cells: mine.length,
      covered: mine.filter((c) => !c.open).length,
      open: [...groups.values()],
      ...(levels && s.level === 'MUST' ? { belowLevel: mine.filter((c) => !c.open && judgingLevel(c.checks, levels) < RANK.MUST).map((c) => c.id) } : {}),
    })
  }
  const byLevel: CoverageBlock['summary']['byLevel'] = {}
  for (const st of statements) {
    const level = (byLevel[st.level] ??= { cells: 0, covered: 0, share: 0 })
    level.cells += st.cells
    level.covered += st.covered
  }
  for (const level of Object.values(byLevel)) level.share = share(level.covered, level.cells)
  const cells = statements.reduce((n, s) => n + s.cells, 0)
  const covered = statements.reduce((n, s) => n + s.covered, 0)
  return { against, summary: { cells, covered, share: share(covered, cells), statements: statements.length, byLevel }, statements }
}
