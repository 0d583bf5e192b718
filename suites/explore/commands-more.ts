// The commands that put two or more steps together, or need what the run has (key kinds, fixtures, the profile):
// walks with writes between pages, reads with every configured key kind, payments and orders on mirrored
// fixtures. A sequence draws at most one of them, after its opening batch, from a random stream of its own
// (explore.ts): the plain commands a seed draws stay the same, and so do the catalogue faults they catch at the
// CI budget (test/explore/faults.test.ts).
import fc from 'fast-check'
import type { CheckContext } from '../../src/checks/index.ts'
import { withCollectionRun } from './commands-collections.ts'
import { fixtureArbitraries } from './commands-fixtures.ts'
import { keyReadArbitrary } from './commands-keys.ts'
import { withMirroredReads } from './commands-reads.ts'
import { withReplaceCommands } from './commands-replace.ts'
import { InterleavedWalk, interleavedWalkArbitrary } from './commands-walks.ts'
import { CreateMany } from './commands.ts'
import type { ExploreModel, World } from './world.ts'

type Cmd = fc.AsyncCommand<ExploreModel, World>

/** None in two sequences of three; else a walk with writes, a read with another key kind, or a fixture command. */
export function combinedArbitrary(ctx: CheckContext): fc.Arbitrary<Cmd | undefined> {
  const combined = fc.oneof<fc.Arbitrary<Cmd>[]>(interleavedWalkArbitrary(), keyReadArbitrary(), ...fixtureArbitraries(ctx))
  return withMirroredReads(
    withCollectionRun(withReplaceCommands(ctx, fc.oneof({ arbitrary: fc.constant(undefined), weight: 2 }, { arbitrary: combined, weight: 1 }))),
  )
}

/**
 * The walk with a write between its pages an exploration always makes once, after the opening batch of its first
 * sequence: pages of two records, and a record the walk showed deleted after the first. Like the idempotency probe,
 * the one command a small budget might otherwise never draw.
 */
export function walkProbe(opening: Cmd): InterleavedWalk | undefined {
  if (!(opening instanceof CreateMany)) return undefined
  return new InterleavedWalk({ resource: opening.resource, filters: [], limit: 2 }, [
    { after: 1, op: 'delete', pick: 0, bodies: { account: {}, contact: {}, task: {} } },
  ])
}
