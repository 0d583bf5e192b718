// report.html: one self-contained page (inline CSS, no script, no external asset). Every text is escaped:
// response bodies, headers and even check messages may carry a hostile server's markup.
import { renderFixturePools, renderFootprint, renderHistory, renderRerun } from './nightly-html.ts'
import type { CheckResult, EvidenceItem, Level } from '../checks/types.ts'
import type { Exchange } from '../http/exchange.ts'
import { LEVELS, outcomeOf } from './build.ts'
import type { Outcome } from './build.ts'
import { compareByLevelClauseId, compareClauses, compareLevels } from './clause-order.ts'
import { renderCoverageSection } from './coverage-html.ts'
import { renderExploredSection } from './explored-html.ts'
import type { RunReport, Verdict } from './types.ts'
import { rowReplay, type ReplayRun } from './replay-line.ts'

/** Longest body, detail or value shown on the page; report.json keeps the whole text. */
export const HTML_MAX_BODY_CHARS = 20_000
/** Verdict reasons shown unfolded in the header; the rest fold. */
const HEADER_REASONS = 8
const SHORT_DIGEST = 12

export interface RenderHtmlOptions {
  /** A clause's heading (e.g. from the clause registry): `§4.1` → `Conventions`. */
  clauseTitle?: (clause: string) => string | undefined
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Escapes for text and for quoted attribute values alike. */
export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c])
}

const esc = escapeHtml

function clip(text: string, max = HTML_MAX_BODY_CHARS): string {
  return text.length > max ? `${text.slice(0, max)}\n… cut at ${max} characters on this page; report.json holds the whole text` : text
}

function stringifySafe(value: unknown): string {
  try {
    return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2) ?? String(value)
  } catch {
    return String(value)
  }
}

function pretty(value: unknown): string {
  if (value === undefined) return ''
  return typeof value === 'string' ? value : stringifySafe(value)
}

export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '–'
  if (ms < 1000) return `${Math.round(ms)} ms`
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`
  const s = Math.round(ms / 1000)
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  const rest = String(s % 60).padStart(2, '0')
  return h > 0 ? `${h} h ${String(m).padStart(2, '0')} min ${rest} s` : `${m} min ${rest} s`
}

function formatDate(iso: string): string {
  const ms = Date.parse(iso)
  return Number.isFinite(ms)
    ? `${new Date(ms)
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, ' UTC')}`
    : iso
}

const VERDICT_LABEL: Record<Verdict, string> = { compliant: 'Compliant', partial: 'Partial', 'non-compliant': 'Non-compliant' }
const OUTCOMES: Outcome[] = ['passed', 'failed', 'waived', 'skipped', 'errored']

function badge(outcome: Outcome): string {
  return `<span class="badge o-${outcome}">${esc(outcome)}</span>`
}

function levelBadge(level: Level): string {
  return `<span class="badge l-${esc(level)}">${esc(level)}</span>`
}

/** A check declared without a clause still gets a readable heading. */
function clauseLabel(clause: string): string {
  return clause.trim() === '' ? '(no clause)' : clause
}

function headersText(headers: Record<string, string> | undefined): string {
  return Object.entries(headers ?? {})
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n')
}

function renderExchange(item: EvidenceItem, prefix: string): string {
  const x: Exchange | undefined = item.exchange
  const request = x?.request
  const response = x?.response
  const requestText = request
    ? [`${request.method} ${request.url}`, headersText(request.headers), request.body === undefined ? '' : `\n${pretty(request.body)}`]
        .filter((s) => s !== '')
        .join('\n')
    : '(no request recorded)'
  let responseText: string
  if (response) {
    const body = response.rawText ?? pretty(response.body)
    responseText = [`HTTP ${response.status}`, headersText(response.headers), body === '' ? '' : `\n${body}`].filter((s) => s !== '').join('\n')
    if (response.truncated) responseText += '\n… (body cut at the size cap by the client)'
  } else {
    responseText = x?.error ? `No response: ${x.error.code}: ${x.error.message}` : 'No response.'
  }
  const head = x
    ? `#${esc(x.seq)} · key <code>${esc(x.keyRole)}</code> · ${esc(request?.method ?? '')} <code>${esc(request?.url ?? '')}</code> → ${response ? esc(response.status) : esc(x.error?.code ?? 'no response')} · ${esc(formatDuration(x.durationMs))}`
    : 'exchange'
  return `<div class="exchange">
<p class="xhead">${head}</p>
<div class="pair"><div><h5>Request</h5><pre class="http">${esc(clip(requestText))}</pre></div><div><h5>Response</h5><pre class="http">${esc(clip(responseText))}</pre></div></div>
<h5>curl</h5><pre class="copy curl" data-testid="${prefix}-curl">${esc(item.curl)}</pre>
</div>`
}

function renderCheckArticle(check: CheckResult, run: ReplayRun, prefix: 'failure' | 'errored' | 'waived', options: RenderHtmlOptions): string {
  const evidence = check.evidence ?? []
  const others = check.clauses?.filter((c) => c !== check.clause) ?? []
  const clauseTitle = options.clauseTitle?.(check.clause)
  const parts = [
    `<article class="check k-${prefix}" id="check-${esc(check.id)}" data-testid="${prefix}" data-check-id="${esc(check.id)}" data-level="${esc(check.level)}">`,
    `<h3>${levelBadge(check.level)} <code class="id">${esc(check.id)}</code> <span class="clause" data-testid="${prefix}-clause"${clauseTitle ? ` title="${esc(clauseTitle)}"` : ''}>${esc(clauseLabel(check.clause))}</span>${others.length ? ` <span class="muted">also ${esc(others.join(', '))}</span>` : ''}</h3>`,
    `<p class="title">${esc(check.title)}</p>`,
    `<p class="message" data-testid="${prefix}-message">${esc(check.message)}</p>`,
  ]
  if (check.expected) parts.push(`<p class="expected"><strong>Expected:</strong> ${esc(check.expected)}</p>`)
  if (check.waived)
    parts.push(
      `<p class="waiver"><strong>Waived:</strong> ${esc(check.waived.reason)}${check.waived.expires ? ` (until ${esc(check.waived.expires)})` : ''}</p>`,
    )
  if (check.notes?.length) parts.push(`<ul class="notes">${check.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>`)
  parts.push(`<p class="replay-line">Replay: <code class="copy" data-testid="${prefix}-replay">${esc(rowReplay(check, run))}</code></p>`)
  if (check.declaredAt) parts.push(`<p class="declared">Declared at <code class="copy" data-testid="${prefix}-declared">${esc(check.declaredAt)}</code></p>`)
  parts.push(
    `<details class="evidence" data-testid="${prefix}-evidence"><summary>Evidence: ${evidence.length} exchange${evidence.length === 1 ? '' : 's'}, ${esc(formatDuration(check.durationMs))}</summary>`,
    evidence.length ? evidence.map((item) => renderExchange(item, prefix)).join('\n') : '<p class="muted">No exchange was recorded.</p>',
  )
  if (check.data !== undefined) parts.push(`<h5>Detail</h5><pre class="data">${esc(clip(pretty(check.data)))}</pre>`)
  parts.push('</details>', '</article>')
  return parts.join('\n')
}

function countsTable(report: RunReport): string {
  const row = (label: string, c: Record<Outcome | 'total', number>) =>
    `<tr><th scope="row">${esc(label)}</th>${OUTCOMES.map((o) => `<td class="${c[o] > 0 ? `n-${o}` : 'zero'}">${esc(c[o])}</td>`).join('')}<td>${esc(c.total)}</td></tr>`
  const s = report.summary
  return `<table class="counts" data-testid="counts"><thead><tr><th></th>${OUTCOMES.map((o) => `<th scope="col">${esc(o)}</th>`).join('')}<th scope="col">total</th></tr></thead><tbody>
${LEVELS.map((level) => row(level, s.byLevel[level] ?? { passed: 0, failed: 0, waived: 0, skipped: 0, errored: 0, total: 0 })).join('\n')}
${row('All', s)}
</tbody></table>`
}

/** What the verdict covers, under it; nothing for a complete run. */
function scopeParagraph(report: RunReport): string {
  const label = report.verdictLabel ?? report.verdict
  if (label === report.verdict) return ''
  const out = report.scope?.outOfScope.length
    ? ` ${report.scope.outOfScope.length} selected checks are out of scope for the ${report.profile} profile and were not judged.`
    : ''
  return `<p class="scope" data-testid="verdict-scope">${esc(label.startsWith(report.verdict) ? label.slice(report.verdict.length).trim() : label)}${esc(out)}</p>\n`
}

/** A traffic report's headline: the server's verdict on observed traffic, in the colours of a run's verdicts. */
const TRAFFIC_TONE = {
  conformant: { cls: 'compliant', text: 'conformant on observed traffic' },
  partial: { cls: 'partial', text: 'partial on observed traffic' },
  violations: { cls: 'non-compliant', text: 'server not conformant' },
  'nothing-verified': { cls: 'partial', text: 'nothing verified' },
} as const

function renderHeader(report: RunReport): string {
  const digest = report.spec.digest ?? ''
  const traffic = report.traffic?.headline
  const tone = traffic ? TRAFFIC_TONE[traffic.tone] : undefined
  const reasons = report.verdictReasons ?? []
  const reasonList = (items: string[]) => `<ul class="reasons">${items.map((r) => `<li>${esc(r)}</li>`).join('')}</ul>`
  const target = report.target
  const targetText = `${target.baseUrl}${target.embedded ? ' (embedded reference server' + (target.variant ? `, variant ${target.variant}` : '') + (target.faults?.length ? `, faults ${target.faults.join(', ')}` : '') + ')' : ''}`
  const field = (label: string, value: string) => `<div><dt>${esc(label)}</dt><dd>${value}</dd></div>`
  return `<header class="v-${esc(tone?.cls ?? report.verdict)}" data-testid="report-header">
<p class="verdict" data-testid="verdict" data-verdict="${esc(report.verdict)}">${esc(tone?.text ?? VERDICT_LABEL[report.verdict] ?? report.verdict)}</p>${traffic ? `\n<p class="scope" data-testid="traffic-client">${esc(traffic.client)}</p>` : ''}
${report.interrupted ? `<p class="interrupted" data-testid="interrupted"><strong>Interrupted</strong>: ${esc(report.interrupted.reason)}; the checks it did not reach are listed as not run (${esc(report.requests.total)} requests sent).</p>` : ''}${(report.secretsMasked ?? []).map((m) => `<p class="masked" data-testid="secret-masked"><strong>A secret was masked</strong>: ${esc(m.secret)} (${esc(m.encoding)}, ${esc(m.count)}×) appeared in what the server sent back.</p>`).join('')}
${scopeParagraph(report)}${reasons.length ? reasonList(reasons.slice(0, HEADER_REASONS)) : ''}${reasons.length > HEADER_REASONS ? `<details><summary>${reasons.length - HEADER_REASONS} more reasons</summary>${reasonList(reasons.slice(HEADER_REASONS))}</details>` : ''}
<dl class="meta">
${field('Suite', `${esc(report.tool.name)} ${esc(report.tool.version)}`)}
${field('Spec digest', `<abbr class="digest" title="sha256:${esc(digest)}" data-testid="spec-digest">${esc(digest.slice(0, SHORT_DIGEST))}</abbr> <span class="muted">${esc(report.spec.file)}</span>`)}
${field('Target', `<code>${esc(targetText)}</code>`)}
${report.traffic ? '' : `${field('Profile', esc(report.profile))}\n${field('Seed', `<code>${esc(report.seed)}</code>`)}`}
${field('Date', esc(formatDate(report.startedAt)))}
${field('Duration', esc(formatDuration(report.durationMs)))}
${field('Run id', `<code>${esc(report.runId)}</code>`)}
</dl>
${countsTable(report)}
<p class="replay-line">Replay the run: <code class="copy">${esc(report.replay)}</code></p>
</header>`
}

function renderArticleSection(
  id: string,
  testid: string,
  heading: string,
  intro: string,
  checks: CheckResult[],
  run: ReplayRun,
  prefix: 'failure' | 'errored' | 'waived',
  options: RenderHtmlOptions,
): string {
  const body = checks.length ? checks.map((c) => renderCheckArticle(c, run, prefix, options)).join('\n') : `<p class="muted">None.</p>`
  return `<section id="${id}" data-testid="${testid}"><h2>${esc(heading)} (${checks.length})</h2>${intro ? `<p class="muted">${esc(intro)}</p>` : ''}
${body}
</section>`
}

function renderByClause(report: RunReport, options: RenderHtmlOptions): string {
  const groups = new Map<string, CheckResult[]>()
  for (const check of report.checks) {
    const list = groups.get(check.clause) ?? []
    list.push(check)
    groups.set(check.clause, list)
  }
  const clauses = [...groups.keys()].sort(compareClauses)
  const linked = new Set<Outcome>(['failed', 'errored', 'waived'])
  const sections = clauses.map((clause) => {
    const checks = [...(groups.get(clause) ?? [])].sort((a, b) => compareLevels(a.level, b.level) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    const tally = OUTCOMES.map((o) => [o, checks.filter((c) => outcomeOf(c) === o).length] as const).filter(([, n]) => n > 0)
    const title = options.clauseTitle?.(clause)
    const rows = checks.map((c) => {
      const outcome = outcomeOf(c)
      const idCode = linked.has(outcome) ? `<a href="#check-${esc(c.id)}"><code>${esc(c.id)}</code></a>` : `<code>${esc(c.id)}</code>`
      // Where the check is declared, from the package root: the row leads to the code that judged it.
      const idCell = c.declaredAt ? `${idCode}<span class="decl" data-testid="check-declared">${esc(c.declaredAt)}</span>` : idCode
      const text = outcome === 'passed' ? '' : outcome === 'waived' ? `${c.message} — waived: ${c.waived?.reason ?? ''}` : c.message
      return `<tr data-testid="check-row" data-check-id="${esc(c.id)}" data-status="${esc(outcome)}"><td>${badge(outcome)}</td><td>${levelBadge(c.level)}</td><td>${idCell}</td><td>${esc(c.title)}</td><td class="msg">${esc(clip(text, 2_000))}</td><td class="num">${esc(c.requests)}</td><td class="num">${esc(formatDuration(c.durationMs))}</td></tr>`
    })
    return `<section class="clause-group" id="clause-${esc(clause)}" data-testid="clause-group" data-clause="${esc(clause)}">
<h3>${esc(clauseLabel(clause))}${title ? ` <span class="muted">${esc(title)}</span>` : ''} <span class="tally">${tally.map(([o, n]) => `${badge(o)} ${n}`).join(' ')}</span></h3>
<table class="checks"><thead><tr><th>status</th><th>level</th><th>check</th><th>title</th><th>message / skip reason</th><th>req.</th><th>time</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table></section>`
  })
  return `<section id="by-clause" data-testid="by-clause"><h2>All checks by clause (${report.checks.length})</h2>
<nav class="toc">${clauses.map((c) => `<a href="#clause-${esc(c)}">${esc(clauseLabel(c))}</a>`).join(' ')}</nav>
${sections.join('\n')}
</section>`
}

function keyValueTable(entries: [string, unknown][], keyLabel: string, valueLabel: string): string {
  if (entries.length === 0) return '<p class="muted">None.</p>'
  const cell = (v: unknown) => {
    const text = pretty(v)
    return typeof v === 'object' && v !== null ? `<pre>${esc(clip(text))}</pre>` : `<code>${esc(clip(text))}</code>`
  }
  return `<table class="kv"><thead><tr><th>${esc(keyLabel)}</th><th>${esc(valueLabel)}</th></tr></thead><tbody>
${entries.map(([k, v]) => `<tr><td><code>${esc(k)}</code></td><td>${cell(v)}</td></tr>`).join('\n')}
</tbody></table>`
}

function renderCapabilities(report: RunReport): string {
  const entries = Object.entries(report.capabilities ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return `<section id="capabilities" data-testid="capabilities"><h2>Capabilities</h2>
<p class="muted">What the server chose where the spec leaves the choice open ("not shown"). Information, never a failure. Keys are <code>&lt;check id&gt;.&lt;observation&gt;</code>.</p>
${keyValueTable(entries, 'observation', 'value')}
</section>`
}

function renderLeftovers(report: RunReport): string {
  const leftovers = report.leftovers ?? []
  const body = leftovers.length
    ? `<table class="kv"><thead><tr><th>resource</th><th>id</th><th>reason</th></tr></thead><tbody>
${leftovers.map((l) => `<tr><td>${esc(l.resource)}</td><td><code>${esc(l.id)}</code></td><td>${esc(l.reason)}</td></tr>`).join('\n')}
</tbody></table>`
    : '<p class="muted">None: every record the run created was removed.</p>'
  return `<section id="leftovers" data-testid="leftovers"><h2>Leftovers (${leftovers.length})</h2>
<p class="muted">Records the run created and could not remove through the API.</p>
${body}
</section>`
}

function renderRequests(report: RunReport): string {
  const r = report.requests
  const sorted = (m: Record<string, number> | undefined) => Object.entries(m ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) as [string, unknown][]
  return `<section id="requests" data-testid="requests"><h2>Requests (${esc(r?.total ?? 0)})</h2>
<div class="cols">
<div><h3>By area</h3>${keyValueTable(sorted(r?.byArea), 'area', 'requests')}</div>
<div><h3>By key</h3>${keyValueTable(sorted(r?.byKey), 'key', 'requests')}</div>
<div><h3>Rate limited (429)</h3>${keyValueTable(sorted(r?.rateLimited), 'key', 'responses')}</div>
</div>
</section>`
}

function renderConfig(report: RunReport): string {
  return `<section id="config" data-testid="config"><h2>Configuration</h2>
<p class="muted">As resolved for this run; every secret is replaced by the name of its variable.</p>
<pre class="data">${esc(clip(pretty(report.config)))}</pre>
</section>`
}

const CSS = `
:root{--fg:#1b1f24;--muted:#5f6b7a;--line:#d8dee4;--bg:#fff;--soft:#f6f8fa;--pass:#1a7f37;--fail:#cf222e;--warn:#9a6700;--err:#8250df;--skip:#6e7781}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
main,header{max-width:1400px;margin:0 auto;padding:16px 24px}
header{border-bottom:6px solid var(--skip)}
header.v-compliant{border-color:var(--pass)}header.v-partial{border-color:var(--warn)}header.v-non-compliant{border-color:var(--fail)}
.verdict{font-size:2.6em;font-weight:800;margin:0 0 6px;text-transform:uppercase;letter-spacing:.02em}
.scope{font-size:1.2em;font-weight:600;margin:0 0 8px}
.v-compliant .verdict{color:var(--pass)}.v-partial .verdict{color:var(--warn)}.v-non-compliant .verdict{color:var(--fail)}
.reasons{margin:4px 0 8px;padding-left:20px}
.meta{display:flex;flex-wrap:wrap;gap:6px 28px;margin:8px 0}
.meta dt{font-size:.8em;color:var(--muted);text-transform:uppercase}.meta dd{margin:0}
abbr.digest{text-decoration:underline dotted;cursor:help;font-family:ui-monospace,SFMono-Regular,Menlo,monospace}
h2{margin:28px 0 8px;padding-bottom:4px;border-bottom:1px solid var(--line)}
h3{margin:16px 0 6px;font-size:1.05em}h5{margin:8px 0 2px;font-size:.85em;color:var(--muted)}
table{border-collapse:collapse;margin:4px 0}th,td{border:1px solid var(--line);padding:2px 8px;text-align:left;vertical-align:top}
th{background:var(--soft);font-weight:600}
table.counts td{text-align:right;min-width:4.5em}table.counts td.zero{color:var(--muted)}
td.n-failed{color:var(--fail);font-weight:700}td.n-errored{color:var(--err);font-weight:700}td.n-waived{color:var(--warn)}
table.checks{width:100%;font-size:.92em}table.checks td.msg{max-width:48em;overflow-wrap:anywhere;white-space:pre-wrap}
td.num{text-align:right;white-space:nowrap}
.badge{display:inline-block;padding:0 6px;border-radius:9px;font-size:.8em;font-weight:700;color:#fff;background:var(--skip);white-space:nowrap}
.o-passed{background:var(--pass)}.o-failed{background:var(--fail)}.o-errored{background:var(--err)}.o-waived{background:var(--warn)}.o-skipped{background:var(--skip)}
.l-MUST{background:#24292f}.l-SHOULD{background:#57606a}.l-INFO{background:#8c959f}
article.check{border:1px solid var(--line);border-left:6px solid var(--fail);border-radius:4px;margin:10px 0;padding:4px 14px 8px}
article.k-errored{border-left-color:var(--err)}article.k-waived{border-left-color:var(--warn)}
article .message{font-weight:600;white-space:pre-wrap;overflow-wrap:anywhere}article .title{margin:2px 0;color:var(--muted)}
.clause{font-weight:700}.muted{color:var(--muted)}
.decl{display:block;font:11px ui-monospace,SFMono-Regular,Menlo,monospace;color:var(--muted);user-select:all}
pre{background:var(--soft);border:1px solid var(--line);border-radius:4px;padding:6px 8px;margin:2px 0;overflow:auto;max-height:28em;white-space:pre-wrap;overflow-wrap:anywhere;font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.92em;overflow-wrap:anywhere}
.copy{user-select:all}
.pair{display:grid;grid-template-columns:1fr 1fr;gap:10px}@media (max-width:900px){.pair{grid-template-columns:1fr}}
.exchange{border-top:1px dashed var(--line);margin-top:8px;padding-top:4px}.xhead{margin:2px 0;font-size:.9em}
details>summary{cursor:pointer;color:var(--muted)}
.toc a{margin-right:8px}.tally{font-weight:400;font-size:.85em;margin-left:8px}
.cols{display:flex;flex-wrap:wrap;gap:8px 40px}
li.pool-empty{color:var(--warn);font-weight:600}
nav.sections a{margin-right:14px}
.verdict,.meta dd,nav.sections,h2,h3{overflow-wrap:anywhere}
@media (max-width:700px){body{overflow-wrap:break-word}main,header{padding:12px 10px}.verdict{font-size:1.9em}.pair{grid-template-columns:minmax(0,1fr)}table{display:block;max-width:100%;overflow-x:auto}article.check{padding:4px 8px 8px}}
`

function renderRunSections(failures: CheckResult[], errored: CheckResult[], waived: CheckResult[], run: ReplayRun, options: RenderHtmlOptions): string {
  return `<nav class="sections"><a href="#failures">Failures (${failures.length})</a>${errored.length ? `<a href="#errors">Harness errors (${errored.length})</a>` : ''}${waived.length ? `<a href="#waived">Waived (${waived.length})</a>` : ''}<a href="#by-clause">By clause</a><a href="#capabilities">Capabilities</a><a href="#leftovers">Leftovers</a><a href="#requests">Requests</a><a href="#config">Configuration</a></nav>
${renderArticleSection('failures', 'failures', 'Failures', 'The server broke these clauses. MUST first, then SHOULD, in clause order.', failures, run, 'failure', options)}`
}

/** Observed traffic: what the server broke, and apart from it what the client broke; no suite-only sections. */
function renderTrafficSections(report: RunReport, failures: CheckResult[], options: RenderHtmlOptions): string {
  const bySide = (side: string) => failures.filter((c) => ((c as { side?: string }).side ?? 'server') === side)
  const server = bySide('server')
  const client = bySide('client')
  return `<nav class="sections"><a href="#failures">Server violations (${server.length})</a><a href="#client-violations">Client violations (${client.length})</a><a href="#by-clause">By clause</a><a href="#requests">Requests</a><a href="#config">Configuration</a></nav>
${renderArticleSection('failures', 'failures', 'Server violations', 'The server broke these clauses in the traffic observed. MUST first, then SHOULD, in clause order.', server, report, 'failure', options)}
${renderArticleSection('client-violations', 'client-violations', 'Client violations', 'The client broke these clauses: the server is not blamed for them.', client, report, 'failure', options)}`
}

/** The whole page. Failures come first, then harness errors and waived failures, then every check by clause. */
export function renderHtml(report: RunReport, options: RenderHtmlOptions = {}): string {
  const byOutcome = (o: Outcome) => report.checks.filter((c) => outcomeOf(c) === o).sort(compareByLevelClauseId)
  const failures = byOutcome('failed')
  const errored = byOutcome('errored')
  const waived = byOutcome('waived')
  const title = `CRM API conformance: ${VERDICT_LABEL[report.verdict] ?? report.verdict}${report.verdictLabel && report.verdictLabel !== report.verdict ? ` ${report.verdictLabel.startsWith(report.verdict) ? report.verdictLabel.slice(report.verdict.length).trim() : `(${report.verdictLabel})`}` : ''} — ${report.target.baseUrl}`
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">
<title>${esc(title)}</title>
<style>${CSS}</style>
</head>
<body>
${renderHeader(report)}
<main>
${report.traffic ? renderTrafficSections(report, failures, options) : renderRunSections(failures, errored, waived, report, options)}
${errored.length ? renderArticleSection('errors', 'errors', 'Harness errors', 'These checks could not run to a verdict (network fault, timeout, a bug of the suite): the clause is unverified.', errored, report, 'errored', options) : ''}
${waived.length ? renderArticleSection('waived', 'waived', 'Waived failures', 'Failed, but covered by a waiver: not counted as failures.', waived, report, 'waived', options) : ''}
${renderRerun(report)}
${renderHistory(report)}
${renderByClause(report, options)}
${report.traffic ? '' : renderCoverageSection(report.coverage, esc)}
${report.traffic ? '' : renderExploredSection(report.explored, esc)}
${report.traffic ? '' : `${renderCapabilities(report)}\n${renderFixturePools(report)}\n${renderFootprint(report)}\n${renderLeftovers(report)}`}
${renderRequests(report)}
${renderConfig(report)}
</main>
</body>
</html>
`
}
