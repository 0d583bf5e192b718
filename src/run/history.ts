// `run --history FILE`: one JSON line per run appended to FILE (date, suite version, target, verdict, counts,
// failing ids), so report.html can draw the last runs and name the days a check started or stopped failing.
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { targetName } from '../diff/diff.ts'
import type { HistoryLine, RunReport } from '../report/types.ts'

/** Runs shown in report.html's chart (the file keeps every line). */
export const HISTORY_SHOWN = 30

/** The line a report adds to the history. */
export function historyLine(report: RunReport): HistoryLine {
  const s = report.summary
  return {
    date: report.startedAt,
    runId: report.runId,
    version: report.tool.version,
    target: targetName(report.target) ?? report.target.baseUrl,
    verdict: report.verdict,
    counts: { passed: s.passed, failed: s.failed, skipped: s.skipped, errored: s.errored },
    failing: report.checks.filter((c) => c.status === 'failed' || c.status === 'error').map((c) => c.id),
    ...(report.explored && report.explored.cells.length > 0 ? { explored: report.explored.cells } : {}),
  }
}

/** The lines of FILE (none when it does not exist); a line that is not a history line is passed over. */
export function readHistory(file: string): HistoryLine[] {
  if (!existsSync(file)) return []
  const lines: HistoryLine[] = []
  for (const text of readFileSync(file, 'utf8').split('\n')) {
    if (text.trim() === '') continue
    try {
      const line = JSON.parse(text)
      if (typeof line?.date === 'string' && typeof line?.verdict === 'string' && Array.isArray(line?.failing)) lines.push(line)
    } catch {
      // A torn line (a run killed while writing) is not history.
    }
  }
  return lines
}

export function appendHistory(file: string, line: HistoryLine): void {
  mkdirSync(dirname(file), { recursive: true })
  appendFileSync(file, `${JSON.stringify(line)}\n`)
}

/**
 * The trend's warning when the runs shown judged other targets than this one (the last line): the chart would
 * mix servers. Names the others, the most recent first.
 */
export function historyWarning(runs: readonly HistoryLine[]): string | undefined {
  const current = runs.at(-1)?.target
  const others = [...new Set(runs.slice(0, -1).map((r) => r.target))].filter((t) => t !== current).reverse()
  if (!current || others.length === 0) return undefined
  return `warning: the history file also holds runs against ${others.join(', ')}; this run tested ${current}: the trend mixes servers (keep one --history file per target)`
}
