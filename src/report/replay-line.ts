// The command that replays one row of a report. Every row a run writes carries its own; for one that does not (a
// report.json written before rows did, rendered again), the report's target, seed and profile make it through the
// run's one replay-target source (src/checks/replay.ts), so it names the profile and the target as the run's do.
import type { CheckResult } from '../checks/types.ts'
import { replayCommand, replayTarget } from '../checks/replay.ts'
import type { RunReport } from './types.ts'

/** What a row's replay line is made from when the row has none. */
export type ReplayRun = Pick<RunReport, 'seed' | 'profile' | 'target'>

export function rowReplay(check: Pick<CheckResult, 'id' | 'replay'>, run: ReplayRun): string {
  const own = check.replay?.trim()
  if (own) return own
  const { target } = run
  return replayCommand(replayTarget({ seed: run.seed, profile: run.profile, baseUrl: target.baseUrl, embedded: target.embedded ? target : undefined }), {
    only: [check.id],
  })
}
