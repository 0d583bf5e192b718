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

/** Every partition the exchange must reach: its home, and each rule's. */
export function partitionsOf(rules: readonly TrafficRule[], exchange: TrafficExchange, operation: ResolvedOperation, total: number): Set<number> {
  const out = new Set<number>([homeOf(exchange, total)])
  for (const rule of rules) out.add(partitionOf(rule, exchange, operation, total))
  return out
}

/** What the verifier of partition `mine` (of `total`) judges and counts (verifier.ts VerifierOptions.partition). */
export function ownership(mine: number, total: number) {
  return {
    owns: (rule: TrafficRule, exchange: TrafficExchange, operation: ResolvedOperation) => partitionOf(rule, exchange, operation, total) === mine,
    counts: (exchange: TrafficExchange) => homeOf(exchange, total) === mine,
  }
}

/**
 * The partitions of a shard judged by `jobs` threads: N shards of J jobs make N×J partitions; partition p is shard
 * p mod N's, judged by its job ⌊p / N⌋. One shard (no --shard) of J jobs: partition j is job j's.
 */
export class PartitionPlan {
  readonly total: number
  constructor(
    readonly shard: ShardSpec,
    readonly jobs: number,
  ) {
    this.total = shard.count * jobs
  }

  /** The job of this shard that judges partition p, or undefined when p is another shard's. */
  jobOf(partition: number): number | undefined {
    return partition % this.shard.count === this.shard.index ? Math.floor(partition / this.shard.count) : undefined
  }

  /** The partition job j of this shard judges. */
  partitionOfJob(job: number): number {
    return this.shard.index + this.shard.count * job
  }
}

/** What shards must share to merge: each rule's id, level, clauses and what its memory is keyed by, in order. */
export function ruleSetDigest(rules: readonly TrafficRule[]): string {
  const shape = rules.map((r) => [r.id, r.level, r.clauses, typeof r.memory === 'function' ? 'own key' : (r.memory ?? 'whole')])
  return createHash('sha256').update(JSON.stringify(shape)).digest('hex').slice(0, 16)
}
