// `crm-conformance compare`: many targets' reports side by side (regions, editions, versions of one product, or
// the implementations a standards body collected). One column per target, one row per clause in the spec's
// order with the outcome of that clause's checks in each, then the choices each server made where the spec
// leaves them open. Pure: the reports in, the table out (compare-render.ts writes it as Markdown and HTML).
import { readFileSync } from 'node:fs'
import type { Level, Status } from '../vocabulary.ts'
import { specPath } from '../spec/spec-text.ts'
import { capabilityText, CAPABILITY_TOPICS, groupCapabilities } from './capability-topics.ts'
import { compareClauses } from './clause-order.ts'

/** The parts of report.json the comparison reads (every field but `checks` may be missing from an older report). */
export interface ComparableReport {
  tool?: { name?: string; version?: string }
  spec?: { digest?: string }
  target?: { baseUrl?: string; embedded?: boolean; variant?: string; faults?: string[] }
  profile?: string
  runId?: string
  startedAt?: string
  verdict?: string
  verdictLabel?: string
  scope?: { complete?: boolean; inScope?: { checks?: number } }
  capabilities?: Record<string, unknown>
  traffic?: unknown
  checks: { id: string; clause?: string; clauses?: string[]; level: Level; status: Status; waived?: unknown }[]
}

/** One target: its report, and the PRODUCT.json of a submission folder when there is one. */
export interface CompareInput {
  /** How the user named it (the folder or file given). */
  label: string
  report: ComparableReport
  product?: { product?: unknown; version?: unknown; vendor?: unknown }
}

export interface CompareColumn {
  label: string
  /** PRODUCT.json's product; else what the report says it tested (the embedded reference server, the target's host). */
  product: string
  /** PRODUCT.json's version; else the reference server's variant and faults, or `not stated`. */
  version: string
  verdict: string
  verdictLabel: string
  /** The day the run started (YYYY-MM-DD), or `unknown`. */
  date: string
  suiteVersion: string
  /** Whether the run judged the whole catalogue: a subset's verdict speaks for that subset only. */
  complete: boolean
  checks: number
  /** The checks that failed (not waived) or errored, MUST first then by id. */
  notPassed: { id: string; level: Level; status: Status }[]
}

/**
 * How a clause fared in one report, worst first: a MUST check failed; a SHOULD (or INFO) check failed; a check
 * could not tell (errored); every check that ran passed; every check was skipped; no check of this clause ran.
 */
export type CellOutcome = 'must-failed' | 'should-failed' | 'errored' | 'passed' | 'skipped' | 'not-run'

export interface CompareCell {
  outcome: CellOutcome
  passed: number
  failed: number
  errored: number
  skipped: number
  /** Failures a waiver covers: counted here, not as failed. */
  waived: number
  total: number
  /** Ids of the checks that failed or errored (for the HTML's tooltip and the reader who wants them). */
  failing: string[]
}

export interface ClauseRow {
  clause: string
  /** The spec's heading of the clause itself (`§4.1` → `Conventions`), or of the section it is a rule of (`§5.3` → `Authentication`). */
  heading?: { text: string; own: boolean }
  cells: CompareCell[]
  /** The outcomes differ between targets (not-run aside). */
  differs: boolean
}

export interface CapabilityRow {
  key: string
  /** One per column: the value as one line, undefined when that run did not observe it. */
  values: (string | undefined)[]
  differs: boolean
}

export interface CapabilitySection {
  heading: string
  clause: string
  rows: CapabilityRow[]
}

export interface Comparison {
  columns: CompareColumn[]
  rows: ClauseRow[]
  capabilities: CapabilitySection[]
  /** What a reader must know before trusting a side-by-side reading: suite versions or spec texts that differ. */
  warnings: string[]
}

const LEVEL_ORDER: readonly Level[] = ['MUST', 'SHOULD', 'INFO']

const OUTCOME_RANK: Record<CellOutcome, number> = { 'must-failed': 0, 'should-failed': 1, errored: 2, passed: 3, skipped: 4, 'not-run': 5 }

const text = (value: unknown, fallback: string) => (typeof value === 'string' && value.trim() !== '' ? value : fallback)

function columnOf({ label, report, product }: CompareInput): CompareColumn {
  const target = report.target ?? {}
  let host: string | undefined
  try {
    host = target.baseUrl ? new URL(target.baseUrl).host : undefined
  } catch {
    host = target.baseUrl
  }
  const embedded = [target.variant ? `variant ${target.variant}` : undefined, ...(target.faults ?? []).map((f) => `fault ${f}`)].filter(Boolean).join(', ')
  return {
    label,
    product: text(product?.product, target.embedded ? 'embedded reference server' : text(host, 'unknown')),
    version: text(product?.version, target.embedded ? embedded || 'default' : 'not stated'),
    verdict: text(report.verdict, 'unknown'),
    verdictLabel: text(report.verdictLabel, text(report.verdict, 'unknown')),
    date: /^\d{4}-\d{2}-\d{2}/.exec(text(report.startedAt, ''))?.[0] ?? 'unknown',
    suiteVersion: text(report.tool?.version, 'unknown'),
    complete: report.scope?.complete === true,
    checks: report.checks.length,
    notPassed: report.checks
      .filter((c) => (c.status === 'failed' && !c.waived) || (c.status !== 'passed' && c.status !== 'skipped' && c.status !== 'failed'))
      .map((c) => ({ id: String(c.id), level: c.level, status: c.status }))
      .sort((a, b) => LEVEL_ORDER.indexOf(a.level) - LEVEL_ORDER.indexOf(b.level) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
  }
}

const emptyCell = (): CompareCell => ({ outcome: 'not-run', passed: 0, failed: 0, errored: 0, skipped: 0, waived: 0, total: 0, failing: [] })

/** Each clause's cell in one report; a check that traces to several clauses counts in each of them. */
function cellsOf(report: ComparableReport): Map<string, CompareCell> {
  const cells = new Map<string, CompareCell>()
  for (const check of report.checks) {
    const clauses = Array.isArray(check.clauses) && check.clauses.length > 0 ? check.clauses : [check.clause ?? 'no clause']
    for (const clause of new Set(clauses.map(String))) {
      const cell = cells.get(clause) ?? emptyCell()
      cells.set(clause, cell)
      cell.total++
      if (check.status === 'passed') cell.passed++
      else if (check.status === 'skipped') cell.skipped++
      else if (check.status === 'failed' && check.waived) cell.waived++
      else if (check.status === 'failed') cell.failed++
      else cell.errored++
      const outcome: CellOutcome =
        check.status === 'passed'
          ? 'passed'
          : check.status === 'skipped'
            ? 'skipped'
            : check.status === 'failed' && check.waived
              ? 'passed'
              : check.status === 'failed'
                ? check.level === 'MUST'
                  ? 'must-failed'
                  : 'should-failed'
                : 'errored'
      if (outcome !== 'passed' && outcome !== 'skipped') cell.failing.push(String(check.id))
      if (cell.outcome === 'not-run' || OUTCOME_RANK[outcome] < OUTCOME_RANK[cell.outcome]) cell.outcome = outcome
    }
  }
  // A clause whose checks were all skipped is `skipped`; one with a pass among skips is `passed` (the rank above).
  return cells
}

let headings: Map<string, string> | undefined

/** The spec's section headings by clause: `## 4. Endpoints` → `§4`, `### 4.1 Conventions` → `§4.1`. */
function specHeadings(): Map<string, string> {
  if (headings) return headings
  headings = new Map()
  try {
    for (const match of readFileSync(specPath(), 'utf8').matchAll(/^#{2,4}\s+(\d+(?:\.\d+)*)\.?\s+(.+)$/gm)) headings.set(`§${match[1]}`, match[2]!.trim())
  } catch {
    // No spec text beside the suite: rows without headings.
  }
  return headings
}

/** `§4.1` → Conventions (its own); `§5.3` → Authentication (its section's); anything else → undefined. */
export function clauseHeading(clause: string): { text: string; own: boolean } | undefined {
  const parts = /^§(\d+(?:\.\d+)*)$/.exec(clause.trim())?.[1]?.split('.')
  const known = specHeadings()
  for (let n = parts?.length ?? 0; n > 0; n--) {
    const text = known.get(`§${parts!.slice(0, n).join('.')}`)
    if (text) return { text, own: n === parts!.length }
  }
  return undefined
}

function capabilitySections(inputs: readonly CompareInput[]): CapabilitySection[] {
  const grouped = inputs.map((input) => groupCapabilities(input.report.capabilities ?? {}).groups)
  return CAPABILITY_TOPICS.map((topic) => {
    const keys = [...new Set(grouped.flatMap((groups) => (groups.get(topic.id) ?? []).map(([key]) => key)))].sort()
    const rows = keys.map((key) => {
      const values = inputs.map((input) =>
        input.report.capabilities && key in input.report.capabilities ? capabilityText(input.report.capabilities[key]) : undefined,
      )
      const seen = values.filter((v) => v !== undefined)
      return { key, values, differs: new Set(seen).size > 1 }
    })
    return { heading: topic.heading, clause: topic.clause, rows }
  })
}

export function compareReports(inputs: readonly CompareInput[]): Comparison {
  const columns = inputs.map(columnOf)
  const perReport = inputs.map((input) => cellsOf(input.report))
  const clauses = [...new Set(perReport.flatMap((cells) => [...cells.keys()]))].sort(compareClauses)
  const rows = clauses.map((clause) => {
    const cells = perReport.map((cellsOfReport) => cellsOfReport.get(clause) ?? emptyCell())
    const outcomes = new Set(cells.filter((c) => c.outcome !== 'not-run').map((c) => c.outcome))
    const heading = clauseHeading(clause)
    return { clause, ...(heading ? { heading } : {}), cells, differs: outcomes.size > 1 }
  })
  const warnings: string[] = []
  const versions = [...new Set(columns.map((c) => c.suiteVersion))]
  if (versions.length > 1)
    warnings.push(
      `the reports come from different suite versions (${versions.join(', ')}): their checks differ, so a clause's counts may differ for that reason alone`,
    )
  const digests = [...new Set(inputs.map((i) => i.report.spec?.digest ?? 'unknown'))]
  if (digests.length > 1) warnings.push(`the reports were judged against ${digests.length} different spec texts (spec digests differ)`)
  const subsets = columns.filter((c) => !c.complete).map((c) => c.label)
  if (subsets.length > 0 && subsets.length < columns.length)
    warnings.push(`some runs judged a subset of the checks (${subsets.join(', ')}): their "not run" cells say nothing about the server`)
  return { columns, rows, capabilities: capabilitySections(inputs), warnings }
}
