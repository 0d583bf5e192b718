// The collections the explorer cannot write (articles, users, messages), read on records mirrored from the target
// (suites/explore/commands-reads.ts): drawn and compared against the reference server with no finding, and a
// filter the server ignores on one of them is caught by the explorer alone (on the seeds where it draws one: a
// random search, 5 of seeds 13-40 at twice the CI budget, 2026-12-02).
import { expect, test } from 'vitest'
import { DEFAULTS } from '../../src/config/config.ts'
import { runInProcess } from '../../src/run/in-process.ts'
import { catalogue } from '../../suites/index.ts'

/** Twice the CI budget: a mirrored read is one draw in four sequences, and the CI budget runs few of them. */
const BUDGET = 2 * DEFAULTS.exploreRequests

const explore = (seed: number, faults: string[] = []) =>
  runInProcess({
    checks: catalogue,
    only: ['explore'],
    embedded: { faults },
    seed,
    config: { exploreRequests: BUDGET, webhookSecret: '' },
  })

test('over seeds 2 and 5 at twice the CI budget the explorer lists and gets articles, users and messages, and finds nothing', async () => {
  const sent = new Set<string>()
  for (const seed of [2, 5]) {
    const { results, session } = await explore(seed)
    expect(results.filter((r) => r.status !== 'passed').map((r) => `${r.id}: ${r.message}`)).toEqual([])
    for (const e of session.exchanges) {
      const path = new URL(e.request.url).pathname
      const hit = /\/(articles|users|messages)(\/|$)/.exec(path)
      if (hit && e.request.method === 'GET') sent.add(`${hit[1]}${hit[2] === '/' ? ' by id' : ''}`)
    }
  }
  expect([...sent].sort()).toEqual(['articles', 'articles by id', 'messages', 'messages by id', 'users', 'users by id'])
})

test.each([19, 22])('an articles categoryId filter the server ignores (filters.unimplemented-ignored) fails explore.list-membership, seed %i', async (seed) => {
  const { results } = await explore(seed, ['filters.unimplemented-ignored'])
  const row = results.find((r) => r.id === 'explore.list-membership')!
  expect(row.status, row.message).toBe('failed')
  expect(row.message).toMatch(/list \/articles\?categoryId=/)
  expect(row.message).toContain(`--seed ${seed}`)
})
