// `npm run bench:explore`: what the explorer finds alone. Every fault of the reference server's catalogue
// (src/reference/faults.ts) is switched on in turn and `--only explore` runs at the CI budget over a few seeds;
// prints, per fault, the aspects it failed on each seed, then the figures: faults caught on every seed, on some,
// never; and the requests a run spends. A figure printed, never a timed assertion.
//   node bin/run-ts.mjs scripts/explore-faults.ts [--seeds N] [--budget N] [--fault ID]… [--json FILE]
import { writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { DEFAULTS } from '../src/config/config.ts'
import { FAULTS } from '../src/reference/index.ts'
import { runInProcess } from '../src/run/in-process.ts'
import { catalogue } from '../suites/index.ts'

const { values } = parseArgs({
  options: {
    seeds: { type: 'string', default: '3' },
    budget: { type: 'string', default: String(DEFAULTS.exploreRequests) },
    fault: { type: 'string', multiple: true },
    json: { type: 'string' },
  },
})
const seeds = Number(values.seeds)
const budget = Number(values.budget)
const faults = values.fault?.length ? FAULTS.filter((f) => values.fault!.includes(f.id)) : FAULTS

interface Row {
  fault: string
  /** Per seed: the explore checks that failed (empty: not caught). */
  bySeed: string[][]
  requests: number[]
}

const rows: Row[] = []
const started = Date.now()
for (const fault of faults) {
  const row: Row = { fault: fault.id, bySeed: [], requests: [] }
  for (let seed = 1; seed <= seeds; seed++) {
    const { results } = await runInProcess({
      checks: catalogue,
      only: ['explore'],
      embedded: { faults: [fault.id] },
      seed,
      config: { exploreRequests: budget, webhookSecret: '' },
    })
    row.bySeed.push(results.filter((r) => r.status === 'failed' && r.level !== 'INFO').map((r) => r.id))
    row.requests.push(Number(results[0]?.observations['explore.requests'] ?? 0))
  }
  rows.push(row)
  const shown = row.bySeed.map((ids) => (ids.length ? ids.map((id) => id.replace('explore.', '')).join('+') : '-')).join(' ')
  console.log(`${fault.id.padEnd(48)} ${shown}`)
}
const every = rows.filter((r) => r.bySeed.every((ids) => ids.length > 0))
const some = rows.filter((r) => r.bySeed.some((ids) => ids.length > 0) && !every.includes(r))
const requests = rows.flatMap((r) => r.requests)
console.log(
  `\n${new Date().toISOString().slice(0, 10)}: --only explore at ${budget} requests, ${seeds} seed(s) per fault: caught on every seed ${every.length} of ${rows.length} faults, on some seeds ${some.length}, never ${rows.length - every.length - some.length}; ` +
    `requests per run ${Math.min(...requests)}–${Math.max(...requests)} (mean ${Math.round(requests.reduce((a, b) => a + b, 0) / requests.length)}); ${Math.round((Date.now() - started) / 1000)} s`,
)
if (values.json) writeFileSync(values.json, JSON.stringify(rows, null, 2))
