// What the proxy does with each captured exchange, on whichever thread judges (judge-worker.ts, or the proxy's
// own when no thread can): decode and parse its bodies, mask its secrets, record it, judge it. Masking comes
// first, so the recorder and the evidence only ever see masked exchanges.
import type { ResolvedConfig } from '../config/config.ts'
import { NdjsonWriter } from './ndjson.ts'
import { exchangeOf, type CapturedExchange } from './proxy.ts'
import type { FailOn } from './report.ts'
import { TrafficSession, violationLine } from './session.ts'
import type { TrafficRule } from './types.ts'
import type { TrafficRow } from './verifier.ts'

export interface JudgingOptions {
  basePath: string
  failOn: FailOn
  /** Only the secrets: what masking needs (structured-clonable, for the judging thread). */
  config: Pick<ResolvedConfig, 'keys' | 'webhookSecret' | 'extraHeaders'>
  /** The --record file, appended to (the command created it empty). */
  record?: string
  rules?: readonly TrafficRule[]
}

/** What judging one exchange showed: the console's MUST lines and the tally's increments. */
export interface Judged {
  lines: string[]
  /** 1 when the exchange was of the API (under the base path), else 0. */
  exchanges: number
  server: number
  client: number
  must: number
}

export interface JudgingResult {
  rows: TrafficRow[]
  exchanges: number
  answered: number
  /** Why the --record file could not be completed, when it could not. */
  recordError?: string
}

export class ExchangeJudging {
  private readonly session: TrafficSession
  private readonly recorder: NdjsonWriter | undefined

  constructor(options: JudgingOptions) {
    this.session = new TrafficSession({
      basePath: options.basePath,
      failOn: options.failOn,
      config: options.config,
      ...(options.rules ? { rules: options.rules } : {}),
    })
    this.recorder = options.record ? new NdjsonWriter(options.record, { append: true }) : undefined
  }

  take(captured: CapturedExchange): Judged {
    const exchange = this.session.redact(exchangeOf(captured))
    this.recorder?.write(exchange)
    const before = this.session.exchanges
    const judged: Judged = { lines: [], exchanges: 0, server: 0, client: 0, must: 0 }
    for (const seen of this.session.judge(exchange)) {
      judged[seen.side]++
      if (seen.rule.level === 'MUST') {
        judged.must++
        judged.lines.push(violationLine(seen, exchange))
      }
    }
    judged.exchanges = this.session.exchanges - before
    return judged
  }

  async finish(): Promise<JudgingResult> {
    let recordError: string | undefined
    // A recorder that failed (disk full) costs the file, never the report.
    await this.recorder?.close().catch((error: Error) => (recordError = error.message))
    return { rows: this.session.finish(), exchanges: this.session.exchanges, answered: this.session.answered, ...(recordError ? { recordError } : {}) }
  }
}
