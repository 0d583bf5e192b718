// The sections of report.html a nightly job reads first: how each fixture pool stands (src/engine/fixture-pools.ts).
import type { HistoryLine, RunReport } from './types.ts'

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

/** What the API cannot delete: this run's and earlier runs' records still there, by resource. */
export function renderFootprint(report: RunReport): string {
  const f = report.footprint
  if (!f) return ''
  const resources = [...new Set([...Object.keys(f.thisRun), ...Object.keys(f.earlierRuns)])].sort()
  const rows = resources
    .map((r) => `<tr><td>${esc(r)}</td><td class="num">${esc(f.thisRun[r] ?? 0)}</td><td class="num">${esc(f.earlierRuns[r] ?? 0)}</td></tr>`)
    .join('\n')
  return `<section id="footprint" data-testid="footprint"><h2>Footprint</h2>
<p class="muted">Records the API cannot delete (§4.2), each labelled <code>crmconf … &lt;run id&gt;</code>${f.archived ? `; ${esc(f.archived)} products were left archived` : ''}. Earlier runs: ${esc(f.method)}. docs/nightly.md says how to remove them in the application.</p>
${rows ? `<table class="kv"><thead><tr><th>resource</th><th>this run</th><th>earlier runs, still there</th></tr></thead><tbody>\n${rows}\n</tbody></table>` : '<p class="muted">None.</p>'}
</section>`
}

const VERDICT_COLOUR: Record<string, string> = { compliant: '#1a7f37', partial: '#9a6700', 'non-compliant': '#cf222e' }

/** The checks that started and stopped failing between two runs of the history. */
function changesBetween(previous: HistoryLine | undefined, current: HistoryLine): { started: string[]; stopped: string[] } {
  if (!previous) return { started: [], stopped: [] }
  const was = new Set(previous.failing)
  const now = new Set(current.failing)
  return { started: current.failing.filter((id) => !was.has(id)), stopped: previous.failing.filter((id) => !now.has(id)) }
}

/**
 * `--history`: the last runs as an inline SVG (no script): one bar per run, its height the checks failed or
 * errored, its colour the verdict, a mark where a check started (▲) or stopped (▼) failing; then those days in words.
 */
export function renderHistory(report: RunReport): string {
  const runs = report.history?.runs ?? []
  if (runs.length === 0) return ''
  const W = 640
  const H = 150
  const top = 16
  const bottom = 22
  const slot = W / Math.max(runs.length, 1)
  const most = Math.max(1, ...runs.map((r) => r.counts.failed + r.counts.errored))
  const bars = runs
    .map((r, i) => {
      const n = r.counts.failed + r.counts.errored
      const h = Math.max(2, Math.round(((H - top - bottom) * n) / most))
      const x = Math.round(i * slot + slot * 0.15)
      const w = Math.max(2, Math.round(slot * 0.7))
      const { started, stopped } = changesBetween(runs[i - 1], r)
      const marks = `${started.length ? `<text x="${x + w / 2}" y="${top - 4}" text-anchor="middle" font-size="10" fill="#cf222e">▲${started.length}</text>` : ''}${stopped.length ? `<text x="${x + w / 2}" y="${H - 2}" text-anchor="middle" font-size="10" fill="#1a7f37">▼${stopped.length}</text>` : ''}`
      return `<g><title>${esc(`${r.date.slice(0, 16).replace('T', ' ')} ${r.verdict}: ${r.counts.failed} failed, ${r.counts.errored} errored, ${r.counts.skipped} skipped (run ${r.runId}, ${r.version})`)}</title><rect x="${x}" y="${H - bottom - h}" width="${w}" height="${h}" fill="${VERDICT_COLOUR[r.verdict] ?? '#6e7781'}"/>${marks}</g>`
    })
    .join('')
  const days = runs
    .map((r, i) => ({ r, ...changesBetween(runs[i - 1], r) }))
    .filter((d) => d.started.length || d.stopped.length)
    .reverse()
    .map(
      (d) =>
        `<li><strong>${esc(d.r.date.slice(0, 10))}</strong> <code>${esc(d.r.runId)}</code>${d.started.length ? ` started failing: ${d.started.map((id) => `<code>${esc(id)}</code>`).join(', ')}` : ''}${d.started.length && d.stopped.length ? ';' : ''}${d.stopped.length ? ` stopped failing: ${d.stopped.map((id) => `<code>${esc(id)}</code>`).join(', ')}` : ''}</li>`,
    )
    .join('\n')
  return `<section id="history" data-testid="history"><h2>Trend (last ${runs.length} runs)</h2>
${report.history!.warning ? `<p data-testid="history-warning"><strong>${esc(report.history!.warning)}</strong></p>\n` : ''}<p class="muted">From <code>${esc(report.history!.file)}</code>. Bar height: checks failed or errored (the highest is ${most}); colour: the verdict; ▲ checks that started failing, ▼ checks that stopped.</p>
<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="failed checks per run"><line x1="0" y1="${H - bottom}" x2="${W}" y2="${H - bottom}" stroke="#d8dee4"/>${bars}</svg>
${days ? `<ul>\n${days}\n</ul>` : '<p class="muted">No check started or stopped failing over these runs.</p>'}
</section>`
}
