// What the explorer finds alone: catalogue faults it was not written for (no command names them), each caught by
// `--only explore` at the CI budget, on more than one seed. `npm run bench:explore` measures the whole catalogue.
import { expect, test } from 'vitest'
import { DEFAULTS } from '../../src/config/config.ts'
import { runInProcess } from '../../src/run/in-process.ts'
import { catalogue } from '../../suites/index.ts'

/** Faults and the explore check each must fail, on every seed (src/selfcheck/fault-catches.ts names them too). */
export const EXPLORER_CATCHES: readonly [fault: string, check: string][] = [
  ['records.null-as-empty-string', 'explore.written'],
  ['records.deleted-still-readable', 'explore.unchanged'],
  ['records.datetime-without-zone', 'explore.status'],
  ['records.list-index-lag', 'explore.list-membership'],
  ['pagination.default-order-asc', 'explore.list-order'],
  ['pagination.repeat-boundary-record', 'explore.pages'],
  ['idempotency.ignored', 'explore.idempotency'],
  // Only a walk with a write between its pages shows it (suites/explore/commands-walks.ts).
  ['pagination.offset-cursor', 'explore.walk-writes'],
  // Through the collection runs on cases, leads and opportunities (suites/explore/commands-collections.ts): a create,
  // an update naming one other field and its read (the fault was added for them); their walks' createdSince scope
  // written in an offset east or west of UTC.
  ['bodies.update-applies-create-defaults', 'explore.written'],
  ['pagination.since-offset-ignored', 'explore.list-membership'],
]

test.each(EXPLORER_CATCHES.flatMap(([fault, check]) => [1, 2].map((seed) => [fault, check, seed] as const)))(
  'the explorer alone catches %s (%s, seed %i)',
  async (fault, check, seed) => {
    const { results } = await runInProcess({
      checks: catalogue,
      only: ['explore'],
      embedded: { faults: [fault] },
      seed,
      config: { exploreRequests: DEFAULTS.exploreRequests, webhookSecret: '' },
    })
    const row = results.find((r) => r.id === check)!
    expect(row.status, row.message).toBe('failed')
    // A finding a server's author can act on: the clause, the sequence, both answers and the replay line.
    expect(row.message).toContain(`--seed ${seed}`)
    expect((row.data as { sequence: string[] }).sequence.length).toBeGreaterThan(0)
    expect(row.evidence.length).toBeGreaterThan(0)
  },
  120_000,
)
