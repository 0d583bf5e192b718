// The commands that put two or more steps together, or need what the run has (key kinds, fixtures, the profile):
// walks with writes between pages, reads with every configured key kind, payments and orders on mirrored
// fixtures. Registered beside commandArbitraries() (explore.ts); each list is built once per run.
import type fc from 'fast-check'
import { CreateMany } from './commands.ts'
import type { CheckContext } from '../../src/checks/index.ts'
import { fixtureArbitraries } from './commands-fixtures.ts'
import { keyReadArbitrary } from './commands-keys.ts'
import { InterleavedWalk, interleavedWalkArbitrary } from './commands-walks.ts'
import type { ExploreModel, World } from './world.ts'

export function moreArbitraries(ctx: CheckContext): fc.Arbitrary<fc.AsyncCommand<ExploreModel, World>>[] {
  return [interleavedWalkArbitrary(), keyReadArbitrary(), ...fixtureArbitraries(ctx)]
}

/**
 * The walk with a write between its pages an exploration always makes once, after the opening batch of its first
 * sequence: pages of one record, and a record the walk showed deleted after the first. Like the idempotency probe,
 * the one command a small budget might otherwise never draw.
 */
export function walkProbe(opening: fc.AsyncCommand<ExploreModel, World>): InterleavedWalk | undefined {
  if (!(opening instanceof CreateMany)) return undefined
  return new InterleavedWalk({ resource: opening.resource, filters: [], limit: 1 }, [
    { after: 1, op: 'delete', pick: 0, bodies: { account: {}, contact: {}, task: {} } },
  ])
}
