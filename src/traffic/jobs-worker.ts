// A --jobs worker thread (started by jobs.ts): judges the partition it is given (partition-judge.ts) with the
// exchanges the reading thread posts, in batches, answering each batch so the reader never runs ahead by more
// than a bounded backlog; on `finish`, answers with the partition's tallies.
import { parentPort, workerData } from 'node:worker_threads'
import { compileSchemas } from '../schemas/registry.ts'
import type { FromJob, JobData, ToJob } from './jobs.ts'
import { PartitionJudge } from './partition-judge.ts'
import { TRAFFIC_RULES } from './rules/index.ts'
import type { TrafficRule } from './types.ts'

const data = workerData as JobData
const port = parentPort!
const post = (message: FromJob) => port.postMessage(message)
// A test hook: a module whose `rules` replace the catalogue's (the reading thread routes with the same module's).
const rules = data.rulesModule ? ((await import(data.rulesModule)) as { rules: readonly TrafficRule[] }).rules : TRAFFIC_RULES
const judge = new PartitionJudge({ basePath: data.basePath, config: data.config, rules, partition: data.partition, total: data.total })
compileSchemas()

port.on('message', (message: ToJob) => {
  if (message.type === 'batch') {
    for (const exchange of message.exchanges) judge.take(exchange)
    post({ type: 'done' })
    return
  }
  post({ type: 'finished', result: judge.finish() })
})
post({ type: 'ready' })
