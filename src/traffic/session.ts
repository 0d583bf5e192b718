// One verification of observed traffic, whatever its source: masks each exchange's secrets, numbers it, hands
// it to the verifier, and at the end writes the report files of a suite run. The proxy and verify-traffic
// are thin shells over this.
import { join, resolve } from 'node:path'
import { redactedConfig, type ResolvedConfig } from '../config/config.ts'
import { copyToLatest, writeReportFiles } from '../report/write.ts'
import type { RunReport, TrafficShardSection } from '../report/types.ts'
import { specDigest } from '../spec/spec-text.ts'
import { resolveOperation } from './operation.ts'
import { TrafficRedactor, trafficSecrets, type TrafficSecrets } from './redaction.ts'
import { buildTrafficReport, markNotJudged, markShard, trafficExitCode, type FailOn, type TrafficReportInput } from './report.ts'
import { TRAFFIC_RULES } from './rules/index.ts'
import type { TrafficExchange, TrafficRule } from './types.ts'
import { createVerifier, type SeenViolation, type TrafficRow } from './verifier.ts'

export interface TrafficSessionOptions {
  basePath: string
  failOn: FailOn
  config: Pick<ResolvedConfig, 'keys' | 'webhookSecret' | 'extraHeaders'> & Partial<ResolvedConfig>
  rules?: readonly TrafficRule[]
  /** Given, each rule's time is added to it (ms by rule id; verifier.ts). */
  ruleTimes?: Map<string, number>
}

export interface ReportTarget {
  source: TrafficReportInput['source']
  files: string[]
  targetUrl: string
  replay: string
  /** Given: written there. Else reports/<run id>/, copied to reports/latest/ as a suite run does. */
  reportDir?: string
  interrupted?: RunReport['interrupted']
  /** The counts of a verification judged elsewhere (the proxy's judging thread); default this session's own. */
  counts?: { exchanges: number; answered: number }
  /**
   * Exchanges forwarded whose judgement is not in the rows (judging fell behind, a judging thread crashed, the drain
   * time ran out): the verdict says so and is never `compliant`, as a run that executed a subset is not.
   */
  notJudged?: { count: number; why: string; verb?: 'forwarded' | 'read'; always?: boolean }
  /** Set when judging one shard (--shard K/N): kept in report.json for merge-reports. */
  shard?: TrafficShardSection
}

export function newTrafficRunId(now = new Date()): string {
  return `traffic-${now.toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-')}-${process.pid.toString(36)}`
}

export class TrafficSession {
  readonly startedAt = new Date()
  readonly runId = newTrafficRunId(this.startedAt)
  readonly secrets: TrafficSecrets
  private readonly redactor: TrafficRedactor
  private readonly verifier
  private seq = 0
  /** Violations seen so far, by side and level (for the proxy's tally). */
  readonly tally = { server: 0, client: 0, must: 0 }

  constructor(private readonly options: TrafficSessionOptions) {
    this.secrets = trafficSecrets(options.config)
    this.redactor = new TrafficRedactor(this.secrets.secrets)
    this.verifier = createVerifier({
      rules: options.rules ?? TRAFFIC_RULES,
      basePath: options.basePath,
      resolve: resolveOperation,
      ...(options.ruleTimes ? { ruleTimes: options.ruleTimes } : {}),
    })
  }

  get exchanges(): number {
    return this.verifier.exchanges
  }

  /** Exchanges of the API the server answered. */
  get answered(): number {
    return this.verifier.answered
  }

  /** Masks an exchange's secrets and numbers it; what the recorder writes and the verifier judges. */
  redact(raw: TrafficExchange): TrafficExchange {
    return { ...this.redactor.exchange(raw), seq: ++this.seq }
  }

  /** Judges a redacted exchange; returns the violations it showed. */
  judge(exchange: TrafficExchange): SeenViolation[] {
    const seen = this.verifier.observe(exchange)
    for (const v of seen) {
      this.tally[v.side]++
      if (v.rule.level === 'MUST') this.tally.must++
    }
    return seen
  }

  finish(): TrafficRow[] {
    return this.verifier.finish()
  }

  /** Builds and writes the report; returns it, where it went, and the exit code for --fail-on. */
  async writeReport(rows: TrafficRow[], target: ReportTarget): Promise<{ report: RunReport; reportDir: string; exitCode: 0 | 1 | 2 }> {
    const reportDir = resolve(target.reportDir ?? join('reports', this.runId))
    const config = this.options.config.baseUrl !== undefined || 'profile' in this.options.config ? redactedConfig(this.options.config as ResolvedConfig) : {}
    const report = buildTrafficReport({
      rows,
      exchanges: target.counts?.exchanges ?? this.exchanges,
      answered: target.counts?.answered ?? this.answered,
      source: target.source,
      files: target.files,
      basePath: this.options.basePath,
      failOn: this.options.failOn,
      targetUrl: target.targetUrl,
      spec: { digest: specDigest(), file: 'spec/crm-api-spec.md' },
      runId: this.runId,
      startedAt: this.startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      replay: target.replay,
      config,
      ...(target.interrupted ? { interrupted: target.interrupted } : {}),
    })
    if (target.notJudged) markNotJudged(report, target.notJudged)
    if (target.shard) markShard(report, target.shard)
    const written = await writeReportFiles(report, reportDir, { secrets: this.secrets.byName })
    if (!target.reportDir) await copyToLatest(reportDir, resolve('reports', 'latest'))
    const exitCode = trafficExitCode(rows, this.options.failOn, target.counts?.answered ?? this.answered)
    // A shard that judged nothing is no failure of its job: the merged report says whether the whole traffic did.
    return { report: written.report, reportDir, exitCode: target.shard && exitCode === 2 ? 0 : exitCode }
  }
}

/** `MUST traffic.x (§8) server: message [exchange source]`: one line per violation, as the proxy prints them. */
export function violationLine(seen: SeenViolation, exchange?: TrafficExchange): string {
  const at = exchange ? ` [${exchange.request.method} ${exchange.request.url} → ${exchange.response?.status ?? 'no response'}]` : ''
  return `${seen.rule.level} ${seen.rule.id} (${seen.rule.clauses[0] ?? ''}) ${seen.side}: ${seen.violation.message.replace(/\s+/g, ' ')}${at}`
}
