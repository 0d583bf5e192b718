// The vitest integration, for users who want the checks inside their own vitest runs: each suite file
// (suites/<area>/<area>.suite.ts) registers its check declarations as tests, and runs them as one run of the
// one run path (src/run/execute.ts) against CRM_BASE_URL (or the embedded reference server), configured from
// the environment / .env like `crm-conformance run`. The CLI does not use vitest.
import { describe, test } from 'vitest'
import type { CheckDefinition, CheckResult } from '../checks/types.ts'
import { DEFAULTS, loadConfig } from '../config/config.ts'
import { executeRun } from './execute.ts'
import { junitCaseName } from '../report/junit.ts'

export interface RegisterOptions {
  /**
   * The checks the file's run executes, when more than it registers: the run-wide invariants judge a run of
   * every area, as they do in the CLI. Default: the registered checks.
   */
  runs?: CheckDefinition[]
}

/** The test's name: the check's id, level, clauses and title (as junit.xml has it). */
export const testName = junitCaseName

export function registerChecks(checks: CheckDefinition[], options: RegisterOptions = {}): void {
  let results: Promise<Map<string, CheckResult>> | undefined
  const resultsOnce = () =>
    (results ??= (async () => {
      const config = loadConfig()
      const run = await executeRun({
        config,
        checks: options.runs ?? checks,
        runId: `vitest-${Date.now().toString(36)}`,
        embedded: config.baseUrl === undefined ? { rateLimitPerMinute: DEFAULTS.embeddedRateLimitPerMinute } : undefined,
      })
      return new Map(run.results.map((r) => [r.id, r]))
    })())
  describe(checks[0]?.area ?? 'crm-conformance', () => {
    for (const check of checks) {
      // The run bounds each check (its own deadline, CRM_RUN_TIMEOUT_S for the whole): no vitest timeout.
      test(testName(check), { timeout: 0 }, async (t) => {
        const result = (await resultsOnce()).get(check.id)
        if (!result) throw new Error(`harness error: ${check.id} has no result`)
        if (result.status === 'skipped') t.skip(result.message)
        if (result.status === 'failed') throw new Error(`${result.message}${result.expected ? `\nexpected: ${result.expected}` : ''}\nreplay: ${result.replay}`)
        if (result.status === 'error') throw new Error(`harness error (not a server verdict): ${result.message}`)
      })
    }
  })
}
