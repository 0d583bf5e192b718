// Runs one fast-check property inside a check: seeded by the run seed, `pbtRuns` cases, and a bounded shrink
// (every shrink step is another request, §"frugal"). A failure ends the check with the shrunk counter-example,
// the seed, the path and the command that replays it; a harness error or a skip stops at once, unshrunk.
import { CheckFailed, CheckSkipped, replayCommand, replayTarget } from '../../src/checks/index.ts'
import type { CheckContext } from '../../src/checks/index.ts'
import fc from 'fast-check'
/** Failing cases tried while shrinking, after the first failure; past it every case counts as passing. */
export const MAX_SHRINK_CASES = 4

export async function checkProperty<T>(ctx: CheckContext, checkId: string, arbitrary: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>): Promise<void> {
  let failed = false
  let stop = false
  let shrinkCases = 0
  const property = fc.asyncProperty(arbitrary, async (value) => {
    if (stop) return
    if (failed && ++shrinkCases > MAX_SHRINK_CASES) return
    try {
      await predicate(value)
    } catch (error) {
      failed = true
      // Only a server fault is worth shrinking; anything else is reported as it came.
      if (!(error instanceof CheckFailed)) stop = true
      throw error
    }
  })
  const details = await fc.check(property, { seed: ctx.seed, numRuns: ctx.config.pbtRuns })
  if (!details.failed) return
  const error = details.errorInstance
  if (!(error instanceof CheckFailed)) {
    if (error instanceof CheckSkipped || error instanceof Error) throw error
    throw new Error(`property failed without an error: ${String(error)}`)
  }
  const counterexample = details.counterexample?.[0]
  const replay = replayCommand(replayTarget(ctx.session), { only: [checkId] })
  ctx.note(`fast-check seed ${details.seed}, path ${details.counterexamplePath}, shrunk ${details.numShrinks} time(s); replay: ${replay}`)
  ctx.fail(`${error.message} [fast-check seed ${details.seed}, path ${details.counterexamplePath}; counter-example in data]`, {
    ...error.detail,
    data: {
      counterexample,
      seed: details.seed,
      path: details.counterexamplePath,
      shrinks: details.numShrinks,
      replay,
      detail: error.detail.data,
    },
  })
}
