// The proxy's side of its judging thread (judge-worker.ts): posts each captured exchange there and hands back
// what judging showed, so the forwarding thread never decodes, parses, masks, records or runs a rule. Memory is
// bounded (DEFAULTS.judgeBacklogBytes of exchanges waiting; past it they are forwarded, not judged, and counted);
// a thread that crashes is reported and started again (DEFAULTS.judgeRestarts), then the rest is judged on this
// thread; at stop the thread is drained for at most DEFAULTS.judgeDrainMs. Nothing here ends the session.
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import { DEFAULTS } from '../config/config.ts'
import { ExchangeJudging, type Judged, type JudgingOptions, type JudgingResult } from './judging.ts'
import type { CapturedExchange } from './proxy.ts'
import type { TrafficRule } from './types.ts'

export interface JudgeThreadData {
  basePath: string
  failOn: JudgingOptions['failOn']
  config: JudgingOptions['config']
  record?: string
  /** A module URL whose `rules` replace the catalogue's in the thread (a test hook). */
  rulesModule?: string
  /** Two Int32: [0] set to 1 when the drain time is up, [1] when the proxy stopped and drains the thread. */
  stop: SharedArrayBuffer
}

export type ToJudge = { type: 'exchange'; id: number; captured: CapturedExchange } | { type: 'finish' }
export type FromJudge =
  | { type: 'ready' }
  | { type: 'judged'; id: number; judged: Judged }
  | { type: 'skipped'; id: number }
  | { type: 'error'; id?: number; message: string }
  | { type: 'finished'; result: JudgingResult }

export interface JudgeThreadOptions extends Omit<JudgingOptions, 'rules'> {
  rulesModule?: string
  /** Rules as objects cannot cross to a thread: given, every exchange is judged on this thread (as before the thread existed). */
  inlineRules?: readonly TrafficRule[]
  onJudged(judged: Judged): void
  /** A line for the console: the thread stopped, judging fell behind, an exchange could not be judged. */
  onProblem(line: string): void
}

export interface JudgeOutcome extends JudgingResult {
  /** Exchanges handed over and never judged: judging fell behind, a thread crashed with them queued, or the drain time ran out. */
  unjudged: number
  /** Exchanges judged by a thread that crashed: counted in the tally but not in the rows. */
  lost: number
  judgeErrors: number
}

/**
 * A thread running `./<name>.ts` of this folder, from the sources (through tsx, as bin/crm-conformance-ts.mjs runs
 * them) or from dist/ (compiled): the proxy's judging thread, verify-traffic's --jobs workers (jobs.ts).
 */
export function startTrafficWorker(name: string, data: unknown): Worker {
  const options = { workerData: data, resourceLimits: { maxOldGenerationSizeMb: DEFAULTS.judgeHeapMb } }
  const fromSource = import.meta.url.endsWith('.ts')
  // The build rewrites import specifiers, not this URL: name the file by this module's own extension.
  const entry = new URL(`./${name}.${fromSource ? 'ts' : 'js'}`, import.meta.url)
  if (!fromSource) return new Worker(entry, options)
  // A thread does not inherit the loader hooks registered on this one: register tsx there, then load the entry.
  // tsx's ES module build (its CommonJS one, which require.resolve names, cannot load its hooks from an eval thread).
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href.replace(/\.cjs$/, '.mjs')
  return new Worker(`import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(entry.href)}) })`, {
    ...options,
    eval: true,
  })
}

export class JudgeThread {
  private worker: Worker | undefined
  private inline: ExchangeJudging | undefined
  private readonly stop = new SharedArrayBuffer(8)
  /** Exchanges posted and not yet answered: id → bytes. */
  private readonly pending = new Map<number, number>()
  private pendingBytes = 0
  private nextId = 0
  private restarts = 0
  private judgedByThisThread = 0
  private behindSaid = false
  /** Set while finishing: resolves with the thread's result, or undefined when it will not come. */
  private finishing: ((result: JudgingResult | undefined) => void) | undefined
  private readonly counts = { unjudged: 0, lost: 0, judgeErrors: 0 }
  private readyWaiters: (() => void)[] = []
  private isReady = false

  constructor(private readonly options: JudgeThreadOptions) {
    if (options.inlineRules) this.inline = this.inlineJudging(options.inlineRules)
    else this.spawn()
  }

  private inlineJudging(rules?: readonly TrafficRule[]): ExchangeJudging {
    const { basePath, failOn, config, record } = this.options
    return new ExchangeJudging({ basePath, failOn, config, ...(record ? { record } : {}), ...(rules ? { rules } : {}) })
  }

  private spawn(): void {
    const { basePath, failOn, config, record, rulesModule } = this.options
    const data: JudgeThreadData = { basePath, failOn, config, stop: this.stop, ...(record ? { record } : {}), ...(rulesModule ? { rulesModule } : {}) }
    const worker = startTrafficWorker('judge-worker', data)
    this.worker = worker
    this.isReady = false
    this.judgedByThisThread = 0
    let lastError: Error | undefined
    worker.on('message', (message: FromJudge) => this.received(message))
    worker.on('error', (error) => (lastError = error))
    worker.on('exit', (code) => {
      if (this.worker !== worker) return
      this.worker = undefined
      this.crashed(lastError?.message ?? `exit code ${code}`)
    })
  }

  private received(message: FromJudge): void {
    if (message.type === 'ready') return this.becameReady()
    if (message.type === 'finished') return this.finishing?.(message.result)
    if (message.id !== undefined) this.settle(message.id)
    if (message.type === 'judged') {
      this.judgedByThisThread++
      this.options.onJudged(message.judged)
    } else if (message.type === 'skipped') this.counts.unjudged++
    else this.judgeError(message.message)
  }

  private becameReady(): void {
    this.isReady = true
    for (const waiter of this.readyWaiters.splice(0)) waiter()
  }

  /**
   * Resolves once a thread has loaded the rules (or judging fell back to this thread): the proxy accepts only then,
   * so a thread slow to start on a busy machine never eats the drain time at stop.
   */
  ready(): Promise<void> {
    if (this.isReady || this.inline) return Promise.resolve()
    return new Promise((resolve) => this.readyWaiters.push(resolve))
  }

  private judgeError(reason: string): void {
    if (this.counts.judgeErrors++ === 0) this.options.onProblem(`proxy: an exchange could not be judged (${reason}); forwarding goes on`)
  }

  private settle(id: number): void {
    this.pendingBytes -= this.pending.get(id) ?? 0
    this.pending.delete(id)
  }

  /** The thread ended on its own: what it judged and held is gone; judging goes on elsewhere. */
  private crashed(reason: string): void {
    const queued = this.pending.size
    this.counts.unjudged += queued
    this.counts.lost += this.judgedByThisThread
    this.pending.clear()
    this.pendingBytes = 0
    const restart = this.restarts < DEFAULTS.judgeRestarts && this.finishing === undefined
    this.options.onProblem(
      `proxy: the judging thread stopped (${reason}): the ${this.judgedByThisThread} exchanges it judged are not in the report's rows, the ${queued} it held are not judged; ${restart ? 'a new thread judges the rest' : 'the rest is judged on the proxy thread'}; forwarding goes on`,
    )
    this.judgedByThisThread = 0
    if (restart) {
      this.restarts++
      this.spawn()
    } else {
      this.inline = this.inlineJudging()
      this.becameReady()
      this.finishing?.(undefined)
    }
  }

  /** Hands an exchange over; returns at once. */
  post(captured: CapturedExchange): void {
    if (this.inline) return this.judgeInline(captured)
    const bytes = captured.requestBody.bytes.length + (captured.response?.body.bytes.length ?? 0)
    if (this.pendingBytes + bytes > DEFAULTS.judgeBacklogBytes) {
      this.counts.unjudged++
      if (!this.behindSaid)
        this.options.onProblem(
          `proxy: judging fell behind (${Math.round(this.pendingBytes / 1024 / 1024)} MB of exchanges waiting): exchanges past that are forwarded but not judged (counted)`,
        )
      this.behindSaid = true
      return
    }
    const id = ++this.nextId
    this.pending.set(id, bytes)
    this.pendingBytes += bytes
    // Transferred, not copied: the capture made each body an ArrayBuffer of its own (Capture.owned).
    const transfer = [captured.requestBody.bytes.buffer, ...(captured.response ? [captured.response.body.bytes.buffer] : [])] as ArrayBuffer[]
    this.worker!.postMessage({ type: 'exchange', id, captured } satisfies ToJudge, transfer)
  }

  private judgeInline(captured: CapturedExchange): void {
    try {
      this.options.onJudged(this.inline!.take(captured))
    } catch (error) {
      this.judgeError((error as Error).message)
    }
  }

  /** Ends the thread without a report (the proxy could not start). */
  async dispose(): Promise<void> {
    const worker = this.worker
    this.worker = undefined
    await worker?.terminate()
  }

  /** Judges what was handed over (for at most drainMs), ends the thread, and returns the report's rows. */
  async finish(drainMs: number = DEFAULTS.judgeDrainMs): Promise<JudgeOutcome> {
    const worker = this.worker
    let result: JudgingResult | undefined
    if (worker && !this.inline) {
      // A thread started again after a crash may still be loading: its load does not eat the drain time.
      let loading: NodeJS.Timeout | undefined
      await Promise.race([this.ready(), new Promise((r) => (loading = setTimeout(r, drainMs)))])
      clearTimeout(loading)
      const timers: NodeJS.Timeout[] = []
      const finished = new Promise<JudgingResult | undefined>((resolve) => {
        this.finishing = resolve
        // Past half the drain time the thread counts what is still queued instead of judging it; past all of it, it is let go.
        timers.push(setTimeout(() => Atomics.store(new Int32Array(this.stop), 0, 1), drainMs / 2))
        timers.push(setTimeout(() => resolve(undefined), drainMs))
      })
      Atomics.store(new Int32Array(this.stop), 1, 1)
      worker.postMessage({ type: 'finish' } satisfies ToJudge)
      result = await finished
      for (const timer of timers) clearTimeout(timer)
      this.finishing = undefined
      if (this.worker === worker) {
        this.worker = undefined
        await worker.terminate()
        if (!result) {
          this.options.onProblem(`proxy: the judging thread did not finish within ${drainMs} ms: what it judged is not in the report`)
          this.counts.lost += this.judgedByThisThread
          this.counts.unjudged += this.pending.size
        }
      }
    }
    result ??= await (this.inline ?? this.inlineJudging()).finish()
    return { ...result, ...this.counts }
  }
}
