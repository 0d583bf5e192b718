// report.html's explored-share section, beside the requirement coverage: how much of the API's operation × axis ×
// value form the explorer's requests reached this run and, with `--history`, over the nights; the operations
// and the cells it reached are folded. The escape function is the page's own (html.ts).
import type { ExploredBlock } from '../coverage/explored.ts'

const pct = (share: number) => `${Math.round(share * 1000) / 10}%`

export function renderExploredSection(block: ExploredBlock | undefined, esc: (value: unknown) => string): string {
  if (!block) return ''
  const nights = block.nights
    ? `<p data-testid="explored-nights">Over ${esc(block.nights.runs)} runs of <code>${esc(block.nights.file)}</code>: ${esc(block.nights.cells)} of ${esc(block.universe)} cells (${esc(pct(block.nights.share))}), ${esc(block.nights.newTonight)} new this run.</p>`
    : '<p class="muted">Run with <code>--history FILE</code> (a new seed each night) to keep the union of the cells explored over the nights.</p>'
  return `<section id="explored" data-testid="explored"><h2>Explored share: ${esc(block.run.cells)} of ${esc(block.universe)} cells (${esc(pct(block.run.share))})</h2>
<p class="muted">The cells of the API (each operation of §4.2 on each collection × each query parameter and body field × each value form: absent, null, ASCII or other text, each enum value, a limit of 1 or 100, a date-time in Z or an offset…) the explorer's requests to the target fell in, read from the requests sent. ${esc(block.operations.reached)} of ${esc(block.operations.total)} operations reached.</p>
${nights}
<details><summary>The cells explored this run</summary><code>${esc(block.cells.join(', '))}</code></details></section>`
}
