// The commands that put two or more steps together, or need what the run has (key kinds, fixtures, the profile):
// walks with writes between pages, reads with every configured key kind, payments and orders on mirrored
// fixtures. Registered beside commandArbitraries() (explore.ts); each list is built once per run.
import type fc from 'fast-check'
import type { CheckContext } from '../../src/checks/index.ts'
import { fixtureArbitraries } from './commands-fixtures.ts'
import { keyReadArbitrary } from './commands-keys.ts'
import { interleavedWalkArbitrary } from './commands-walks.ts'
import type { ExploreModel, World } from './world.ts'

export function moreArbitraries(ctx: CheckContext): fc.Arbitrary<fc.AsyncCommand<ExploreModel, World>>[] {
  return [interleavedWalkArbitrary(), keyReadArbitrary(), ...fixtureArbitraries(ctx)]
}
