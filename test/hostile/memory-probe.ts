// Child-process entry for the memory test: sends `count` GETs through the project's Transport to `baseUrl`,
// keeping every exchange as a run session does (evidence), and prints the process's peak resident memory.
// Started once against a clean server and once against a gzip bomb; the test compares the two peaks.
import { Redactor } from '../../src/http/redact.ts'
import { Transport } from '../../src/http/transport.ts'
import type { Exchange } from '../../src/http/exchange.ts'

const [baseUrl, key, countText] = process.argv.slice(2)
const count = Number(countText ?? 300)
const kept: Exchange[] = []
const transport = new Transport({
  baseUrl: baseUrl!,
  keys: { main: key! },
  redactor: new Redactor([{ name: 'CRM_API_KEY', value: key! }]),
  timeoutMs: 20_000,
  maxResponseBytes: 4 * 1024 * 1024,
  concurrency: 4,
  requestBudget: count + 10,
  maxRetryAfterS: 1,
  onExchange: (exchange) => kept.push(exchange),
})
let next = 0
let answered = 0
await Promise.all(
  Array.from({ length: 4 }, async () => {
    while (next < count) {
      next++
      const exchange = await transport.send({ method: 'GET', path: '/accounts' })
      if (exchange.response) answered++
    }
  }),
)
await transport.close()
const keptBytes = Buffer.byteLength(JSON.stringify(kept))
process.stdout.write(
  `${JSON.stringify({ maxRssKb: process.resourceUsage().maxRSS, answered, kept: kept.length, keptBytes, note: kept.at(-1)?.response?.note })}\n`,
)
