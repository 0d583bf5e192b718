// The collections the explorer cannot write (articles, users, messages), read on records mirrored from the target
// (suites/explore/commands-reads.ts): drawn and compared against the reference server with no finding, and a
// filter the server ignores on one of them is caught by the explorer alone.
import { expect, test } from 'vitest'
import { DEFAULTS } from '../../src/config/config.ts'
import { runInProcess } from '../../src/run/in-process.ts'
import { catalogue } from '../../suites/index.ts'

const explore = (seed: number, faults: string[] = []) =>
  runInProcess({
    checks: catalogue,
    only: ['explore'],
    embedded: { faults },
    seed,
    config: { exploreRequests: DEFAULTS.exploreRequests, webhookSecret: '' },
  })

test('over seeds 1-3 at the CI budget the explorer lists and gets articles, users and messages, and finds nothing', async () => {
  const sent = new Set<string>()
  for (const seed of [1, 2, 3]) {
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

test('an articles categoryId filter the server ignores (filters.unimplemented-ignored) fails explore.list-membership, seed 2', async () => {
  const { results } = await explore(2, ['filters.unimplemented-ignored'])
  const row = results.find((r) => r.id === 'explore.list-membership')!
  expect(row.status, row.message).toBe('failed')
  expect(row.message).toMatch(/list \/articles\?categoryId=/)
  expect(row.message).toContain('--seed 2')
})
