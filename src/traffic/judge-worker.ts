// The proxy's judging thread (started by judge-thread.ts): judges the exchanges the proxy posts, in order, and
// answers each with what it showed; on `finish`, closes the --record file and answers with the report's rows.
// Rules run here, so a slow rule or a body that takes long to judge delays judging, never forwarding.
import { parentPort, workerData } from 'node:worker_threads'
import { ExchangeJudging, type JudgingOptions } from './judging.ts'
import type { FromJudge, JudgeThreadData, ToJudge } from './judge-thread.ts'
import type { TrafficRule } from './types.ts'

const data = workerData as JudgeThreadData
const port = parentPort!
// A test hook: a module whose `rules` replace the catalogue's (e.g. a rule made slow on purpose).
const rules = data.rulesModule ? ((await import(data.rulesModule)) as { rules: readonly TrafficRule[] }).rules : undefined
const options: JudgingOptions = { basePath: data.basePath, failOn: data.failOn, config: data.config, ...(data.record ? { record: data.record } : {}) }
const judging = new ExchangeJudging({ ...options, ...(rules ? { rules } : {}) })
// Set by the proxy when its drain time is up: the exchanges still queued are counted, not judged.
const stop = new Int32Array(data.stop)

const post = (message: FromJudge) => port.postMessage(message)

port.on('message', (message: ToJudge) => {
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
post({ type: 'ready' })
