// `crm-conformance diff <before> <after>`: what changed between two runs' report.json, one line per changed
// check, so QA reads "what broke since last night?" instead of two reports. Pure: the reports in, the changes out.
import { mdCell, mdCode } from '../text/markdown-cell.ts'
import type { Level, Status } from '../vocabulary.ts'

/** The parts of report.json the comparison reads (older reports may lack some). */
export interface ComparedReport {
  tool?: { version?: string }
  runId?: string
  startedAt?: string
  verdict?: string
  target?: { baseUrl?: string; embedded?: boolean; variant?: string }
  capabilities?: Record<string, unknown>
  checks: { id: string; level: Level; status: Status; message?: string; waived?: unknown }[]
}

export type ChangeKind = 'newly failing' | 'newly errored' | 'fixed' | 'still failing' | 'newly skipped' | 'newly passing' | 'not run' | 'newly run'

export interface CheckChange {
  id: string
  level: Level
  kind: ChangeKind
  before?: Status
  after?: Status
  /** The after run's message (the before run's for a check it alone ran). */
  message: string
  /** It passed before and now fails or errors: the changes that make the exit code 1. */
  regression: boolean
}

export interface CapabilityChange {
  key: string
  before?: unknown
  after?: unknown
}

export interface ReportDiff {
  before: { runId?: string; startedAt?: string; version?: string; verdict?: string; target?: string }
  after: { runId?: string; startedAt?: string; version?: string; verdict?: string; target?: string }
  /** The two reports judged different servers: what changed may be the servers', not one server's. */
  targetsDiffer: boolean
  verdictChanged: boolean
  changes: CheckChange[]
  capabilities: CapabilityChange[]
  regressions: number
  /** Ids one report has and the other lacks, when the suite versions differ (the comparison is then refused). */
  versionMismatch?: { onlyBefore: string[]; onlyAfter: string[] }
}

/** Order of the lines: what needs attention first. */
const KIND_ORDER: ChangeKind[] = ['newly failing', 'newly errored', 'still failing', 'newly skipped', 'fixed', 'newly passing', 'not run', 'newly run']

const failing = (s: Status | undefined) => s === 'failed' || s === 'error'

/** How one check moved; undefined when nothing changed that a nightly reader needs (passed twice, skipped twice). */
export function changeOf(before: Status | undefined, after: Status | undefined): ChangeKind | undefined {
  if (before === undefined) return after === undefined ? undefined : after === 'failed' ? 'newly failing' : after === 'error' ? 'newly errored' : 'newly run'
  if (after === undefined) return 'not run'
  if (after === 'failed') return before === 'failed' ? 'still failing' : 'newly failing'
  if (after === 'error') return before === 'error' ? 'still failing' : 'newly errored'
  if (after === 'passed') return failing(before) ? 'fixed' : before === 'skipped' ? 'newly passing' : undefined
  return before === 'skipped' ? undefined : 'newly skipped'
}

/**
 * The server a report judged, by name: its base URL, or the embedded reference server (whatever port it had
 * that run) and its variant. Undefined when the report does not say.
 */
export function targetName(target: ComparedReport['target']): string | undefined {
  if (!target) return undefined
  if (target.embedded) return `the embedded reference server${target.variant && target.variant !== 'default' ? ` (variant ${target.variant})` : ''}`
  return target.baseUrl
}

/** The warning when two runs judged different servers, naming both; undefined when they judged the same one (or do not say). */
export function targetWarning(before: string | undefined, after: string | undefined): string | undefined {
  if (before === undefined || after === undefined || before === after) return undefined
  return `warning: the runs tested different targets (${before}, then ${after}): a change may be the other server's, not a change of one server`
}

/**
 * An observation that differs on every run of the same server (a count, a wait, an id, a time, a run's label)
 * rather than a choice the server made: left out of the capability changes.
 */
export function isRunSpecific(value: unknown): boolean {
  if (typeof value === 'number') return true
  // What was sent and echoed back is the run's own data, not the server's choice.
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && ('sent' in value || 'before' in value)) return true
  const text = JSON.stringify(value) ?? ''
  return /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-|[0-9a-f]{16,}|\d{4}-\d{2}-\d{2}T\d{2}:|crmconf[-_ ]|":\s*\d/i.test(text)
}

const firstLine = (text: string | undefined) => (text ?? '').split('\n')[0]!.slice(0, 200)

export function diffReports(before: ComparedReport, after: ComparedReport): ReportDiff {
  const was = new Map(before.checks.map((c) => [c.id, c]))
  const now = new Map(after.checks.map((c) => [c.id, c]))
  const head = (r: ComparedReport) => ({ runId: r.runId, startedAt: r.startedAt, version: r.tool?.version, verdict: r.verdict, target: targetName(r.target) })
  const result: ReportDiff = {
    before: head(before),
    after: head(after),
    targetsDiffer: targetWarning(targetName(before.target), targetName(after.target)) !== undefined,
    verdictChanged: before.verdict !== after.verdict,
    changes: [],
    capabilities: [],
    regressions: 0,
  }
  const onlyBefore = [...was.keys()].filter((id) => !now.has(id)).sort()
  const onlyAfter = [...now.keys()].filter((id) => !was.has(id)).sort()
  if (before.tool?.version !== after.tool?.version && (onlyBefore.length > 0 || onlyAfter.length > 0)) {
    result.versionMismatch = { onlyBefore, onlyAfter }
    return result
  }
  for (const id of new Set([...was.keys(), ...now.keys()])) {
    const b = was.get(id)
    const a = now.get(id)
    const kind = changeOf(b?.status, a?.status)
    if (!kind) continue
    const regression = b?.status === 'passed' && failing(a?.status)
    result.changes.push({ id, level: (a ?? b)!.level, kind, before: b?.status, after: a?.status, message: firstLine((a ?? b)!.message), regression })
  }
  result.changes.sort((x, y) => KIND_ORDER.indexOf(x.kind) - KIND_ORDER.indexOf(y.kind) || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0))
  result.regressions = result.changes.filter((c) => c.regression).length
  // The server's run-wide choices (create.status, update.method, list.lastPage…) both runs noted. A check's own
  // observations (`<check id>.<name>`: a remaining count, the seeded value a filter check queried) are what that
  // run met, not what the server chose: never compared.
  const checkIds = [...was.keys(), ...now.keys()]
  const observed = (key: string) => checkIds.some((id) => key.startsWith(`${id}.`))
  const caps = Object.keys(before.capabilities ?? {}).filter((key) => key in (after.capabilities ?? {}) && !observed(key))
  for (const key of caps.sort()) {
    const b = before.capabilities?.[key]
    const a = after.capabilities?.[key]
    if (isRunSpecific(b) || isRunSpecific(a)) continue
    if (JSON.stringify(b) !== JSON.stringify(a)) result.capabilities.push({ key, before: b, after: a })
  }
  return result
}

/** 1: a check that passed before now fails or errors; 2: the suite versions differ in their check ids; else 0. */
export function diffExitCode(diff: ReportDiff): 0 | 1 | 2 {
  if (diff.versionMismatch) return 2
  return diff.regressions > 0 ? 1 : 0
}

const shown = (v: unknown) => (v === undefined ? '(none)' : JSON.stringify(v))
const runName = (r: ReportDiff['before']) => `${r.runId ?? 'unknown run'}${r.startedAt ? ` (${r.startedAt})` : ''}`

function mismatchLines(diff: ReportDiff): string[] {
  const m = diff.versionMismatch!
  return [
    `the reports are of different suite versions (${diff.before.version ?? '?'} and ${diff.after.version ?? '?'}) with different check ids: not compared`,
    ...(m.onlyBefore.length ? [`  only in before (${m.onlyBefore.length}): ${m.onlyBefore.join(', ')}`] : []),
    ...(m.onlyAfter.length ? [`  only in after (${m.onlyAfter.length}): ${m.onlyAfter.join(', ')}`] : []),
  ]
}

/** The console form: a header, one line per changed check and capability, a last line with the count. */
export function diffText(diff: ReportDiff): string {
  if (diff.versionMismatch) return `${mismatchLines(diff).join('\n')}\n`
  const lines = [`before: ${runName(diff.before)}`, `after:  ${runName(diff.after)}`]
  const warning = targetWarning(diff.before.target, diff.after.target)
  if (warning) lines.push(warning)
  lines.push(diff.verdictChanged ? `verdict: ${diff.before.verdict} -> ${diff.after.verdict}` : `verdict: ${diff.after.verdict} (unchanged)`)
  const width = Math.max(0, ...diff.changes.map((c) => c.kind.length))
  for (const c of diff.changes) lines.push(`${c.kind.padEnd(width)}  ${c.id} (${c.level})${c.message ? `: ${c.message}` : ''}`)
  for (const c of diff.capabilities) lines.push(`capability ${c.key}: ${shown(c.before)} -> ${shown(c.after)}`)
  if (diff.changes.length === 0 && diff.capabilities.length === 0) lines.push('no check changed')
  lines.push(diff.regressions > 0 ? `${diff.regressions} regression${diff.regressions === 1 ? '' : 's'}: passed before, fails or errors now` : 'no regression')
  return `${lines.join('\n')}\n`
}

/** A pull-request comment: the verdict, a table of changed checks, the capabilities that moved. */
export function diffMarkdown(diff: ReportDiff): string {
  if (diff.versionMismatch)
    return `### crm-conformance diff\n\n${mismatchLines(diff)
      .map((l) => mdCell(l.trim()))
      .join('\n\n')}\n`
  const out = ['### crm-conformance diff', '']
  const warning = targetWarning(diff.before.target, diff.after.target)
  if (warning) out.push(`> :warning: ${mdCell(warning.replace(/^warning: /, ''))}`, '')
  out.push(
    diff.verdictChanged
      ? `**Verdict:** ${mdCell(diff.before.verdict)} → **${mdCell(diff.after.verdict)}**`
      : `**Verdict:** ${mdCell(diff.after.verdict)} (unchanged)`,
    '',
    `${diff.regressions > 0 ? `:x: **${diff.regressions} regression${diff.regressions === 1 ? '' : 's'}**` : ':white_check_mark: no regression'} · ${diff.changes.length} check${diff.changes.length === 1 ? '' : 's'} changed · before ${mdCode(diff.before.runId ?? '?')}, after ${mdCode(diff.after.runId ?? '?')}`,
    '',
  )
  if (diff.changes.length > 0) {
    out.push('| Change | Check | Level | Before | After | Message |', '|---|---|---|---|---|---|')
    for (const c of diff.changes)
      out.push(
        `| ${c.regression ? '**' + c.kind + '**' : c.kind} | ${mdCode(c.id)} | ${mdCell(c.level)} | ${mdCell(c.before ?? '—')} | ${mdCell(c.after ?? '—')} | ${mdCell(c.message)} |`,
      )
    out.push('')
  }
  if (diff.capabilities.length > 0) {
    out.push('<details><summary>Capabilities that changed</summary>', '', '| Capability | Before | After |', '|---|---|---|')
    for (const c of diff.capabilities) out.push(`| ${mdCode(c.key)} | ${mdCell(shown(c.before))} | ${mdCell(shown(c.after))} |`)
    out.push('', '</details>', '')
  }
  return out.join('\n')
}
