// The proxy's judging thread (started by judge-thread.ts): judges the exchanges the proxy posts, in order, and
// answers each with what it showed; on `finish`, closes the --record file and answers with the report's rows.
// Rules run here, so a slow rule or a body that takes long to judge delays judging, never forwarding.
import { readlinkSync } from 'node:fs'
import { getPriority, setPriority } from 'node:os'
import { parentPort, workerData } from 'node:worker_threads'
import { compileSchemas } from '../schemas/registry.ts'
import { ExchangeJudging, type JudgingOptions } from './judging.ts'
import type { FromJudge, JudgeThreadData, ToJudge } from './judge-thread.ts'
import type { TrafficRule } from './types.ts'

/**
 * Niceness of the judging thread once loaded: on a busy machine the forwarding thread gets the CPU first. It loads at
 * the proxy's priority, and goes back to it when the proxy stops and drains it.
 */
const JUDGE_THREAD_NICENESS = 10

/** Linux: setpriority of a thread id renices that thread alone (/proc/thread-self names it); elsewhere nothing changes. */
function renice(to: 'judging' | 'draining'): void {
  try {
    const tid = Number(/task\/(\d+)$/.exec(readlinkSync('/proc/thread-self'))?.[1])
    if (!Number.isInteger(tid) || tid <= 0) return
    if (to === 'judging') {
      before = getPriority(tid)
      setPriority(tid, Math.max(before, JUDGE_THREAD_NICENESS))
    } else if (before !== undefined) setPriority(tid, before)
  } catch {
    // No /proc, or not allowed (raising a priority back may need a privilege): judged at the priority it has.
  }
}
let before: number | undefined

const data = workerData as JudgeThreadData
const port = parentPort!
// A test hook: a module whose `rules` replace the catalogue's (e.g. a rule made slow on purpose).
const rules = data.rulesModule ? ((await import(data.rulesModule)) as { rules: readonly TrafficRule[] }).rules : undefined
const options: JudgingOptions = { basePath: data.basePath, failOn: data.failOn, config: data.config, ...(data.record ? { record: data.record } : {}) }
const judging = new ExchangeJudging({ ...options, ...(rules ? { rules } : {}) })
// [0] set by the proxy when its drain time is up (the exchanges still queued are counted, not judged); [1] when it drains.
const stop = new Int32Array(data.stop)
let draining = false
// The schemas compile now, at the proxy's priority, not on the first exchange.
compileSchemas()

const post = (message: FromJudge) => port.postMessage(message)

port.on('message', (message: ToJudge) => {
  if (!draining && Atomics.load(stop, 1) === 1) {
    draining = true
    renice('draining')
  }
  if (message.type === 'exchange') {
    if (Atomics.load(stop, 0) === 1) {
      post({ type: 'skipped', id: message.id })
      return
    }
    try {
      post({ type: 'judged', id: message.id, judged: judging.take(message.captured) })
    } catch (error) {
      post({ type: 'error', id: message.id, message: (error as Error).message })
    }
    return
  }
  void judging.finish().then(
    (result) => post({ type: 'finished', result }),
    (error: Error) => post({ type: 'error', message: error.message }),
  )
})
renice('judging')
post({ type: 'ready' })
