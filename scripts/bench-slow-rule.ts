// A rule slow on purpose, for `npm run bench:traffic`'s latency figures: the catalogue plus one rule that spends
// 2 ms of CPU on every exchange (a rule as costly as a schema walk of a huge page). Loaded by the proxy's
// judging thread through its rulesModule hook, or judged on the forwarding thread to show what the thread buys.
import { TRAFFIC_RULES } from '../src/traffic/rules/index.ts'
import type { TrafficRule } from '../src/traffic/types.ts'

const SPENT_MS = 2

const slow: TrafficRule = {
  id: 'traffic.bench.slow',
  clauses: ['§1'],
  level: 'INFO',
  title: 'a rule that spends 2 ms of CPU on each exchange',
  side: 'server',
  start: () => ({
    observe(_exchange, ctx) {
      ctx.exercised()
      const until = performance.now() + SPENT_MS
      while (performance.now() < until);
    },
  }),
}

export const rules: TrafficRule[] = [...TRAFFIC_RULES, slow]
