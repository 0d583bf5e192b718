// summary.md: the pull-request comment. Bounded: GitHub refuses comments over 65 536 characters, so rows
// are capped and a byte budget stops any table before the whole would pass MAX_SUMMARY_BYTES.
import { exploredLine } from '../coverage/explored.ts'
import { LEVELS, outcomeOf } from './build.ts'
import { compareByLevelClauseId } from './clause-order.ts'
import type { RunReport, Verdict } from './types.ts'
import { mdCell, mdCode } from '../text/markdown-cell.ts'
import { rowReplay } from './replay-line.ts'

export const MAX_SUMMARY_BYTES = 60_000
/** Rows per table before "and N more". */
export const SUMMARY_MAX_ROWS = 30
/** Kept free for the footer and the "and N more" lines. */
const FOOTER_RESERVE_BYTES = 2_000

const EMOJI: Record<Verdict, string> = { compliant: '✅', partial: '⚠️', 'non-compliant': '❌' }

/** Labelled checks (--rerun-failed, --repeat) listed in summary.md; the rest are in report.html. */
const MAX_LABEL_LINES = 50

const bytes = (text: string) => Buffer.byteLength(text, 'utf8')

class Budget {
  constructor(private left: number) {}
  take(text: string): boolean {
    const n = bytes(text) + 1
    if (n > this.left) return false
    this.left -= n
    return true
  }
}

/** Header row + as many rows as the cap and the budget allow, then "…and N more". */
function cappedTable(out: string[], budget: Budget, header: string[], rows: string[][], more: string): void {
  const head = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`]
  if (!budget.take(head.join('\n'))) {
    out.push(`_${rows.length} ${more} (the summary is full; see report.html)._`)
    return
  }
  out.push(...head)
  let shown = 0
  for (const row of rows.slice(0, SUMMARY_MAX_ROWS)) {
    const line = `| ${row.join(' | ')} |`
    if (!budget.take(line)) break
    out.push(line)
    shown++
  }
  if (shown < rows.length) out.push('', `_…and ${rows.length - shown} more ${more}; see report.html._`)
}

const TRAFFIC_EMOJI = { conformant: '✅', partial: '⚠️', violations: '❌', 'nothing-verified': '⚪' } as const

function headline(report: RunReport): string {
  const s = report.summary
  const traffic = report.traffic?.headline
  // Observed traffic: the server's verdict, the client's violations named apart.
  if (traffic) return `## ${TRAFFIC_EMOJI[traffic.tone]} CRM API traffic: **${mdCell(traffic.text)}** · ${mdCell(traffic.client)}`
  const must = s.byLevel.MUST
  const detail =
    report.verdict === 'non-compliant'
      ? `${must.failed} MUST check${must.failed === 1 ? '' : 's'} failed`
      : report.verdict === 'partial'
        ? must.total === 0
          ? 'no MUST check ran'
          : `${must.errored + must.skipped} MUST check${must.errored + must.skipped === 1 ? '' : 's'} not verified (${must.errored} errored, ${must.skipped} skipped)`
        : `every MUST check passed`
  // The label names what the verdict covers (a subset, a narrower profile, nothing tested).
  return `## ${EMOJI[report.verdict] ?? ''} CRM API conformance: **${mdCell(report.verdictLabel ?? report.verdict)}** — ${detail} · ${s.passed}/${s.total} passed`
}

/** What the run left out, so a reader knows what the verdict does not cover. */
function scopeLines(report: RunReport): string[] {
  const scope = report.scope
  const traffic = report.traffic
  if (traffic) {
    const files = traffic.files.length ? ` (${traffic.files.map((f) => mdCode(f, 200)).join(', ')})` : ''
    return [
      `Scope: observed traffic${traffic.source === 'proxy' ? ' through the proxy' : ''}${files}, ${traffic.exchanges} exchanges, ${traffic.rules.exercised} of ${traffic.rules.total} rules exercised (${traffic.rules.mustExercised} of ${traffic.rules.must} MUST); violations: ${traffic.violations.server} server, ${traffic.violations.client} client. A rule nothing exercised is skipped.`,
      '',
    ]
  }
  if (!scope || scope.complete) return []
  const lines: string[] = []
  if (scope.only.length || scope.skip.length) {
    const sel = [scope.only.length ? `--only ${scope.only.join(',')}` : '', scope.skip.length ? `--skip ${scope.skip.join(',')}` : ''].filter(Boolean).join(' ')
    lines.push(
      `Scope: a subset (${mdCode(sel, 300)}), ${scope.inScope.checks} of ${scope.catalogue.checks} checks, ${scope.inScope.must} of ${scope.catalogue.must} MUST checks.`,
    )
  } else {
    lines.push(`Scope: the ${mdCell(report.profile)} profile, ${scope.inScope.must} of ${scope.catalogue.must} MUST checks.`)
  }
  if (scope.outOfScope.length)
    lines.push(
      `${scope.outOfScope.length} selected checks are out of scope for the ${mdCell(report.profile)} profile (they write what it does not send); listed in report.json under scope.outOfScope.`,
    )
  return [lines.join(' '), '']
}

/** The footer's facts of how it ran: a suite run's seed and profile; observed traffic has neither (it sends nothing), so its source, exchanges and base path. */
function runFacts(report: RunReport): string {
  const traffic = report.traffic
  if (!traffic) return `seed ${mdCode(String(report.seed))} · profile ${mdCell(report.profile)}`
  const source = traffic.source === 'proxy' ? 'through the proxy' : `from ${traffic.files.length === 1 ? 'one file' : `${traffic.files.length} files`}`
  return `observed traffic ${source} · ${traffic.exchanges} exchanges · base path ${mdCode(traffic.basePath)}`
}

export function renderSummaryMarkdown(report: RunReport): string {
  const out: string[] = []
  const s = report.summary
  out.push(headline(report), '', ...scopeLines(report))
  // How the run ended and what the writer masked: said before anything else is read.
  if (report.interrupted)
    out.push(
      `> **Interrupted**: ${mdCell(report.interrupted.reason)}; the checks it did not reach are listed as not run (${report.requests.total} requests sent).`,
      '',
    )
  for (const m of report.secretsMasked ?? [])
    out.push(`> **A secret was masked**: ${mdCell(m.secret)} (${mdCell(m.encoding)}, ${m.count}×) appeared in what the server sent back.`, '')
  out.push('| Level | Passed | Failed | Waived | Skipped | Errored | Total |', '|---|---:|---:|---:|---:|---:|---:|')
  for (const level of LEVELS) {
    const c = s.byLevel[level]
    if (!c) continue
    out.push(`| ${level} | ${c.passed} | ${c.failed} | ${c.waived} | ${c.skipped} | ${c.errored} | ${c.total} |`)
  }
  out.push(`| **All** | ${s.passed} | ${s.failed} | ${s.waived} | ${s.skipped} | ${s.errored} | ${s.total} |`, '')
  if (report.explored) out.push(mdCell(exploredLine(report.explored), 600), '')

  const footer = [
    '---',
    `<sub>${mdCell(report.tool.name)} ${mdCell(report.tool.version)} · spec sha256 ${mdCode(report.spec.digest.slice(0, 12))} · ${runFacts(report)} · target ${mdCode(report.target.baseUrl)}${report.target.embedded ? ' (embedded)' : ''} · run ${mdCode(report.runId)}</sub>`,
    '',
    `Replay the run: ${mdCode(report.replay, 400)}`,
  ].join('\n')
  const budget = new Budget(MAX_SUMMARY_BYTES - bytes(out.join('\n')) - bytes(footer) - FOOTER_RESERVE_BYTES)

  const sorted = [...report.checks].sort(compareByLevelClauseId)
  const failed = sorted.filter((c) => outcomeOf(c) === 'failed' && (c.level === 'MUST' || c.level === 'SHOULD'))
  const erroredMust = sorted.filter((c) => outcomeOf(c) === 'errored' && c.level === 'MUST')
  const skippedMust = sorted.filter((c) => outcomeOf(c) === 'skipped' && c.level === 'MUST')
  const waived = sorted.filter((c) => outcomeOf(c) === 'waived')

  if (failed.length) {
    const mustCount = failed.filter((c) => c.level === 'MUST').length
    out.push(`### Failed checks (MUST ${mustCount}, SHOULD ${failed.length - mustCount})`, '')
    cappedTable(
      out,
      budget,
      ['Level', 'Check', 'Clause', 'Title', 'Message', 'Replay'],
      failed.map((c) => [c.level, mdCode(c.id, 120), mdCell(c.clause, 20), mdCell(c.title, 160), mdCell(c.message), mdCode(rowReplay(c, report), 200)]),
      'failed checks',
    )
    out.push('')
  }
  if (erroredMust.length) {
    out.push(`### MUST checks that could not run (harness errors: ${erroredMust.length})`, '')
    cappedTable(
      out,
      budget,
      ['Check', 'Clause', 'Error', 'Replay'],
      erroredMust.map((c) => [mdCode(c.id, 120), mdCell(c.clause, 20), mdCell(c.message), mdCode(rowReplay(c, report), 200)]),
      'errored MUST checks',
    )
    out.push('')
  }
  if (skippedMust.length) {
    out.push(`### Skipped MUST checks (${skippedMust.length})`, '')
    cappedTable(
      out,
      budget,
      ['Check', 'Clause', 'Reason'],
      skippedMust.map((c) => [mdCode(c.id, 120), mdCell(c.clause, 20), mdCell(c.message)]),
      'skipped MUST checks',
    )
    out.push('')
  }
  if (waived.length) {
    out.push(`### Waived failures (${waived.length})`, '')
    cappedTable(
      out,
      budget,
      ['Level', 'Check', 'Clause', 'Waiver', 'Expires'],
      waived.map((c) => [c.level, mdCode(c.id, 120), mdCell(c.clause, 20), mdCell(c.waived?.reason), mdCell(c.waived?.expires ?? '—', 40)]),
      'waived failures',
    )
    out.push('')
  }
  for (const pool of report.fixturePools ?? []) if (pool.mustSkips.length > 0) out.push(`Fixture pool empty: ${pool.line}`, '')
  // --rerun-failed / --repeat: one line per labelled check.
  const labelled = report.rerun?.checks ?? []
  if (labelled.length)
    out.push(
      [
        ...labelled.slice(0, MAX_LABEL_LINES).map((c) => `- **${c.label}** \`${c.id}\``),
        ...(labelled.length > MAX_LABEL_LINES ? [`- … and ${labelled.length - MAX_LABEL_LINES} more (report.html, Re-run)`] : []),
      ].join('\n'),
      '',
    )
  if (report.leftovers?.length) out.push(`${report.leftovers.length} record(s) created by the run could not be removed (see report.html, Leftovers).`, '')
  out.push(footer, '')
  return out.join('\n')
}
