// A --jobs worker thread (started by jobs.ts): judges the partition it is given (partition-judge.ts) with the
// exchanges the reading thread posts, in batches, answering each batch so the reader never runs ahead by more
// than a bounded backlog; on `finish`, answers with the partition's tallies.
import { parentPort, workerData } from 'node:worker_threads'
import { exchangeOfEntry } from './har.ts'
import type { FromJob, JobData, PostedExchange, ToJob } from './jobs.ts'
import { exchangeOfLine } from './ndjson.ts'
import { PartitionJudge } from './partition-judge.ts'
import { TRAFFIC_RULES } from './rules/index.ts'
import { threadCpuMs } from './thread-cpu.ts'
import type { TrafficExchange, TrafficRule } from './types.ts'

const data = workerData as JobData
const port = parentPort!
const post = (message: FromJob) => port.postMessage(message)
// A test hook: a module whose `rules` replace the catalogue's (the reading thread routes with the same module's).
const rules = data.rulesModule ? ((await import(data.rulesModule)) as { rules: readonly TrafficRule[] }).rules : TRAFFIC_RULES
const judge = new PartitionJudge({ basePath: data.basePath, config: data.config, rules, plan: data.plan, job: data.job })

/** The whole exchange from the text the reader read it from (validated there), numbered and keyed as the reader did. */
function exchangeOf({ text, format, source, seq, keyRole }: PostedExchange): TrafficExchange {
  const exchange = format === 'har' ? exchangeOfEntry(JSON.parse(text), source, seq) : exchangeOfLine(JSON.parse(text), source, seq)
  if (keyRole !== undefined) exchange.keyRole = keyRole
  return exchange
}

port.on('message', (message: ToJob) => {
  if (message.type === 'batch') {
    for (const posted of message.exchanges) {
      if (posted.light) judge.takeLight(posted.light, () => exchangeOf(posted))
      else judge.take(exchangeOf(posted))
    }
    post({ type: 'done' })
    return
  }
  const cpuMs = threadCpuMs()
  post({ type: 'finished', result: { ...judge.finish(), ...(cpuMs !== undefined ? { cpuMs } : {}) } })
})
post({ type: 'ready' })
