import { describe, expect, test } from 'vitest'
import type { CheckDefinition, Level, WriteNeed } from '../checks/types.ts'
import { describeScope, emptyScopeProblem, profileExclusion } from './scope.ts'

const check = (id: string, level: Level, writes?: WriteNeed): CheckDefinition => ({
  id,
  clauses: ['§4.1'],
  level,
  area: id.split('.')[0]!,
  title: id,
  writes,
  run: async () => {},
})
const CATALOGUE = [
  check('records.a.read', 'MUST'),
  check('records.a.create', 'MUST', 'safe'),
  check('state.order.create', 'MUST', 'full'),
  check('state.comment.public', 'SHOULD', 'full'),
  check('discovery.me.info', 'INFO'),
]

describe('profileExclusion', () => {
  test('the profile rule: read-only sends no write, safe no full write', () => {
    expect(profileExclusion({ writes: 'full' }, 'full')).toBeUndefined()
    expect(profileExclusion({ writes: 'full' }, 'safe')).toMatch(/needs the full profile/)
    expect(profileExclusion({ writes: 'safe' }, 'safe')).toBeUndefined()
    expect(profileExclusion({ writes: 'safe' }, 'read-only')).toMatch(/read-only profile sends no write/)
    expect(profileExclusion({}, 'read-only')).toBeUndefined()
  })

  test('a check that writes only where the profile allows is left out by none', () => {
    for (const profile of ['full', 'safe', 'read-only'] as const) expect(profileExclusion({ writes: 'if-allowed' }, profile)).toBeUndefined()
  })
})

describe('describeScope', () => {
  test('the full profile, no selection: complete', () => {
    expect(describeScope(CATALOGUE, { profile: 'full' })).toEqual({
      complete: true,
      only: [],
      skip: [],
      catalogue: { checks: 5, must: 3 },
      inScope: { checks: 5, must: 3 },
      outOfScope: [],
    })
  })

  test('the safe profile: the full-profile checks are out of scope, with why', () => {
    const scope = describeScope(CATALOGUE, { profile: 'safe' })
    expect(scope.complete).toBe(false)
    expect(scope.inScope).toEqual({ checks: 3, must: 2 })
    expect(scope.outOfScope.map((c) => [c.id, c.level])).toEqual([
      ['state.order.create', 'MUST'],
      ['state.comment.public', 'SHOULD'],
    ])
  })

  test('a selection is a subset even with the full profile', () => {
    const scope = describeScope(CATALOGUE, { profile: 'full', only: ['records'] })
    expect(scope).toMatchObject({ complete: false, only: ['records'], inScope: { checks: 2, must: 2 } })
  })

  test('a profile that leaves out every selected check is refused', () => {
    const scope = describeScope(CATALOGUE, { profile: 'read-only', only: ['state'] })
    expect(scope.inScope.checks).toBe(0)
    expect(emptyScopeProblem(scope, 'read-only')).toMatch(/^the read-only profile leaves out every selected check \(2: .*\): nothing would be tested/)
    expect(emptyScopeProblem(describeScope(CATALOGUE, { profile: 'safe' }), 'safe')).toBeUndefined()
  })
})
