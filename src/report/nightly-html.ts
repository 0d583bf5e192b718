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

/** `--rerun-failed` / `--repeat`: each labelled check with the outcome of every repetition and its seed. */
export function renderRerun(report: RunReport): string {
  const rerun = report.rerun
  if (!rerun) return ''
  const from = rerun.from ? `Re-run of the checks that failed or errored in run <code>${esc(rerun.from.runId ?? rerun.from.path)}</code>. ` : ''
  const rows = rerun.checks
    .map(
      (c) =>
        `<tr class="label-${esc(c.label.replace(/ /g, '-'))}"><td><strong>${esc(c.label)}</strong></td><td><code>${esc(c.id)}</code></td><td>${esc(c.before ?? '—')}</td><td>${c.outcomes.map((o) => `${esc(o.status)} (seed ${esc(o.seed)})`).join(', ')}</td></tr>`,
    )
    .join('\n')
  return `<section id="rerun" data-testid="rerun"><h2>Re-run (${rerun.checks.length})</h2>
<p class="muted">${from}Each check ran ${esc(rerun.repeat)} time${rerun.repeat === 1 ? '' : 's'} (seeds ${esc(rerun.seeds.join(', '))}). <strong>fixed</strong>: passed every time; <strong>still failing</strong>: failed or errored every time; <strong>flaky</strong>: both.</p>
${rows ? `<table class="kv"><thead><tr><th>label</th><th>check</th><th>before</th><th>each repetition</th></tr></thead><tbody>\n${rows}\n</tbody></table>` : '<p class="muted">No check passed and failed.</p>'}
</section>`
}
