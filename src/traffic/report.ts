// The report of observed traffic: the RunReport of a suite run (same files, same writers), with one row per
// traffic rule and a `traffic` section. Its verdict speaks only for what the traffic exercised. Pure.
import type { Level } from '../checks/types.ts'
import { summarize } from '../report/build.ts'
import type { RunReport, TrafficReportSection, Verdict } from '../report/types.ts'
import { TOOL_VERSION } from '../version.ts'
import type { TrafficRow } from './verifier.ts'

export type FailOn = 'must' | 'should'

export interface TrafficReportInput {
  rows: TrafficRow[]
  exchanges: number
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
export function trafficExitCode(rows: readonly TrafficRow[], failOn: FailOn): 0 | 1 | 2 {
  const gating = gatingLevels(failOn)
  if (rows.some((r) => r.status === 'failed' && gating.includes(r.level))) return 1
  return rows.some((r) => r.status !== 'skipped') ? 0 : 2
}

const count = (n: number) => n.toLocaleString('en-US')

/** `conformant on observed traffic: 1,204 exchanges, 37 of 61 rules exercised`, or what broke it. */
export function trafficVerdict(rows: readonly TrafficRow[], exchanges: number): { verdict: Verdict; label: string; reasons: string[] } {
  const exercised = rows.filter((r) => r.status !== 'skipped').length
  const coverage = `${count(exchanges)} exchange${exchanges === 1 ? '' : 's'}, ${exercised} of ${rows.length} rules exercised`
  const must = rows.filter((r) => r.level === 'MUST')
  const broken = must.filter((r) => r.status === 'failed')
  const unexercised = must.filter((r) => r.status === 'skipped')
  const reasons = broken.map((r) => `MUST ${r.id} (${r.clause}) broken by the ${r.side ?? 'server'}: ${r.message.replace(/\s+/g, ' ').slice(0, 300)}`)
  if (unexercised.length > 0) reasons.push(`${unexercised.length} of ${must.length} MUST rules not exercised: nothing in the traffic let them judge`)
  if (exchanges === 0 || exercised === 0) {
    return { verdict: 'partial', label: `nothing verified: ${coverage}`, reasons: ['no rule was exercised: the traffic judged nothing', ...reasons] }
  }
  if (broken.length > 0) {
    const server = broken.filter((r) => r.side !== 'client').length
    const client = broken.length - server
    return {
      verdict: 'non-compliant',
      label: `not conformant on observed traffic: ${broken.length} MUST rule${broken.length === 1 ? '' : 's'} broken (${server} server, ${client} client); ${coverage}`,
      reasons,
    }
  }
  return { verdict: unexercised.length > 0 ? 'partial' : 'compliant', label: `conformant on observed traffic: ${coverage}`, reasons }
}

export function buildTrafficReport(input: TrafficReportInput): RunReport {
  const rows = input.rows.map((row) => ({ ...row, replay: input.replay }))
  const { verdict, label, reasons } = trafficVerdict(rows, input.exchanges)
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
    },
  }
}
