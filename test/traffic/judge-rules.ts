// Rules for the proxy's judging-thread tests (judge-thread.test.ts), loaded in the thread through the proxy's
// rulesModule hook: the catalogue, plus a rule that blocks until a file named by this module's URL (?flag=)
// exists (a rule as slow as one can be), and that ends its thread on a request marked `x-test-crash`.
import { existsSync } from 'node:fs'
import { TRAFFIC_RULES } from '../../src/traffic/rules/index.ts'
import type { TrafficRule } from '../../src/traffic/types.ts'

const flag = new URL(import.meta.url).searchParams.get('flag')
const sleeper = new Int32Array(new SharedArrayBuffer(4))
/** However stuck, a test that forgot the flag ends. */
const LONGEST_MS = 60_000

const slow: TrafficRule = {
  id: 'traffic.test.slow',
  clauses: ['§1'],
  level: 'INFO',
  title: 'a rule that blocks its thread until the test says so',
  side: 'server',
  start: () => ({
    observe(exchange, ctx) {
      ctx.exercised()
      // Ends the thread as a hostile input that crashes it would.
      if (exchange.request.headers['x-test-crash'] !== undefined) process.exit(7)
      const until = Date.now() + LONGEST_MS
      while (flag && !existsSync(flag) && Date.now() < until) Atomics.wait(sleeper, 0, 0, 10)
    },
  }),
}

export const rules: TrafficRule[] = [...TRAFFIC_RULES, slow]
