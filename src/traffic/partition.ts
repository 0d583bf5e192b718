// Judging traffic in partitions (verify-traffic --jobs N, --shard K/N) without changing a verdict: for each rule,
// an exchange goes to the partition its memory is keyed by (types.ts RuleMemory): `key` rules see every exchange
// of one API key, `collection` rules every exchange of one §2 resource, in traffic order; rules that remember
// nothing are spread by sequence number; a rule whose memory is not declared is judged whole, in partition 0,
// which then sees every exchange. Each exchange is counted in one partition (its home). Partitions' tallies merge
// into the whole's (verifier.ts mergeTallies).
import { createHash } from 'node:crypto'
import { keyOf } from './rules/kit.ts'
import type { ShardSpec } from './shard-spec.ts'
import type { ResolvedOperation, TrafficExchange, TrafficRule } from './types.ts'

export { parseShard, type ShardSpec } from './shard-spec.ts'

/** FNV-1a: a stable hash, the same on every machine and Node version (a shard's routing must agree with the others'). */
function hash(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
  return h >>> 0
}

/** The last exchange's key and collection partitions: every rule of an exchange asks for the same two. */
let memo: { exchange: TrafficExchange; total: number; key?: number; collection?: number } | undefined

/** The partition (of `total`) that judges `exchange` for `rule`. */
export function partitionOf(rule: TrafficRule, exchange: TrafficExchange, operation: ResolvedOperation, total: number): number {
  if (total === 1) return 0
  const memory = rule.memory
  if (memory === undefined) return 0
  if (memory === 'none') return homeOf(exchange, total)
  if (typeof memory === 'function') return hash(`c ${memory(exchange, operation)}`) % total
  if (memo?.exchange !== exchange || memo.total !== total) memo = { exchange, total }
  if (memory === 'key') return (memo.key ??= hash(`k ${keyOf(exchange) ?? '?'}`) % total)
  return (memo.collection ??= hash(`c ${operation.resource ?? ''}`) % total)
}

/** The partition that counts the exchange (and judges it for the rules that remember nothing). */
export function homeOf(exchange: TrafficExchange, total: number): number {
  return exchange.seq % total
}

/**
 * The partitions of a shard judged by `jobs` jobs: N shards of J jobs make N×J partitions; partition p is shard
 * p mod N's, judged by its job ⌊p / N⌋. One shard (no --shard) of J jobs: partition j is job j's. With
 * `readerJudges`, job 0 is the thread that reads the files (it reads every exchange already): the rules keyed by
 * the API key, whose partition often holds most of the traffic (one client, one key), and the rules judged whole,
 * go to a worker instead (the last: with three jobs or more it takes its own keys and job 0's).
 */
export class PartitionPlan {
  readonly total: number
  constructor(
    readonly shard: ShardSpec,
    readonly jobs: number,
    readonly readerJudges = false,
  ) {
    this.total = shard.count * jobs
  }

  /** The job of this shard that judges partition p, or undefined when p is another shard's. */
  jobOf(partition: number): number | undefined {
    return partition % this.shard.count === this.shard.index ? Math.floor(partition / this.shard.count) : undefined
  }

  /** The job that judges `exchange` for `rule`, or undefined when another shard does. */
  jobFor(rule: TrafficRule, exchange: TrafficExchange, operation: ResolvedOperation): number | undefined {
    const job = this.jobOf(partitionOf(rule, exchange, operation, this.total))
    // Rules keyed by the API key, and rules judged whole (a custom rule: its cost unknown), go to a worker.
    return job === 0 && this.readerJudges && this.jobs > 1 && (rule.memory === 'key' || rule.memory === undefined) ? this.jobs - 1 : job
  }

  /** The job that counts the exchange (and judges it for the rules that remember nothing), or undefined. */
  homeJob(exchange: TrafficExchange): number | undefined {
    return this.jobOf(homeOf(exchange, this.total))
  }

  /** Every job of this shard the exchange must reach: its home, and each rule's. */
  jobsOf(rules: readonly TrafficRule[], exchange: TrafficExchange, operation: ResolvedOperation): Set<number> {
    const out = new Set<number>()
    const home = this.homeJob(exchange)
    if (home !== undefined) out.add(home)
    for (const rule of rules) {
      const job = this.jobFor(rule, exchange, operation)
      if (job !== undefined) out.add(job)
    }
    return out
  }

  /** What job j's verifier judges and counts (verifier.ts VerifierOptions.partition). */
  ownership(job: number) {
    return {
      owns: (rule: TrafficRule, exchange: TrafficExchange, operation: ResolvedOperation) => this.jobFor(rule, exchange, operation) === job,
      counts: (exchange: TrafficExchange) => this.homeJob(exchange) === job,
    }
  }
}

/** What shards must share to merge: each rule's id, level, clauses and what its memory is keyed by, in order. */
export function ruleSetDigest(rules: readonly TrafficRule[]): string {
  const shape = rules.map((r) => [r.id, r.level, r.clauses, typeof r.memory === 'function' ? 'own key' : (r.memory ?? 'whole')])
  return createHash('sha256').update(JSON.stringify(shape)).digest('hex').slice(0, 16)
}
