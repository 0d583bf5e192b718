// A --jobs worker thread (started by jobs.ts): judges the partition it is given (partition-judge.ts) with the
// exchanges the reading thread posts, in batches, answering each batch so the reader never runs ahead by more
// than a bounded backlog; on `finish`, answers with the partition's tallies.
import { parentPort, workerData } from 'node:worker_threads'
import { exchangeOfEntryBytes } from './har.ts'
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

/** Set once an exchange could not be read whole: nothing after it is judged (the reader reads the files again, in one thread). */
let unreadable: string | undefined

/** The whole exchange from its bytes or text (its request validated by the reader), numbered and keyed as the reader did. */
function exchangeOf({ text, format, source, seq, keyRole }: PostedExchange, bytes: Buffer | undefined): TrafficExchange {
  const exchange = format === 'har' && bytes ? exchangeOfEntryBytes(bytes, source, seq) : exchangeOfLine(JSON.parse(text ?? ''), source, seq)
  if (keyRole !== undefined) exchange.keyRole = keyRole
  return exchange
}

port.on('message', (message: ToJob) => {
  if (message.type === 'batch') {
    const all = message.bytes ? Buffer.from(message.bytes) : undefined
    for (const posted of message.exchanges) {
      if (unreadable !== undefined) break
      const at = posted.at
      if (posted.light) {
        // Its own copy of the bytes: a light copy a rule keeps must not hold the whole batch.
        const own = all && at ? Buffer.from(all.subarray(at[0], at[1])) : undefined
        judge.takeLight(posted.light, () => exchangeOf(posted, own))
        continue
      }
      let exchange: TrafficExchange
      try {
        exchange = exchangeOf(posted, all && at ? all.subarray(at[0], at[1]) : undefined)
      } catch (error) {
        unreadable = `${posted.source}: ${(error as Error).message}`
        break
      }
      judge.take(exchange)
    }
    post({ type: 'done' })
    return
  }
  const cpuMs = threadCpuMs()
  post({ type: 'finished', result: { ...judge.finish(), ...(cpuMs !== undefined ? { cpuMs } : {}), ...(unreadable !== undefined ? { unreadable } : {}) } })
})
post({ type: 'ready' })
