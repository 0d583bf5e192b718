// The checks given, run in process against a reference server a test started itself, with the webhook sink on
// `sinkPort` (where the test pointed the server's deliveries, directly or through a tap) and short webhook waits.
import type { CheckDefinition } from '../../src/checks/types.ts'
import type { ReferenceServer } from '../../src/reference/index.ts'
import { runInProcess, type InProcessRun } from '../../src/run/in-process.ts'

export function runAgainst(
  reference: ReferenceServer,
  checks: CheckDefinition[],
  options: { sinkPort: number; retryWaitS: number; runId: string },
): Promise<InProcessRun> {
  return runInProcess({
    checks,
    config: {
      baseUrl: reference.baseUrl,
      keys: reference.keys,
      restrictedScopes: reference.restrictedScopes,
      fixtures: reference.fixtures,
      webhookSecret: reference.webhookSecret,
      sinkPort: options.sinkPort,
      webhookTimeoutS: 8,
      webhookRetryWaitS: options.retryWaitS,
    },
    profile: 'full',
    runId: options.runId,
  })
}
