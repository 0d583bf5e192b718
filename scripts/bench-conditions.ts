// npm run bench:conditions [-- --condition fixed-window --condition slow-staging …]: what a full run costs under
// each deployment condition of src/selfcheck/conditions.ts (default: fixed windows at the spec's 600/min and a slow
// staging server), as ratios a regression shows in (issue 30). Per condition:
// - wall, and the longest check (its deliberate waits, e.g. the 429 probe waiting out a 5/min window, and its own
//   requests one after another): no run can end before it;
// - the floor: the longer of that and the time the main key's requests need at the condition's limit beyond the
//   first window's (requests − limit) ÷ (limit/60 s); wall ÷ floor is what the scheduling and the pacing cost;
// - requests (all, main key), 429s per key, the most and the mean requests in flight per key (mean: as each request
//   saw it when sent), peak memory (RSS sampled every 100 ms), the verdict.
// With both fixed-window and slow-staging it also prints slow-staging's wall ÷ fixed-window's (issue 30's aim: ≤ 1.5).
// Figures only; nothing is asserted. Timings on a shared machine are noisy: compare ratios, not seconds.
import { parseArgs } from 'node:util'
import { CONDITION_NAMES, conditionNamed, runUnderCondition } from '../src/selfcheck/conditions.ts'
import { catalogue } from '../suites/index.ts'

const RSS_SAMPLE_MS = 100

const { values } = parseArgs({
  options: { condition: { type: 'string', multiple: true, default: ['fixed-window', 'slow-staging'] }, seed: { type: 'string', default: '1' } },
})
for (const name of values.condition) {
  if (!CONDITION_NAMES.includes(name)) {
    process.stderr.write(`unknown condition ${name}; one of ${CONDITION_NAMES.join(', ')}\n`)
    process.exit(2)
  }
}

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`
const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}×` : '–')
const walls = new Map<string, number>()

for (const name of values.condition) {
  const condition = conditionNamed(name)
  let peakRss = process.memoryUsage().rss
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), RSS_SAMPLE_MS)
  const result = await runUnderCondition(condition, catalogue, { seed: Number(values.seed) })
  clearInterval(sampler)
  walls.set(name, result.wallMs)
  const stats = result.run.session.transport.stats
  const longest = [...result.run.results].sort((a, b) => b.durationMs - a.durationMs)[0]
  const longestMs = longest?.durationMs ?? 0
  const limit = condition.embedded.rateLimitPerMinute ?? 600
  const main = stats.byKey.main ?? 0
  const paced = (Math.max(0, main - limit) / (limit / 60)) * 1000
  const floor = Math.max(longestMs, paced)
  const inFlight = Object.keys(stats.byKey)
    .sort()
    .map((key) => `${key} ${stats.maxInFlight[key] ?? 0}/${((stats.inFlightAtSend[key] ?? 0) / (stats.byKey[key] || 1)).toFixed(1)}`)
    .join(', ')
  console.log(`${name}: ${condition.title}`)
  console.log(
    `  wall ${s(result.wallMs)}; longest check ${s(longestMs)} (${longest?.id ?? 'none'}), wall ÷ it ${ratio(result.wallMs, longestMs)}; ` +
      `floor ${s(floor)} (${paced > longestMs ? `main key's ${main - limit} requests past the first window at ${limit}/min` : 'the longest check'}), wall ÷ floor ${ratio(result.wallMs, floor)}`,
  )
  console.log(
    `  ${stats.total} requests (main key ${main}), 429s ${JSON.stringify(stats.rateLimited)}; in flight most/mean: ${inFlight}; ` +
      `peak RSS ${Math.round(peakRss / 2 ** 20)} MB; verdict ${result.verdict}`,
  )
  if (result.problems.length) console.log(`  ${result.problems.length} checks failed, errored or skipped a MUST:\n    ${result.problems.join('\n    ')}`)
}
const fast = walls.get('fixed-window')
const slow = walls.get('slow-staging')
if (fast !== undefined && slow !== undefined) console.log(`slow-staging wall ÷ fixed-window wall: ${ratio(slow, fast)} (aim ≤ 1.5×)`)
