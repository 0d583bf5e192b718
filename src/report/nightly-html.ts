// The sections of report.html a nightly job reads first: how each fixture pool stands (src/engine/fixture-pools.ts).
import type { RunReport } from './types.ts'

const esc = (value: unknown): string => String(value).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

/** One line per fixture pool; an empty pool that makes MUST checks skip is marked. Nothing when the report has none. */
export function renderFixturePools(report: RunReport): string {
  const pools = report.fixturePools ?? []
  if (pools.length === 0) return ''
  const rows = pools.map((p) => `<li${p.mustSkips.length ? ' class="pool-empty"' : ''} data-fixture="${esc(p.fixture)}">${esc(p.line)}</li>`).join('\n')
  return `<section id="fixture-pools" data-testid="fixture-pools"><h2>Fixture pools</h2>
<p class="muted">The records the API cannot make (CRM_FIXTURE_*), read before the checks started: what is still usable and how many runs like this one it serves.</p>
<ul>
${rows}
</ul>
</section>`
}
