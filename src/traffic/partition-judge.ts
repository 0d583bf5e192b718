// One partition of the traffic judged (partition.ts): masks each exchange it is handed (its key role and number
// already set where the files were read, in traffic order) and hands it to a verifier that judges, for each rule,
// only the exchanges routed to this partition; or hands it the light copy another partition made (rules/kit.ts). Runs in a --jobs worker (jobs-worker.ts) or in the reading thread.
import type { ResolvedConfig } from '../config/config.ts'
import { resolveOperation } from './operation.ts'
import { PartitionPlan, type ShardSpec } from './partition.ts'
import { TrafficRedactor, trafficSecrets } from './redaction.ts'
import type { TrafficExchange, TrafficRule } from './types.ts'
import { createVerifier, type RuleTally } from './verifier.ts'

export interface PartitionJudgeOptions {
  basePath: string
  config: Pick<ResolvedConfig, 'keys' | 'webhookSecret' | 'extraHeaders'>
  rules: readonly TrafficRule[]
  /** The shard, its jobs and whether the reader judges job 0 (partition.ts PartitionPlan), and the job judged here. */
  plan: { shard: ShardSpec; jobs: number; readerJudges: boolean }
  job: number
  ruleTimes?: Map<string, number>
}

/** What a partition hands back: each rule's tally (in the rules' order) and the exchanges it counted. */
export interface PartitionResult {
  tallies: RuleTally[]
  exchanges: number
  answered: number
  /** The CPU time of the worker thread that judged it (thread-cpu.ts), when known. */
  cpuMs?: number
  /**
   * An exchange the worker could not read whole (the reader read only its request): what it judged stops there,
   * and the files are judged again in one thread, which stops where one thread stops (jobs.ts).
   */
  unreadable?: string
}

export class PartitionJudge {
  private readonly redactor: TrafficRedactor
  private readonly verifier: ReturnType<typeof createVerifier>

  constructor(options: PartitionJudgeOptions) {
    this.redactor = new TrafficRedactor(trafficSecrets(options.config).secrets)
    const plan = new PartitionPlan(options.plan.shard, options.plan.jobs, options.plan.readerJudges)
    this.verifier = createVerifier({
      rules: options.rules,
      basePath: options.basePath,
      resolve: resolveOperation,
      ...(plan.total > 1 ? { partition: plan.ownership(options.job) } : {}),
      ...(options.ruleTimes ? { ruleTimes: options.ruleTimes } : {}),
    })
  }

  /** Judges one exchange as read (not yet masked; seq and keyRole set by the reader); returns it masked. */
  take(raw: TrafficExchange): TrafficExchange {
    const masked = this.redactor.exchange(raw)
    this.verifier.observe(masked)
    return masked
  }

  /**
   * Judges the light copy another partition made of an exchange it read whole and masked (the `light` rules owned
   * here); `raw` gives the exchange as read, masked here only if shown as evidence.
   */
  takeLight(light: TrafficExchange, raw: () => TrafficExchange): void {
    this.verifier.observeLight(light, () => this.redactor.exchange(raw()))
  }

  finish(): PartitionResult {
    return { tallies: this.verifier.tallies(), exchanges: this.verifier.exchanges, answered: this.verifier.answered }
  }
}
