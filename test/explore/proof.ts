// The explorer's proof of no false findings: against one legal variant of the reference server (the default
// variant is the model), the explorer alone at the CI budget, over many seeds, fails no check. One file per
// variant (variant-*.test.ts) so vitest runs them side by side.
import { expect, test } from 'vitest'
import { DEFAULTS } from '../../src/config/config.ts'
import { runInProcess } from '../../src/run/in-process.ts'
import { catalogue } from '../../suites/index.ts'

/** What the explorer makes and the API cannot delete (suites/explore/commands-fixtures.ts, commands-replace.ts). */
const UNDELETABLE = ['payment', 'order', 'product', 'invoice', 'activity', 'comment']

/** Seeds each variant is explored with: the issue asks at least 50. */
export const PROOF_SEEDS = 50

export function proveVariant(variant: string, seeds = PROOF_SEEDS): void {
  test.each(Array.from({ length: seeds }, (_, i) => [i + 1]))(
    `the explorer fails no check against variant ${variant} (seed %i, CI budget)`,
    async (seed) => {
      const { results, leftovers } = await runInProcess({
        checks: catalogue,
        only: ['explore'],
        embedded: { variant },
        seed,
        // No webhook sink: the explorer judges no event, and delivering one per write would double the CPU spent.
        config: { exploreRequests: DEFAULTS.exploreRequests, webhookSecret: '' },
      })
      const bad = results.filter((r) => r.status !== 'passed').map((r) => `${r.id} ${r.status}: ${r.message}`)
      expect(bad).toEqual([])
      // Payments and orders cannot be deleted (§4.2): the full profile's footprint, everything else is cleaned up.
      expect(leftovers.filter((l) => !UNDELETABLE.includes(l.resource))).toEqual([])
      expect(results[0]!.observations['explore.requests']).toBeGreaterThan(0)
    },
    60_000,
  )
}
