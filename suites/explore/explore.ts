// One exploration per run: random sequences of operations (fast-check's model-based testing), each sent to the
// target and to a fresh reference model, judged through the comparison contract, within a request budget
// (CRM_EXPLORE_REQUESTS). It explores in rounds: each spends most of what is left exploring and, once a sequence
// fails, the rest of its share shrinking it to its shortest form; the next round looks past the aspects already
// found, so one fault does not hide another. Every aspect check awaits the same exploration (the session's memo)
// and reads its own finding in it.
import fc from 'fast-check'
import { CheckSkipped, type CheckContext, type Exchange, type Oracle } from '../../src/checks/index.ts'
import { clockStepProbe, commandArbitraries, idempotencyProbe, openingArbitrary } from './commands.ts'
import { combinedArbitrary, walkProbe } from './commands-more.ts'
import type { Aspect } from './contract.ts'
import { Finding, World, type Budget, type ExploreModel, type Step } from './world.ts'

/** Commands in one sequence at most: long enough for a walk interleaved with writes, short enough to shrink. */
export const MAX_COMMANDS = 12
/** Of what is left at a round's start, what exploring may spend; shrinking a failure may spend the rest. */
const EXPLORE_SHARE = 0.7
/** A round with less than this left is not started: no sequence of interest fits. */
const SMALLEST_ROUND = 10

export interface AspectFinding {
  aspect: Aspect
  message: string
  expected: string
  /** The shortest failing sequence found, with both sides' answers. */
  steps: Step[]
  exchanges: Exchange[]
  shrinks: number
  path?: string
}

export interface Exploration {
  findings: Partial<Record<Aspect, AspectFinding>>
  /** Differences the contract cannot place (information). */
  unplaced: string[]
  /** Per aspect, the comparisons made on real answers of both sides, shrinking included: 0 means the aspect was not judged. */
  judged: Partial<Record<Aspect, number>>
  /** The cells of the API the requests sent to the target fell in (src/coverage/explored.ts), shrinking included. */
  explored: Set<string>
  /** Requests sent to the target, shrinking included. */
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
  const result: Exploration = { findings: {}, unplaced: [], judged: {}, explored: new Set(), requests: 0, sequences: 0, budget, seed: ctx.seed }
  const spend: Budget = { spent: 0, limit: 0 }
  // One model for the whole exploration, opened at the first command that needs it.
  let opened: Promise<Oracle> | undefined
  const oracle = () => (opened ??= openOracle())
  try {
    for (let round = 0; budget - spend.spent >= SMALLEST_ROUND; round++) {
      const found = await exploreRound(ctx, oracle, result, spend, round)
      if (!found) break
      result.findings[found.aspect] = found
    }
  } finally {
    if (opened) await (await opened).close()
  }
  result.requests = spend.spent
  return result
}

/** One round: a fast-check run of sequences, the aspects already found muted; its shrunk finding, if any. */
async function exploreRound(
  ctx: CheckContext,
  oracle: () => Promise<Oracle>,
  result: Exploration,
  spend: Budget,
  round: number,
): Promise<AspectFinding | undefined> {
  const left = result.budget - spend.spent
  spend.limit = spend.spent + Math.max(1, Math.floor(left * EXPLORE_SHARE))
  const muted = new Set(Object.keys(result.findings) as Aspect[])
  let failed = false
  let harness: unknown
  const sequences = fc.tuple(openingArbitrary(), fc.commands(commandArbitraries(), { maxCommands: MAX_COMMANDS, size: 'max' }), combinedArbitrary(ctx))
  const property = fc.asyncProperty(sequences, async ([opening, commands, combined]) => {
    if (harness !== undefined || spend.spent >= spend.limit) return
    const first = result.sequences++ === 0
    const world = new World(ctx, oracle, spend, result.unplaced, muted, result.judged, result.explored)
    try {
      const setup = async () => {
        const model: ExploreModel = { own: [] }
        if (first) await idempotencyProbe(opening)?.run(model, world)
        await opening.run(model, world)
        if (first) await clockStepProbe(opening)?.run(model, world)
        if (first) await walkProbe(opening)?.run(model, world)
        await combined?.run(model, world)
        return { model, real: world }
      }
      await fc.asyncModelRun(setup, commands)
    } catch (error) {
      if (error instanceof Finding) {
        // From the first failure on, shrinking may spend the rest of the round's share.
        if (!failed) spend.limit = Math.min(result.budget, spend.spent + Math.ceil(left * (1 - EXPLORE_SHARE)))
        failed = true
      } else harness ??= error
      throw error
    }
  })
  // Sequences end at once when the budget is spent, so more are asked for than it pays; each round its own seed.
  const details = await fc.check(property, { seed: (ctx.seed + round * 7919) % 2 ** 31, numRuns: Math.max(1, Math.ceil(left / 4)) })
  if (harness !== undefined) throw harness instanceof Error ? harness : new Error(String(harness))
  const error = details.errorInstance
  if (!failed || !(error instanceof Finding)) return undefined
  return {
    aspect: error.aspect,
    message: error.message,
    expected: error.expected,
    steps: error.steps,
    exchanges: error.exchanges,
    shrinks: details.numShrinks,
    path: details.counterexamplePath ?? undefined,
  }
}
