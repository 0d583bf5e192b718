// report.json's `coverage` block: the requirement matrix measured against the checks this run brought to a
// verdict (passed, failed or waived). A check that was skipped, errored or not selected covers nothing here;
// the cells it would judge show as `not-run`.
import type { CheckDefinition, CheckResult } from '../checks/types.ts'
import { outcomeOf } from './build.ts'
import { coverageBlock, type CoverageBlock } from '../coverage/matrix.ts'

const JUDGED = new Set(['passed', 'failed', 'waived'])

export function coverageOfRun(results: readonly CheckResult[], catalogue: readonly Pick<CheckDefinition, 'id' | 'level'>[]): CoverageBlock {
  const judged = results.filter((r) => JUDGED.has(outcomeOf(r))).map((r) => r.id)
  return coverageBlock(
    judged,
    'run',
    catalogue.map((c) => c.id),
    new Map(catalogue.map((c) => [c.id, c.level])),
  )
}
