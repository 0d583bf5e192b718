// Reads the traffic files once, in order, and has it judged in partitions (partition.ts): by this thread alone
// (--jobs 1), or by N worker threads (jobs-worker.ts), each handed the exchanges its partitions need, in batches.
// The reader numbers every exchange and names its key (key#N in traffic order) before routing it, so each
// partition sees what one verifier would have; the partitions' tallies then merge into the whole's.
// Memory: at most MAX_BATCHES_AHEAD batches per worker wait; a worker holds its rules' bounded state. A worker
// that crashes is reported, the others' tallies are kept, and the exchanges it counted are said not judged.
import type { Worker } from 'node:worker_threads'
import type { ResolvedConfig } from '../config/config.ts'
import { startTrafficWorker } from './judge-thread.ts'
import { resolveOperation } from './operation.ts'
import { PartitionPlan, type ShardSpec } from './partition.ts'
import { PartitionJudge, type PartitionResult } from './partition-judge.ts'
import { TrafficRedactor, trafficSecrets } from './redaction.ts'
import type { TrafficExchange, TrafficRule } from './types.ts'
import { lightExchange } from './rules/kit.ts'
import { threadCpuMs } from './thread-cpu.ts'
import { mergeTallies, type RuleTally } from './verifier.ts'

export interface JobData {
  basePath: string
  config: Pick<ResolvedConfig, 'keys' | 'webhookSecret' | 'extraHeaders'>
  plan: { shard: ShardSpec; jobs: number; readerJudges: boolean }
  job: number
  rulesModule?: string
}
/**
 * An exchange read, as the reader hands it over: its exchange (for workers, only what routing reads: har.ts
 * `light`), and the entry's bytes (HAR) or the line's text (NDJSON), from which a worker reads the whole exchange.
 */
export interface ReadUnit {
  exchange: TrafficExchange
  format: 'har' | 'ndjson'
  bytes?: Buffer
  text?: string
  /** Given when `exchange` is light: the whole exchange (for the reader's own job); throws when it cannot be read. */
  whole?: () => TrafficExchange
}

/**
 * An exchange posted to a worker: its text, or where its bytes are in the batch's `bytes`, and what the reader gave
 * it (number, source, key role); with `light`, the light copy the reader made (rules/kit.ts lightExchange), which is
 * all the worker judges (the bytes are read again only if the exchange is shown as evidence).
 */
export interface PostedExchange {
  text?: string
  at?: [start: number, end: number]
  format: ReadUnit['format']
  source: string
  seq: number
  keyRole?: string
  light?: TrafficExchange
}

/** A batch's `bytes` hold its entries' bytes end to end, transferred (not copied) to the worker. */
export type ToJob = { type: 'batch'; exchanges: PostedExchange[]; bytes?: ArrayBuffer } | { type: 'finish' }
export type FromJob = { type: 'ready' } | { type: 'done' } | { type: 'finished'; result: PartitionResult }

/**
 * A batch is posted to a worker at BATCH exchanges or BATCH_BYTES of their text, whichever comes first; a worker may
 * have MAX_BATCHES_AHEAD waiting before the reader waits for it. Few, large batches: each wait is a thread woken,
 * which on a loaded machine costs the scheduler's latency, not microseconds.
 */
const BATCH = 1024
const BATCH_BYTES = 1024 * 1024
const MAX_BATCHES_AHEAD = 16

export interface JudgeFilesOptions {
  /** The exchanges of every file, in order (each file's as read; numbering is done here): whole for --jobs 1, light for workers. */
  exchanges: AsyncIterable<ReadUnit>
  basePath: string
  config: Pick<ResolvedConfig, 'keys' | 'webhookSecret' | 'extraHeaders'>
  rules: readonly TrafficRule[]
  /** Given, workers load their rules from it (a test hook); `rules` must be its rules. */
  rulesModule?: string
  jobs: number
  shard?: ShardSpec
  ruleTimes?: Map<string, number>
  /** The `jobs` partitions judged on this thread, routed and merged as threads' are (tests: many runs, no thread started). */
  inlineJobs?: boolean
  /** A line for the console (a worker crashed). */
  onProblem(line: string): void
}

export interface JudgedFiles {
  /** Each rule's tally, merged over the partitions, in the rules' order. */
  tallies: RuleTally[]
  exchanges: number
  answered: number
  /** Why reading stopped early, when it did (the error the reader threw). */
  readError?: Error
  /** Exchanges counted by a worker that crashed: their judgement is not in the tallies. */
  notJudged?: { count: number; why: string }
  /**
   * An exchange a worker could not read whole (the reader read only its request, har.ts `light`): the tallies are not
   * the whole's; the caller judges the files again with one job, which stops reading where one thread does.
   */
  unreadableInWorker?: string
  /** CPU time of the thread that read (and judged job 0) and of each worker, when known (thread-cpu.ts): how the work split. */
  threadCpuMs?: { reader?: number; workers: (number | undefined)[] }
}

interface Job {
  /** Posts the exchange read whole, or its light copy; the reader's own job returns the exchange masked. */
  post(exchange: TrafficExchange, unit: ReadUnit, light?: TrafficExchange): Promise<TrafficExchange | undefined>
  finish(): Promise<PartitionResult | undefined>
}

/** The whole exchange as read (not yet masked), numbered and keyed as the reader did. */
function wholeOfUnit(exchange: TrafficExchange, unit: ReadUnit): TrafficExchange {
  const { seq, keyRole } = exchange
  return unit.whole ? { ...unit.whole(), seq, ...(keyRole !== undefined ? { keyRole } : {}) } : exchange
}

class InlineJob implements Job {
  constructor(private readonly judge: PartitionJudge) {}
  async post(exchange: TrafficExchange, unit: ReadUnit, light?: TrafficExchange): Promise<TrafficExchange | undefined> {
    if (!light) return this.judge.take(wholeOfUnit(exchange, unit))
    // As a worker gets it: a copy.
    this.judge.takeLight(structuredClone(light), () => wholeOfUnit(exchange, unit))
    return undefined
  }
  async finish(): Promise<PartitionResult> {
    return this.judge.finish()
  }
}

class WorkerJob implements Job {
  private readonly worker: Worker
  private batch: PostedExchange[] = []
  /** The batch's entry bytes, end to end (PostedExchange.at), and the text's length besides. */
  private parts: Buffer[] = []
  private partsBytes = 0
  private batchBytes = 0
  private ahead = 0
  private wake: (() => void) | undefined
  private settle: ((result: PartitionResult | undefined) => void) | undefined
  private result: PartitionResult | undefined
  /** Why the worker ended without a result, once it did. */
  crash: string | undefined

  constructor(data: JobData) {
    this.worker = startTrafficWorker('jobs-worker', data)
    let lastError: Error | undefined
    this.worker.on('message', (message: FromJob) => {
      if (message.type === 'done') this.ahead--
      else if (message.type === 'finished') {
        this.result = message.result
        this.settle?.(message.result)
      }
      this.wakeUp()
    })
    this.worker.on('error', (error) => (lastError = error))
    this.worker.on('exit', (code) => {
      if (!this.result) this.crash = lastError?.message ?? `exit code ${code}`
      this.wakeUp()
      this.settle?.(this.result)
    })
  }

  private wakeUp(): void {
    const wake = this.wake
    this.wake = undefined
    wake?.()
  }

  async post(exchange: TrafficExchange, unit: ReadUnit, light?: TrafficExchange): Promise<undefined> {
    if (this.crash) return
    const { seq, source, keyRole } = exchange
    const posted: PostedExchange = { format: unit.format, seq, source, ...(keyRole !== undefined ? { keyRole } : {}), ...(light ? { light } : {}) }
    if (unit.bytes) {
      posted.at = [this.partsBytes, this.partsBytes + unit.bytes.length]
      this.parts.push(unit.bytes)
      this.partsBytes += unit.bytes.length
      this.batchBytes += unit.bytes.length
    } else {
      posted.text = unit.text ?? ''
      this.batchBytes += posted.text.length
    }
    this.batch.push(posted)
    if (this.batch.length >= BATCH || this.batchBytes >= BATCH_BYTES) await this.flush()
  }

  private async flush(): Promise<void> {
    while (this.ahead >= MAX_BATCHES_AHEAD && !this.crash) await new Promise<void>((resolve) => (this.wake = resolve))
    if (this.batch.length === 0 || this.crash) return
    this.ahead++
    if (this.parts.length === 0) this.worker.postMessage({ type: 'batch', exchanges: this.batch } satisfies ToJob)
    else {
      // A buffer of its own (never a slice of Node's shared pool), so that transferring it detaches nothing else.
      const bytes = Buffer.allocUnsafeSlow(this.partsBytes)
      let at = 0
      for (const part of this.parts) at += part.copy(bytes, at)
      const buffer = bytes.buffer as ArrayBuffer
      this.worker.postMessage({ type: 'batch', exchanges: this.batch, bytes: buffer } satisfies ToJob, [buffer])
    }
    this.batch = []
    this.parts = []
    this.partsBytes = 0
    this.batchBytes = 0
  }

  async finish(): Promise<PartitionResult | undefined> {
    await this.flush()
    if (!this.crash) {
      const settled = new Promise<PartitionResult | undefined>((resolve) => (this.settle = resolve))
      this.worker.postMessage({ type: 'finish' } satisfies ToJob)
      await settled
    }
    await this.worker.terminate()
    return this.result
  }
}

/** Judges the exchanges in `jobs` partitions of this shard, and merges their tallies. */
export async function judgeExchanges(options: JudgeFilesOptions): Promise<JudgedFiles> {
  // With workers, this thread judges job 0 itself: it reads every exchange anyway, and N jobs are N threads.
  const plan = new PartitionPlan(options.shard ?? { index: 0, count: 1 }, options.jobs, options.jobs > 1)
  const planData = { shard: plan.shard, jobs: plan.jobs, readerJudges: plan.readerJudges }
  const { basePath, config, rules } = options
  const jobs: (InlineJob | WorkerJob)[] = []
  for (let job = 0; job < options.jobs; job++) {
    jobs.push(
      job === 0 || options.inlineJobs
        ? new InlineJob(new PartitionJudge({ basePath, config, rules, plan: planData, job, ...(options.ruleTimes ? { ruleTimes: options.ruleTimes } : {}) }))
        : new WorkerJob({ basePath, config, plan: planData, job, ...(options.rulesModule ? { rulesModule: options.rulesModule } : {}) }),
    )
  }
  // Names each key as one verifier would (key#N in traffic order): every exchange is read here, in order.
  const keys = new TrafficRedactor(trafficSecrets(config).secrets)
  const cpuAtStart = threadCpuMs()
  const counted = new Array<number>(options.jobs).fill(0)
  let seq = 0
  let readError: Error | undefined
  try {
    for await (const unit of options.exchanges) {
      const keyRole = keys.keyRoleOf(unit.exchange)
      const exchange: TrafficExchange = { ...unit.exchange, seq: ++seq, ...(keyRole !== undefined ? { keyRole } : {}) }
      const operation = resolveOperation(exchange, basePath)
      // Not of the API: neither judged nor counted anywhere; read whole all the same when only its request was read
      // (har.ts `light`), so that an entry that cannot be read stops the reading where one thread stops it.
      if (operation === undefined) {
        unit.whole?.()
        continue
      }
      const home = plan.homeJob(exchange, operation)
      if (home !== undefined) counted[home]!++
      const routes = plan.routes(rules, exchange, operation)
      // Another shard's: read whole here for the same reason.
      if (routes.whole.size === 0) unit.whole?.()
      // This thread's own job first: the light copies for the others are made from what it masked.
      let masked: TrafficExchange | undefined
      if (routes.whole.has(0)) masked = await jobs[0]!.post(exchange, unit)
      for (const job of routes.whole) if (job !== 0) await jobs[job]!.post(exchange, unit)
      if (routes.light.size === 0) continue
      const maskedOperation = masked && resolveOperation(masked, basePath)
      // Without one (never expected), the job reads the exchange whole.
      const light = masked && maskedOperation ? lightExchange(masked, maskedOperation) : undefined
      for (const job of routes.light) await jobs[job]!.post(exchange, unit, light)
    }
  } catch (error) {
    readError = error as Error
  }
  const results = await Promise.all(jobs.map((job) => job.finish()))
  const cpuAtEnd = threadCpuMs()
  let lost = 0
  const why: string[] = []
  for (const [j, job] of jobs.entries()) {
    if (results[j] || !(job instanceof WorkerJob)) continue
    lost += counted[j]!
    why.push(`worker ${j} of ${options.jobs - 1} stopped (${job.crash ?? 'no result'})`)
    options.onProblem(
      `verify-traffic: worker ${j} of ${options.jobs - 1} stopped (${job.crash ?? 'no result'}): what it judged (${counted[j]} exchanges counted there, and its share of the cross-exchange rules) is not in the report`,
    )
  }
  const done = results.filter((r): r is PartitionResult => r !== undefined)
  const unreadableInWorker = done.find((r) => r.unreadable !== undefined)?.unreadable
  return {
    ...(unreadableInWorker !== undefined ? { unreadableInWorker } : {}),
    tallies: rules.map((rule, i) => mergeTallies([emptyTally(rule), ...done.map((r) => r.tallies[i]!)])),
    exchanges: done.reduce((sum, r) => sum + r.exchanges, 0),
    answered: done.reduce((sum, r) => sum + r.answered, 0),
    ...(readError ? { readError } : {}),
    ...(lost > 0 || why.length > 0 ? { notJudged: { count: lost, why: why.join('; ') } } : {}),
    threadCpuMs: {
      ...(cpuAtStart !== undefined && cpuAtEnd !== undefined ? { reader: cpuAtEnd - cpuAtStart } : {}),
      workers: jobs.flatMap((job, j) => (job instanceof WorkerJob ? [results[j]?.cpuMs] : [])),
    },
  }
}

function emptyTally(rule: TrafficRule): RuleTally {
  return { id: rule.id, judged: 0, violations: 0, evidence: [] }
}
