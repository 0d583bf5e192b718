// The side-by-side table of `compare` (compare.ts) as compare.md and compare.html, each readable alone: what
// is compared, a legend, one row per clause, the choices left open. Every text that comes from a report (names,
// versions, clauses, ids, observed values) is untrusted: mdCell makes it inert in Markdown, escapeHtml in HTML.
import { printableLine } from '../text/printable.ts'
import { TOOL_VERSION } from '../version.ts'
import type { CellOutcome, ClauseRow, CompareCell, CompareColumn, Comparison } from './compare.ts'
import { escapeHtml } from './html.ts'
import { mdCell } from '../text/markdown-cell.ts'

/** Symbol and meaning of each outcome, in the legend's order (worst first). */
export const LEGEND: readonly { outcome: CellOutcome; symbol: string; meaning: string }[] = [
  { outcome: 'must-failed', symbol: '❌', meaning: 'a MUST check failed: the server breaks this clause' },
  { outcome: 'should-failed', symbol: '🟠', meaning: 'a SHOULD (or INFO) check failed, no MUST check did' },
  { outcome: 'errored', symbol: '⚠️', meaning: 'a check could not tell (it errored); none failed' },
  { outcome: 'passed', symbol: '✅', meaning: 'every check that ran passed (skipped ones are counted apart)' },
  { outcome: 'skipped', symbol: '⏭️', meaning: 'every check was skipped (a precondition was not met: a key or fixture not configured)' },
  { outcome: 'not-run', symbol: '—', meaning: 'no check of this clause in that run (not selected, or not in that suite version)' },
]

/** Checks listed per target under "Checks that did not pass"; the rest are counted. */
export const MAX_LISTED_CHECKS = 40

/** The ids a target's failed and errored checks, as `MUST check.id (failed)`, bounded, with the number left out. */
function notPassedLines(column: CompareColumn): { lines: string[]; more: number } {
  const lines = column.notPassed.slice(0, MAX_LISTED_CHECKS).map((c) => `${c.level} ${c.id} (${c.status})`)
  return { lines, more: Math.max(0, column.notPassed.length - MAX_LISTED_CHECKS) }
}

/** Longest observed value shown in the HTML table. */
const HTML_MAX_VALUE = 2_000

const SYMBOL = Object.fromEntries(LEGEND.map((l) => [l.outcome, l.symbol])) as Record<CellOutcome, string>
const DIFFERS = '≠'
const letter = (i: number) => (i < 26 ? String.fromCharCode(65 + i) : `Z${i - 25}`)

/** `✅ 12/12`, `❌ 10/13 (2 failed, 1 skipped)`: passed of the clause's checks in that run, then what did not pass. */
export function cellText(cell: CompareCell): string {
  if (cell.outcome === 'not-run') return SYMBOL['not-run']
  const rest = (
    [
      [cell.failed, 'failed'],
      [cell.errored, 'errored'],
      [cell.skipped, 'skipped'],
      [cell.waived, 'waived'],
    ] as const
  )
    .filter(([n]) => n > 0)
    .map(([n, what]) => `${n} ${what}`)
  return `${SYMBOL[cell.outcome]} ${cell.passed}/${cell.total}${rest.length > 0 ? ` (${rest.join(', ')})` : ''}`
}

/** A column's heading in the wide tables: its letter and the last part of the path given. */
const columnHead = (c: CompareColumn, i: number) => `${letter(i)}: ${c.label.split(/[/\\]/).pop() || c.label}`
/** `§4.1 Conventions`, `§5.3 (in Authentication)`. */
const clauseName = (row: ClauseRow) => `${row.clause}${row.heading ? (row.heading.own ? ` ${row.heading.text}` : ` (in ${row.heading.text})`) : ''}`

const checksRun = (c: CompareColumn) => `${c.checks} (${c.complete ? 'complete run' : 'a subset of the checks'})`

/** The rows of the targets table: what each column is. */
function targetRows(columns: readonly CompareColumn[]): [string, string[]][] {
  return [
    ['Report', columns.map((c) => c.label)],
    ['Product', columns.map((c) => c.product)],
    ['Version', columns.map((c) => c.version)],
    ['Verdict', columns.map((c) => c.verdictLabel)],
    ['Date', columns.map((c) => c.date)],
    ['Suite version', columns.map((c) => c.suiteVersion)],
    ['Checks run', columns.map(checksRun)],
  ]
}

const INTRO = [
  'Each column is one target (one report); each row is one clause of the spec, in the order the spec reads, with the outcome',
  'of the checks that trace to that clause in each run. A check that traces to several clauses counts in each of them.',
]
const NUMBERS = 'The numbers: checks passed / checks of that clause in that run; in brackets, those that did not pass.'
const OPEN_CHOICES = [
  'Where the spec leaves a choice open ("not shown"), what each server chose, as its run observed it. Every choice here',
  'is legal: information, never a failure. Only observations filed under one of these questions are shown; the rest',
  "(ids queried, timings) stay in each run's report.json.",
]

export function renderCompareMarkdown(comparison: Comparison, generatedAt = new Date()): string {
  const { columns, rows, capabilities, warnings } = comparison
  const heads = columns.map((c, i) => mdCell(columnHead(c, i), 80))
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`
  const rule = (n: number) => line(Array.from({ length: n }, () => '---'))
  const out: string[] = [
    '# Conformance side by side',
    '',
    `${columns.length} target${columns.length === 1 ? '' : 's'} compared by crm-conformance ${mdCell(TOOL_VERSION)} on ${generatedAt.toISOString().slice(0, 10)}.`,
    ...INTRO,
    '',
  ]
  for (const warning of warnings) out.push(`> ⚠️ **Warning:** ${mdCell(warning, 600)}`, '')
  out.push('## Targets', '', line(['', ...heads]), rule(columns.length + 1))
  for (const [name, values] of targetRows(columns)) out.push(line([`**${name}**`, ...values.map((v) => mdCell(v, 200))]))
  out.push('', '## Legend', '')
  for (const { symbol, meaning } of LEGEND) out.push(`- ${symbol} ${meaning}`)
  out.push(`- ${DIFFERS} in the second column: the targets' outcomes differ on this clause`, `- ${NUMBERS}`, '')
  out.push('## Outcome by clause', '', line(['Clause', DIFFERS, ...heads]), rule(columns.length + 2))
  for (const row of rows) {
    out.push(line([mdCell(clauseName(row), 120), row.differs ? DIFFERS : '', ...row.cells.map(cellText)]))
  }
  if (rows.length === 0) out.push('', 'No report holds a check.')
  out.push('', '## Checks that did not pass', '')
  columns.forEach((column, i) => {
    const { lines, more } = notPassedLines(column)
    out.push(
      `- **${mdCell(columnHead(column, i), 80)}**: ${lines.length === 0 ? 'none' : lines.map((l) => mdCell(l, 160)).join('; ')}${more > 0 ? `; and ${more} more (report.json)` : ''}`,
    )
  })
  out.push('', '## Choices where the spec leaves them open', '', ...OPEN_CHOICES, '')
  for (const section of capabilities) {
    out.push(`### ${mdCell(section.heading)} (${mdCell(section.clause)})`, '')
    if (section.rows.length === 0) {
      out.push('Not observed in any of these runs.', '')
      continue
    }
    out.push(line(['Observation', DIFFERS, ...heads]), rule(columns.length + 2))
    for (const row of section.rows)
      out.push(line([mdCell(row.key, 120), row.differs ? DIFFERS : '', ...row.values.map((v) => (v === undefined ? '—' : mdCell(v, 200)))]))
    out.push('')
  }
  out.push('— in an observation row: that run did not observe it.')
  return `${out.join('\n').trimEnd()}\n`
}

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#1f2328}
table{border-collapse:collapse;margin:.5rem 0 1.5rem}th,td{border:1px solid #d0d7de;padding:.3rem .6rem;text-align:left;vertical-align:top}
th{background:#f6f8fa}td.num{white-space:nowrap}.warn{background:#fff8c5;border:1px solid #d4a72c;padding:.5rem .8rem}
.must-failed{background:#ffebe9}.should-failed{background:#fff1e5}.errored{background:#fff8c5}.passed{background:#dafbe1}
.skipped{background:#f6f8fa}.not-run{color:#656d76}tr.differs th.clause{border-left:4px solid #8250df}code{font-size:92%}`

export function renderCompareHtml(comparison: Comparison, generatedAt = new Date()): string {
  const { columns, rows, capabilities, warnings } = comparison
  // Controls and bidi characters shown as visible escapes, then markup escaped.
  const esc = (value: string) => escapeHtml(printableLine(value))
  const clip = (value: string) => (value.length > HTML_MAX_VALUE ? `${value.slice(0, HTML_MAX_VALUE)}… (cut; report.json holds it whole)` : value)
  const heads = columns.map((c, i) => `<th scope="col">${esc(columnHead(c, i))}</th>`).join('')
  const out: string[] = [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>Conformance side by side: ${columns.length} target${columns.length === 1 ? '' : 's'}</title><style>${STYLE}</style></head><body>`,
    '<h1>Conformance side by side</h1>',
    `<p>${columns.length} target${columns.length === 1 ? '' : 's'} compared by crm-conformance ${esc(TOOL_VERSION)} on ${esc(generatedAt.toISOString().slice(0, 10))}. ${esc(INTRO.join(' '))}</p>`,
  ]
  for (const warning of warnings) out.push(`<p class="warn"><strong>Warning:</strong> ${esc(warning)}</p>`)
  out.push('<h2>Targets</h2>', `<table><thead><tr><th></th>${heads}</tr></thead><tbody>`)
  for (const [name, values] of targetRows(columns)) out.push(`<tr><th scope="row">${esc(name)}</th>${values.map((v) => `<td>${esc(v)}</td>`).join('')}</tr>`)
  out.push('</tbody></table>', '<h2>Legend</h2>', '<ul>')
  for (const { outcome, symbol, meaning } of LEGEND) out.push(`<li><span class="${outcome}">${symbol}</span> ${esc(meaning)}</li>`)
  out.push(
    `<li>${DIFFERS} in the second column (and a purple edge): the targets' outcomes differ on this clause</li>`,
    `<li>${esc(NUMBERS)} Hover a cell for the ids of the checks that failed or errored.</li>`,
    '</ul>',
  )
  out.push('<h2>Outcome by clause</h2>', `<table><thead><tr><th scope="col">Clause</th><th scope="col">${DIFFERS}</th>${heads}</tr></thead><tbody>`)
  for (const row of rows) {
    const cells = row.cells.map((cell) => {
      const title = cell.failing.length > 0 ? ` title="${esc(`not passed: ${cell.failing.join(', ')}`)}"` : ''
      return `<td class="num ${cell.outcome}"${title}>${esc(cellText(cell))}</td>`
    })
    out.push(
      `<tr${row.differs ? ' class="differs"' : ''}><th scope="row" class="clause">${esc(clauseName(row))}</th><td>${row.differs ? DIFFERS : ''}</td>${cells.join('')}</tr>`,
    )
  }
  out.push('</tbody></table>')
  if (rows.length === 0) out.push('<p>No report holds a check.</p>')
  out.push('<h2>Checks that did not pass</h2>', '<ul>')
  columns.forEach((column, i) => {
    const { lines, more } = notPassedLines(column)
    const listed = lines.length === 0 ? 'none' : lines.map((l) => `<code>${esc(l)}</code>`).join('; ')
    out.push(`<li><strong>${esc(columnHead(column, i))}</strong>: ${listed}${more > 0 ? `; and ${more} more (report.json)` : ''}</li>`)
  })
  out.push('</ul>')
  out.push('<h2>Choices where the spec leaves them open</h2>', `<p>${esc(OPEN_CHOICES.join(' '))} — in a row: that run did not observe it.</p>`)
  for (const section of capabilities) {
    out.push(`<h3>${esc(section.heading)} (${esc(section.clause)})</h3>`)
    if (section.rows.length === 0) {
      out.push('<p>Not observed in any of these runs.</p>')
      continue
    }
    out.push(`<table><thead><tr><th scope="col">Observation</th><th scope="col">${DIFFERS}</th>${heads}</tr></thead><tbody>`)
    for (const row of section.rows)
      out.push(
        `<tr${row.differs ? ' class="differs"' : ''}><th scope="row" class="clause"><code>${esc(clip(row.key))}</code></th><td>${row.differs ? DIFFERS : ''}</td>${row.values
          .map((v) => `<td>${v === undefined ? '—' : `<code>${esc(clip(v))}</code>`}</td>`)
          .join('')}</tr>`,
      )
    out.push('</tbody></table>')
  }
  out.push('</body></html>')
  return `${out.join('\n')}\n`
}
