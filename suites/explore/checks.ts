// The explorer's checks, one per aspect of the comparison contract (contract.ts): each awaits the run's one
// exploration (explore.ts) and fails when its shortest failing sequence broke that aspect. `--only explore` runs
// them alone; CRM_EXPLORE_REQUESTS (or --explore-requests, or --profile deep) sets what they may spend.
import { counted, defineCheck, replayCommand, replayTarget, type CheckContext, type CheckDefinition } from '../../src/checks/index.ts'
import { ASPECTS, type Aspect } from './contract.ts'
import { explore, type Exploration } from './explore.ts'

const area = 'explore'
/** A deep exploration at 600/min takes minutes: the deadline excludes the pacer's waits but not the server's answers. */
const EXPLORE_TIMEOUT_MS = 900_000

function exploration(ctx: CheckContext): Promise<Exploration> {
  return ctx.session.memo('explore', () => explore(ctx))
}

const cellsObserved = new WeakSet<Exploration>()

/**
 * The cells the exploration's requests fell in, observed once per run by the first explore check to read it
 * (report.json's `explored` block and the `--history` file read them from there).
 */
function observeCells(ctx: CheckContext, result: Exploration): void {
  if (cellsObserved.has(result)) return
  cellsObserved.add(result)
  ctx.observe('explore.cells', [...result.explored].sort())
}

/** The command that replays the exploration (the budget decides the sequences drawn). */
export function exploreReplay(ctx: CheckContext, budget: number): string {
  return `CRM_EXPLORE_REQUESTS=${budget} ${replayCommand(replayTarget(ctx.session), { only: ['explore'] })}`
}

function aspectCheck(aspect: Aspect): CheckDefinition {
  const rule = ASPECTS[aspect]
  return defineCheck({
    id: `explore.${aspect}`,
    clauses: rule.clauses,
    level: rule.level,
    area,
    title: rule.title,
    writes: 'safe',
    timeoutMs: EXPLORE_TIMEOUT_MS,
    async run(ctx) {
      const result = await exploration(ctx)
      ctx.observe('explore.requests', result.requests)
      ctx.observe('explore.sequences', result.sequences)
      observeCells(ctx, result)
      const comparisons = result.judged[aspect] ?? 0
      ctx.observe('explore.comparisons', comparisons)
      const finding = result.findings[aspect]
      // Rule 2: no finding is a pass only where the aspect was compared at least once.
      if (!finding && comparisons === 0)
        ctx.skip(
          `${aspect} was never compared: the exploration (${counted(result.requests, 'request')}, ${counted(result.sequences, 'sequence')}, seed ${result.seed}) never made ${rule.needs}; a larger --explore-requests (CRM_EXPLORE_REQUESTS, now ${result.budget}) gives it room`,
        )
      if (!finding) return
      const replay = exploreReplay(ctx, result.budget)
      ctx.note(`shortest sequence (${finding.steps.length} steps, ${finding.shrinks} shrinks): ${finding.steps.map((s) => s.command).join(' → ')}`)
      ctx.note(`replay: ${replay}`)
      ctx.fail(`${finding.message} [after ${finding.steps.length} explored steps; replay: ${replay}]`, {
        expected: finding.expected,
        exchanges: finding.exchanges,
        data: { sequence: finding.steps.map((s) => s.command), steps: finding.steps, seed: result.seed, path: finding.path, replay },
      })
    },
  })
}

export const checks: CheckDefinition[] = [
  ...(Object.keys(ASPECTS) as Aspect[]).map(aspectCheck),
  defineCheck({
    id: 'explore.unplaced',
    clauses: ['§7.8', '§4.1'],
    level: 'INFO',
    area,
    title: 'Differences from the model that the comparison contract leaves open (information, never a failure)',
    writes: 'safe',
    timeoutMs: EXPLORE_TIMEOUT_MS,
    async run(ctx) {
      const result = await exploration(ctx)
      ctx.observe('explore.unplaced', result.unplaced)
      ctx.observe('explore.requests', result.requests)
      ctx.observe('explore.comparisons', result.judged)
      observeCells(ctx, result)
    },
  }),
]
