// npm run bench:conditions [-- --condition fixed-window --condition delay-600ms …]: what a full run costs
// under each deployment condition of src/selfcheck/conditions.ts (default: fixed windows at the spec's
// 600/min). Prints wall time, requests (all, main key), 429s per key, the verdict, and the rate-limit probe's
// own time (the longest rate-limits check: its wait for the rate-limited key's window), which a run at
// 600/min should not exceed by more than a few seconds. Figures only; nothing is asserted.
import { parseArgs } from 'node:util'
import { CONDITION_NAMES, conditionNamed, runUnderCondition } from '../src/selfcheck/conditions.ts'
import { catalogue } from '../suites/index.ts'

const { values } = parseArgs({ options: { condition: { type: 'string', multiple: true, default: ['fixed-window'] }, seed: { type: 'string', default: '1' } } })
for (const name of values.condition) {
  if (!CONDITION_NAMES.includes(name)) {
    process.stderr.write(`unknown condition ${name}; one of ${CONDITION_NAMES.join(', ')}\n`)
    process.exit(2)
  }
}

for (const name of values.condition) {
  const result = await runUnderCondition(conditionNamed(name), catalogue, { seed: Number(values.seed) })
  const stats = result.run.session.transport.stats
  const probe = result.run.results.filter((r) => r.area === 'rate-limits').sort((a, b) => b.durationMs - a.durationMs)[0]
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`
  console.log(`${name}: ${result.condition.title}`)
  console.log(
    `  wall ${s(result.wallMs)}, ${stats.total} requests (main key ${stats.byKey.main ?? 0}), 429s ${JSON.stringify(stats.rateLimited)}, verdict ${result.verdict}`,
  )
  if (probe) console.log(`  rate-limit probe: ${probe.id} took ${s(probe.durationMs)}; the run took ${s(Math.max(0, result.wallMs - probe.durationMs))} more`)
  if (result.problems.length) console.log(`  ${result.problems.length} checks failed, errored or skipped a MUST:\n    ${result.problems.join('\n    ')}`)
}
