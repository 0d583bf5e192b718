// report.html's requirement-coverage section: folded by default, one row per MUST/SHOULD statement with its
// covered share, and the open cells under each reason folded again. The escape function is the page's own
// (html.ts), handed in so this module imports nothing of the page.
import type { CoverageBlock } from '../coverage/matrix.ts'

const SHOWN_CELLS = 40

const percent = (covered: number, cells: number) => `${cells === 0 ? 100 : Math.round((covered / cells) * 1000) / 10}%`

export function renderCoverageSection(block: CoverageBlock | undefined, esc: (value: unknown) => string): string {
  if (!block) return ''
  const { summary } = block
  const rows = block.statements.map((s) => {
    const open = s.open
      .map((g) => {
        const shown = g.cells.slice(0, SHOWN_CELLS)
        const more = g.cells.length > shown.length ? ` … ${g.cells.length - shown.length} more` : ''
        return `<details><summary>${esc(g.cells.length)} open (${esc(g.kind)}): ${esc(g.reason)}</summary><code>${esc(shown.join(', '))}${esc(more)}</code></details>`
      })
      .join('')
    const below = s.belowLevel?.length
      ? `<details><summary>${esc(s.belowLevel.length)} judged only below MUST</summary><code>${esc(s.belowLevel.slice(0, SHOWN_CELLS).join(', '))}</code></details>`
      : ''
    return `<tr data-testid="coverage-row" data-statement="${esc(s.statement)}"><td><code>${esc(s.statement)}</code></td><td>${esc(s.level)}</td><td>${esc(s.covered)}/${esc(s.cells)}</td><td>${esc(percent(s.covered, s.cells))}</td><td>${below}${open}</td></tr>`
  })
  return `<section id="coverage" data-testid="coverage"><h2>Requirement coverage: ${esc(summary.covered)} of ${esc(summary.cells)} cells (${esc(percent(summary.covered, summary.cells))})</h2><details><summary>The matrix, per statement</summary>
<p class="muted">Each MUST and SHOULD statement of the spec, split into the cells along which an implementation can break it (every filter, page, field, operation, key, state, event). A cell counts when a check that judges it reached a verdict in this run; the open ones say why (not built yet, needs a fixture, too costly, not observable through the API, not run here). <code>crm-conformance coverage</code> prints the same matrix for the whole catalogue.</p>
<table><thead><tr><th>statement</th><th>level</th><th>cells</th><th>share</th><th>open cells</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table></details></section>`
}
