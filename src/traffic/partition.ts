// Judging traffic in partitions (verify-traffic --jobs N, --shard K/N) without changing a verdict: for each rule,
// an exchange goes to the partition its memory is keyed by (types.ts RuleMemory): `key` rules see every exchange
// of one API key, `collection` rules every exchange of one §2 resource, in traffic order; rules that remember
// nothing are spread by sequence number; a rule whose memory is not declared is judged whole, in partition 0,
// which then sees every exchange. Each exchange is counted in one partition (its home). Partitions' tallies merge
// into the whole's (verifier.ts mergeTallies).
import { createHash } from 'node:crypto'
import { RESOURCE_LIST } from '../spec/resources.ts'
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

/**
 * Slots per partition: routing hashes into `total × SLOTS` slots (slot s is shard s mod N's, as partition p is),
 * so a shard can give its jobs unequal shares: the thread that reads the files judges fewer (PartitionPlan).
 */
const SLOTS = 3

/** The §2 resources in the spec's order: their slots are dealt round in it (a hash would leave shares to chance). */
const RESOURCE_INDEX = new Map<string, number>(RESOURCE_LIST.map((r, i) => [r.name, i]))

/** The slot of a collection, or of a rule's own key (of `slots`): the spec's resources dealt round in order, any other name hashed. */
function collectionSlot(resource: string, slots: number): number {
  const index = RESOURCE_INDEX.get(resource)
  return (index ?? hash(`c ${resource}`)) % slots
}

/** The last exchange's key and collection slots: every rule of an exchange asks for the same two. */
let memo: { exchange: TrafficExchange; total: number; key?: number; collection?: number } | undefined

/** The slot (of `total` partitions' SLOTS each) that judges `exchange` for `rule`. */
export function partitionOf(rule: TrafficRule, exchange: TrafficExchange, operation: ResolvedOperation, total: number): number {
  if (total === 1) return 0
  const memory = rule.memory
  if (memory === undefined) return 0
  if (memory === 'none') return homeOf(exchange, operation, total)
  if (typeof memory === 'function') {
    // Undefined: the rule keeps nothing of this exchange (and reads nothing it kept): judged where it is counted.
    const own = memory(exchange, operation)
    return own === undefined ? homeOf(exchange, operation, total) : collectionSlot(own, total * SLOTS)
  }
  if (memo?.exchange !== exchange || memo.total !== total) memo = { exchange, total }
  if (memory === 'key') return (memo.key ??= hash(`k ${keyOf(exchange) ?? '?'}`) % (total * SLOTS))
  return (memo.collection ??= collectionSlot(operation.resource ?? '', total * SLOTS))
}

/**
 * The slot that counts the exchange and judges it for the rules that remember nothing: its collection's (where the
 * rules keyed by the collection judge it, so it is read whole in one place), by sequence number when it names none.
 */
export function homeOf(exchange: TrafficExchange, operation: ResolvedOperation, total: number): number {
  if (total === 1) return 0
  return operation.resource === undefined ? exchange.seq % (total * SLOTS) : collectionSlot(operation.resource, total * SLOTS)
}

/** Of a job's SLOTS, the ones the reading thread takes when it judges too: it also reads and routes every exchange. */
const READER_SLOTS = 1

/** Where an exchange goes: the jobs that read it whole, and the jobs that judge only its light copy (kit.ts lightExchange). */
export interface Routes {
  whole: Set<number>
  light: Set<number>
}

/**
 * The partitions of a shard judged by `jobs` jobs: N shards of J jobs make N×J partitions of SLOTS slots; slot s is
 * shard s mod N's, judged by one of its jobs. With `readerJudges`, job 0 is the thread that reads the files: it
 * takes READER_SLOTS of the shard's SLOTS×J slots (it reads and routes every exchange besides), the workers share
 * the rest; and the rules keyed by the API key, whose partition often holds most of the traffic (one client, one
 * key), and the rules judged whole, go to a worker instead (the last).
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

  /** The job of this shard that judges slot s, or undefined when s is another shard's. */
  jobOf(slot: number): number | undefined {
    if (slot % this.shard.count !== this.shard.index) return undefined
    const q = Math.floor(slot / this.shard.count)
    if (!this.readerJudges || this.jobs === 1) return q % this.jobs
    return q < READER_SLOTS ? 0 : 1 + ((q - READER_SLOTS) % (this.jobs - 1))
  }

  /** The job that judges `exchange` for `rule`, or undefined when another shard does. */
  jobFor(rule: TrafficRule, exchange: TrafficExchange, operation: ResolvedOperation): number | undefined {
    const job = this.jobOf(partitionOf(rule, exchange, operation, this.total))
    // Rules keyed by the API key, and rules judged whole (a custom rule: its cost unknown), go to a worker.
    return job === 0 && this.readerJudges && this.jobs > 1 && (rule.memory === 'key' || rule.memory === undefined) ? this.jobs - 1 : job
  }

  /** The job that counts the exchange (and judges it for the rules that remember nothing), or undefined. */
  homeJob(exchange: TrafficExchange, operation: ResolvedOperation): number | undefined {
    return this.jobOf(homeOf(exchange, operation, this.total))
  }

  /**
   * Every job of this shard the exchange must reach: whole to its home and to each job of a rule that reads it
   * whole; light to a job whose rules all judge light copies (types.ts TrafficRule.light), when the reading thread
   * reads it whole anyway (it makes the copy). Otherwise that job reads it whole too.
   */
  routes(rules: readonly TrafficRule[], exchange: TrafficExchange, operation: ResolvedOperation): Routes {
    const whole = new Set<number>()
    const light = new Set<number>()
    const home = this.homeJob(exchange, operation)
    if (home !== undefined) whole.add(home)
    for (const rule of rules) {
      const job = this.jobFor(rule, exchange, operation)
      if (job !== undefined) (rule.light ? light : whole).add(job)
    }
    for (const job of whole) light.delete(job)
    if (!whole.has(0) || !this.readerJudges)
      for (const job of light) {
        whole.add(job)
        light.delete(job)
      }
    return { whole, light }
  }

  /** What job j's verifier judges and counts (verifier.ts VerifierOptions.partition). */
  ownership(job: number) {
    return {
      owns: (rule: TrafficRule, exchange: TrafficExchange, operation: ResolvedOperation) => this.jobFor(rule, exchange, operation) === job,
      counts: (exchange: TrafficExchange, operation: ResolvedOperation) => this.homeJob(exchange, operation) === job,
    }
  }
}

/** What shards must share to merge: each rule's id, level, clauses and what its memory is keyed by, in order. */
export function ruleSetDigest(rules: readonly TrafficRule[]): string {
  const shape = rules.map((r) => [r.id, r.level, r.clauses, typeof r.memory === 'function' ? 'own key' : (r.memory ?? 'whole'), ...(r.light ? ['light'] : [])])
  return createHash('sha256').update(JSON.stringify(shape)).digest('hex').slice(0, 16)
}
