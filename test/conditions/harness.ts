// Shared by the condition files (one condition per file, so vitest runs them in parallel processes): the
// whole suite, full profile, against the reference server playing one deployment condition, must end as it
// ends on a fast, unthrottled server: compliant, nothing failed or errored, no MUST skipped, no 429 on the
// main key, every check run.
import { expect, test } from 'vitest'
import { conditionNamed, runUnderCondition, type ConditionRun } from '../../src/selfcheck/conditions.ts'
import { catalogue } from '../../suites/index.ts'

/** Bound of one condition run; the slowest (every response 2 s late) takes a few minutes. */
const CONDITION_TIMEOUT_MS = 20 * 60_000

/** `also`: what this condition proves besides the verdict. */
export function conditionTest(name: string, also?: (result: ConditionRun) => void): void {
  const condition = conditionNamed(name)
  test(
    `under ${condition.title}: compliant, 0 failed, 0 errored, 0 MUST skipped, 0 429s on the main key`,
    async () => {
      const result = await runUnderCondition(condition, catalogue)
      const stats = result.run.session.transport.stats
      console.log(
        `condition ${name}: ${result.verdict}, ${result.run.results.length} checks, ${stats.total} requests (main ${stats.byKey.main ?? 0}), 429s ${JSON.stringify(stats.rateLimited)}, ${Math.round(result.wallMs / 1000)} s` +
          (result.proxied
            ? `, through the proxy: ${result.proxied.requests} requests, ${result.proxied.tunnels} tunnels, ${result.proxied.refused} refused`
            : '') +
          (result.problems.length ? `\n  ${result.problems.join('\n  ')}` : ''),
      )
      expect(result.run.results.map((r) => r.id).sort(), 'every check of the catalogue ran').toEqual(catalogue.map((c) => c.id).sort())
      expect(result.problems, 'no check failed or errored, no MUST check was skipped').toEqual([])
      expect(stats.rateLimited.main ?? 0, 'no 429 on the main key').toBe(0)
      expect(result.verdict, result.reasons.join('; ')).toBe('compliant')
      if (result.proxied) {
        // Every request of the run went through the proxy: one forwarded request each, or, when the client
        // tunnels, at least one CONNECT (the count inside a tunnel is not visible to the proxy).
        expect(result.proxied.refused).toBe(0)
        if (result.proxied.tunnels === 0) expect(result.proxied.requests, 'requests forwarded by the proxy').toBe(stats.total)
        else expect(result.proxied.requests + result.proxied.tunnels).toBeGreaterThan(0)
      }
      also?.(result)
    },
    CONDITION_TIMEOUT_MS,
  )
}
