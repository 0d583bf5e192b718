// The report of observed traffic: the RunReport of a suite run (same files, same writers), with one row per
// traffic rule and a `traffic` section. Its verdict speaks only for what the traffic exercised. Pure.
import type { Level } from '../checks/types.ts'
import { summarize } from '../report/build.ts'
import type { RunReport, TrafficReportSection, TrafficShardSection, Verdict } from '../report/types.ts'
import { TOOL_VERSION } from '../version.ts'
import type { TrafficRow } from './verifier.ts'

export type FailOn = 'must' | 'should'

export interface TrafficReportInput {
  rows: TrafficRow[]
  exchanges: number
  /** Exchanges the server answered. */
  answered: number
  source: TrafficReportSection['source']
  files: string[]
  basePath: string
  failOn: FailOn
  /** Where the traffic went: the proxy's target, or what the files show (first exchange's origin and base path). */
  targetUrl: string
  spec: RunReport['spec']
  runId: string
  startedAt: string
  finishedAt: string
  /** The command that judges the same traffic again. */
  replay: string
  config: Record<string, unknown>
  interrupted?: RunReport['interrupted']
}

const gatingLevels = (failOn: FailOn): Level[] => (failOn === 'should' ? ['MUST', 'SHOULD'] : ['MUST'])

/**
 * 1 when a rule at the --fail-on level (MUST, or MUST and SHOULD) was broken by either side; 2 when no rule was
 * exercised at all (no exchange of the API, or a wrong --base-path): traffic that judged nothing never passes,
 * as a suite run that tested nothing does not (src/report/build.ts exitCodeFor); else 0.
 */
export function trafficExitCode(rows: readonly TrafficRow[], failOn: FailOn, answered = Infinity): 0 | 1 | 2 {
  // Calls the server never answered verify nothing of it, whatever a client rule said of them.
  if (answered === 0) return 2
  const gating = gatingLevels(failOn)
  if (rows.some((r) => r.status === 'failed' && gating.includes(r.level))) return 1
  return rows.some((r) => r.status !== 'skipped') ? 0 : 2
}

const count = (n: number) => n.toLocaleString('en-US')

const plural = (n: number, word: string) => `${count(n)} ${word}${n === 1 ? '' : 's'}`

export interface TrafficVerdict {
  /** The server's: `non-compliant` when it broke a MUST rule; `compliant` only when every MUST rule was exercised and held; else `partial`. */
  verdict: Verdict
  label: string
  reasons: string[]
  headline: NonNullable<TrafficReportSection['headline']>
}

/**
 * The server's verdict on observed traffic (`conformant on observed traffic: 1,204 exchanges, 61 of 61 rules
 * exercised`; `partial on observed traffic: …` while a MUST rule was not exercised; or what it broke), with the client's violations named apart: a client's mistake never makes the
 * server non-conformant. Traffic the server answered none of verified nothing.
 */
export function trafficVerdict(rows: readonly TrafficRow[], exchanges: number, answered = exchanges): TrafficVerdict {
  const exercised = rows.filter((r) => r.status !== 'skipped').length
  const coverage = `${plural(exchanges, 'exchange')}, ${exercised} of ${rows.length} rules exercised`
  const must = rows.filter((r) => r.level === 'MUST')
  const brokenByServer = must.filter((r) => r.status === 'failed' && r.side !== 'client')
  const brokenByClient = rows.filter((r) => r.status === 'failed' && r.side === 'client')
  const unexercised = must.filter((r) => r.status === 'skipped')
  const reasons = [...brokenByServer, ...brokenByClient.filter((r) => r.level === 'MUST')].map(
    (r) => `MUST ${r.id} (${r.clause}) broken by the ${r.side ?? 'server'}: ${r.message.replace(/\s+/g, ' ').slice(0, 300)}`,
  )
  if (unexercised.length > 0) reasons.push(`${unexercised.length} of ${must.length} MUST rules not exercised: nothing in the traffic let them judge`)
  const client = brokenByClient.length === 0 ? 'no client violation' : `the client broke ${plural(brokenByClient.length, 'rule')}`
  if (exchanges === 0 || answered === 0 || exercised === 0) {
    const why =
      exchanges === 0
        ? 'no exchange of the API (check --base-path)'
        : answered === 0
          ? `the server answered none of ${plural(exchanges, 'call')} (failed in the client, or the target was unreachable)`
          : 'no rule was exercised'
    const label = `nothing verified: ${why}; ${coverage}`
    return { verdict: 'partial', label, reasons: [`nothing verified: ${why}`, ...reasons], headline: { tone: 'nothing-verified', text: label, client } }
  }
  if (brokenByServer.length > 0) {
    const label = `server not conformant on observed traffic: ${plural(brokenByServer.length, 'MUST rule')} broken; ${coverage}`
    return { verdict: 'non-compliant', label, reasons, headline: { tone: 'violations', text: label, client } }
  }
  // No MUST rule broken, but some never exercised: as a suite run with a MUST check skipped, `partial`, and the
  // label says so (rule 2: nothing untested is called conformant).
  if (unexercised.length > 0) {
    const label = `partial on observed traffic: no MUST rule broken, ${unexercised.length} of ${must.length} MUST rules not exercised; ${coverage}`
    return { verdict: 'partial', label, reasons, headline: { tone: 'partial', text: label, client } }
  }
  const label = `conformant on observed traffic: ${coverage}`
  return { verdict: 'compliant', label, reasons, headline: { tone: 'conformant', text: label, client } }
}

export function buildTrafficReport(input: TrafficReportInput): RunReport {
  const rows = input.rows.map((row) => ({ ...row, replay: input.replay }))
  const { verdict, label, reasons, headline } = trafficVerdict(rows, input.exchanges, input.answered)
  const must = rows.filter((r) => r.level === 'MUST')
  const failed = rows.filter((r) => r.status === 'failed')
  const started = Date.parse(input.startedAt)
  const finished = Date.parse(input.finishedAt)
  return {
    tool: { name: 'crm-conformance', version: TOOL_VERSION },
    spec: input.spec,
    target: { baseUrl: input.targetUrl, embedded: false },
    // The verifier sends nothing of its own.
    profile: 'read-only',
    seed: 0,
    runId: input.runId,
    startedAt: input.startedAt,
    finishedAt: input.finishedAt,
    durationMs: Number.isFinite(finished - started) ? Math.max(0, finished - started) : 0,
    config: input.config,
    verdict,
    verdictLabel: label,
    scope: {
      complete: false,
      only: [],
      skip: [],
      catalogue: { checks: rows.length, must: must.length },
      inScope: { checks: rows.length, must: must.length },
      outOfScope: [],
    },
    verdictReasons: reasons,
    summary: summarize(rows),
    requests: { total: input.exchanges, byArea: { traffic: input.exchanges }, byKey: {}, rateLimited: {} },
    capabilities: {},
    leftovers: [],
    replay: input.replay,
    checks: rows,
    ...(input.interrupted ? { interrupted: input.interrupted } : {}),
    traffic: {
      source: input.source,
      files: input.files,
      basePath: input.basePath,
      exchanges: input.exchanges,
      answered: input.answered,
      rules: {
        total: rows.length,
        exercised: rows.filter((r) => r.status !== 'skipped').length,
        must: must.length,
        mustExercised: must.filter((r) => r.status !== 'skipped').length,
      },
      violations: {
        server: failed.filter((r) => r.side !== 'client').length,
        client: failed.filter((r) => r.side === 'client').length,
        must: failed.filter((r) => r.level === 'MUST').length,
      },
      failOn: input.failOn,
      headline,
    },
  }
}

/**
 * Exchanges forwarded or read whose judgement is not in the rows (judging fell behind, a judging thread or a
 * --jobs worker crashed, the drain time ran out): the verdict says so and is never `compliant`, as a run that
 * executed a subset is not.
 */
export function markNotJudged(report: RunReport, notJudged: { count: number; why: string; verb?: 'forwarded' | 'read'; always?: boolean }): void {
  const { count, why } = notJudged
  if (count === 0 && !notJudged.always) return
  report.verdictReasons.push(`${count} exchange${count === 1 ? '' : 's'} ${notJudged.verb ?? 'forwarded'} but not in this report: ${why}`)
  // A verdict on a subset of the traffic is never compliant, and its words say partial too.
  const conformant = report.verdict === 'compliant'
  if (conformant) report.verdict = 'partial'
  const label = `${conformant ? report.verdictLabel.replace(/^conformant /, 'partial ') : report.verdictLabel}; ${count} exchange${count === 1 ? '' : 's'} not judged`
  report.verdictLabel = label
  const headline = report.traffic?.headline
  if (headline && report.traffic) report.traffic.headline = { ...headline, text: label, ...(conformant ? { tone: 'partial' as const } : {}) }
}

/** One shard's report: its section for merge-reports, and a label that says it speaks for its shard only. */
export function markShard(report: RunReport, shard: TrafficShardSection): void {
  report.traffic!.shard = shard
  report.verdictLabel = `${report.verdictLabel} (shard ${shard.index + 1}/${shard.count} only: crm-conformance merge-reports gives the whole traffic's verdict)`
}
