// node bin/run-ts.mjs scripts/judge-suite-traffic.ts [--only AREA …] [--fault NAME] [--variant NAME] [--rate N --limiter SHAPE] [--repeat N]
// A sanity run of the traffic rules on the suite's own traffic: runs the checks of the given areas in process
// against the reference server, hands every exchange of the run to the verifier with TRAFFIC_RULES, and prints
// each rule's row (server violations are bugs of ours against a legal variant; client violations are the suite's
// deliberate bad requests). Then replays the same exchanges N times through a fresh verifier and prints the
// throughput. Figures only; nothing is asserted (the benchmark proper is scripts/bench-traffic.ts).
import { parseArgs } from 'node:util'
import { runInProcess } from '../src/run/in-process.ts'
import type { Exchange } from '../src/http/exchange.ts'
import type { LimiterShape } from '../src/reference/rate-limit.ts'
import { resolveOperation } from '../src/traffic/operation.ts'
import { TRAFFIC_RULES } from '../src/traffic/rules/index.ts'
import type { TrafficExchange } from '../src/traffic/types.ts'
import { createVerifier } from '../src/traffic/verifier.ts'
import { catalogue } from '../suites/index.ts'

const { values } = parseArgs({
  options: {
    only: { type: 'string', multiple: true, default: ['pagination', 'filters', 'idempotency', 'records', 'validation', 'state'] },
    fault: { type: 'string', multiple: true, default: [] },
    variant: { type: 'string' },
    repeat: { type: 'string', default: '20' },
    rate: { type: 'string' },
    limiter: { type: 'string' },
  },
})

function toTraffic(e: Exchange): TrafficExchange {
  const ended = Date.parse(e.startedAt) + e.durationMs
  return {
    seq: e.seq,
    source: e.checkId ?? 'suite',
    request: e.request,
    ...(e.response
      ? {
          response: {
            status: e.response.status,
            headers: e.response.headers,
            body: e.response.body ?? e.response.rawText,
            ...(e.response.truncated ? { truncated: true } : {}),
          },
        }
      : {}),
    startedAt: e.startedAt,
    endedAt: new Date(ended).toISOString(),
    keyRole: e.keyRole,
  }
}

const run = await runInProcess({
  checks: catalogue,
  only: values.only,
  embedded: {
    faults: values.fault,
    ...(values.variant ? { variant: values.variant } : {}),
    ...(values.rate ? { rateLimitPerMinute: Number(values.rate) } : {}),
    ...(values.limiter ? { conditions: { limiter: values.limiter as LimiterShape } } : {}),
  },
})
const basePath = new URL(run.session.baseUrl).pathname
const traffic = run.session.exchanges.map(toTraffic).sort((a, b) => Date.parse(a.endedAt) - Date.parse(b.endedAt))
const verifier = createVerifier({ rules: TRAFFIC_RULES, basePath, resolve: resolveOperation })
for (const e of traffic) verifier.observe(e)
const rows = verifier.finish()
console.log(
  `${traffic.length} exchanges of ${values.only.join(', ')}${values.fault.length ? ` with fault ${values.fault.join(', ')}` : ''}; base path ${basePath}`,
)
for (const row of rows)
  console.log(
    `  ${row.status.padEnd(7)} ${row.level.padEnd(6)} ${row.id.padEnd(44)} ${row.side ?? ''} ${row.status === 'failed' ? row.message.slice(0, 300) : `(${row.judged} judged)`}`,
  )

const repeat = Number(values.repeat)
const timed = createVerifier({ rules: TRAFFIC_RULES, basePath, resolve: resolveOperation })
const started = process.hrtime.bigint()
let n = 0
for (let i = 0; i < repeat; i++) for (const e of traffic) timed.observe({ ...e, seq: ++n })
timed.finish()
const ms = Number(process.hrtime.bigint() - started) / 1e6
console.log(
  `throughput: ${n} exchanges in ${ms.toFixed(0)} ms = ${Math.round((n / ms) * 1000)} exchanges/s; heap ${Math.round(process.memoryUsage().heapUsed / 1e6)} MB`,
)
