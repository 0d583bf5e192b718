// One exploration per run: random sequences of operations (fast-check's model-based testing), each sent to the
// target and to a fresh reference model, judged through the comparison contract, within a request budget
// (CRM_EXPLORE_REQUESTS): most of it to explore, the rest to shrink a failing sequence to its shortest form.
// Every aspect check awaits the same exploration (the session's memo) and reads its own finding in it.
import fc from 'fast-check'
import { CheckFailed, CheckSkipped, type CheckContext, type Exchange } from '../../src/checks/index.ts'
import { commandArbitraries } from './commands.ts'
import type { Aspect } from './contract.ts'
import { Finding, World, type Budget, type ExploreModel, type Step } from './world.ts'

/** Commands in one sequence at most: long enough for a walk interleaved with writes, short enough to shrink. */
export const MAX_COMMANDS = 12
/** Of the budget, what exploring may spend; the rest is kept for shrinking a failure. */
const EXPLORE_SHARE = 0.7

export interface Exploration {
  /** The shortest failing sequence found, its aspect and evidence. */
  finding?: { aspect: Aspect; message: string; expected: string; steps: Step[]; exchanges: Exchange[]; shrinks: number; path?: string }
  /** Differences the contract cannot place (information). */
  unplaced: string[]
  /** Requests sent to the target, sequences run, commands run. */
  requests: number
  sequences: number
  budget: number
  seed: number
}

export async function explore(ctx: CheckContext): Promise<Exploration> {
  const budget = ctx.config.exploreRequests
  if (budget <= 0) throw new CheckSkipped('the explorer has no budget (CRM_EXPLORE_REQUESTS=0 or --explore-requests 0)')
  const openOracle = ctx.session.oracle
  if (!openOracle) throw new CheckSkipped('no reference model in this run to compare with (the run path provides one)')
  const spend: Budget = { spent: 0, limit: Math.max(1, Math.floor(budget * EXPLORE_SHARE)) }
  const unplaced: string[] = []
  let sequences = 0
  let failed = false
  let harness: unknown
  const property = fc.asyncProperty(fc.commands(commandArbitraries(), { maxCommands: MAX_COMMANDS, size: 'max' }), async (commands) => {
    if (harness !== undefined || spend.spent >= spend.limit) return
    sequences++
    const world = new World(ctx, openOracle, spend, unplaced)
    try {
      await fc.asyncModelRun(() => ({ model: { own: [] } as ExploreModel, real: world }), commands)
    } catch (error) {
      if (error instanceof Finding) {
        // From the first failure on, shrinking may spend the whole budget.
        failed = true
        spend.limit = budget
      } else harness ??= error
      throw error
    } finally {
      await world.close()
    }
  })
  // Sequences end early once the budget is spent, so more are asked for than it pays.
  const details = await fc.check(property, { seed: ctx.seed, numRuns: Math.max(1, Math.ceil(budget / 4)) })
  if (harness !== undefined) throw harness instanceof CheckFailed || harness instanceof Error ? harness : new Error(String(harness))
  const result: Exploration = { unplaced, requests: spend.spent, sequences, budget, seed: ctx.seed }
  const error = details.errorInstance
  if (failed && error instanceof Finding)
    result.finding = {
      aspect: error.aspect,
      message: error.message,
      expected: error.expected,
      steps: error.steps,
      exchanges: error.exchanges,
      shrinks: details.numShrinks,
      path: details.counterexamplePath ?? undefined,
    }
  return result
}
