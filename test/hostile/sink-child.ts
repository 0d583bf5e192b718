// Child-process entry (started through bin/run-ts.mjs with --expose-gc and an IPC channel): the standalone
// `sink` command, as `crm-conformance sink` runs it (with a log file when one is named), answering questions about its own memory and counts.
import { runSinkCommand } from '../../src/webhooks/sink-command.ts'
import type { Sink } from '../../src/webhooks/sink.ts'

export type SinkChildMessage = { type: 'measure'; id: number } | { type: 'stop' }
export interface SinkChildMeasure {
  type: 'measure'
  id: number
  heapUsed: number
  rss: number
  received: number
  kept: number
  noise: Record<string, number>
}

const [secret, logFile] = process.argv.slice(2) as [string, string | undefined]
const controller = new AbortController()
let sink: Sink | undefined
const done = runSinkCommand(
  { host: '127.0.0.1', port: 0, secret, logFile },
  {
    signal: controller.signal,
    write: () => undefined,
    onStarted: (s) => {
      sink = s
      process.send!({ type: 'ready', url: s.url })
    },
  },
)

process.on('message', (message: SinkChildMessage) => {
  if (message.type === 'stop') {
    controller.abort()
    void done.then(() => process.exit(0))
    return
  }
  // Twice: a collection can free what the first one only finalised.
  globalThis.gc!()
  globalThis.gc!()
  const counts = sink!.counts()
  const reply: SinkChildMeasure = {
    type: 'measure',
    id: message.id,
    heapUsed: process.memoryUsage().heapUsed,
    rss: process.memoryUsage().rss,
    received: counts.received,
    kept: sink!.deliveries.length,
    noise: counts.noise,
  }
  process.send!(reply)
})
process.on('disconnect', () => controller.abort())
