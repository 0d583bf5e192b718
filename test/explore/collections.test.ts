// The explorer on cases, leads and opportunities (suites/explore/commands-collections.ts): records `sweep --run`
// finds after an interrupted run, filters on keys each side chose asked per side with their mismatches open,
// since bounds written in a UTC offset at the same instant. The faults it catches alone there: faults.test.ts.
import fc from 'fast-check'
import { expect, test } from 'vitest'
import type { CheckContext } from '../../src/checks/index.ts'
import { runIdOf } from '../../src/engine/sweep.ts'
import { List, UPDATABLE } from '../../suites/explore/commands.ts'
import { written } from '../../suites/explore/contract.ts'
import { createBody, sweepable, updateBody } from '../../suites/explore/values.ts'
import type { ExploreModel, Own } from '../../suites/explore/world.ts'

const runId = '20261202-004500-abcdef'
const ctx = { runId, session: { runTag: `crmconf-run-${runId}` } } as unknown as CheckContext

test.each(UPDATABLE)('every %s the explorer creates or renames carries what sweep --run finds it by', (resource) => {
  for (const body of fc.sample(createBody(resource), { numRuns: 40, seed: 1 })) expect(runIdOf(resource, sweepable(ctx, resource, body, 'create'))).toBe(runId)
  // An update writes the label field or the tags again: they keep the run's mark.
  for (const body of fc.sample(updateBody(resource), { numRuns: 40, seed: 2 })) {
    const sent = sweepable(ctx, resource, body, 'update')
    if ('tags' in sent || 'fullName' in sent || 'name' in sent) expect(runIdOf(resource, sent)).toBe(runId)
  }
})

function own(t: string, m: string, tLast: Record<string, unknown>, mLast: Record<string, unknown>): Own {
  const create = { subject: 'crmconf case', status: null }
  return { resource: 'case', t, m, alive: true, written: { t: written('case', undefined, create), m: written('case', undefined, create) }, tLast, mLast }
}

test('a filter on a case status the server chose asks each side for its own value; a record the two sides sort apart is open', () => {
  const at = '2026-12-02T00:45:00.123Z'
  const model: ExploreModel = {
    own: [
      own('t0', 'm0', { createdAt: at, status: 'open' }, { createdAt: at, status: 'new' }),
      own('t1', 'm1', { createdAt: at, status: 'open' }, { createdAt: at, status: 'new' }),
      own('t2', 'm2', { createdAt: at, status: 'triage' }, { createdAt: at, status: 'new' }),
    ],
  }
  const [tq, mq, open] = new List({ resource: 'case', filters: [{ filter: 0, record: 0 }] }).queries(model, 'case')!
  expect([tq.status, mq.status]).toEqual(['open', 'new'])
  // #2 matches the model's filter but not the target's: whether either lists it is the target's routing.
  expect([...open]).toEqual([2])
})

test('a since bound drawn in an offset names the instant of the record it is at, to the millisecond', () => {
  const at = '2026-12-02T00:45:00.123Z'
  const model: ExploreModel = { own: [own('t0', 'm0', { createdAt: at, updatedAt: at }, { createdAt: at, updatedAt: at })] }
  for (const record of [0, 1, 2, 3, 6, 7]) {
    const [tq, mq] = new List({ resource: 'case', filters: [], since: { param: 'updatedSince', record } }).queries(model, 'case')!
    expect(Date.parse(String(tq.updatedSince))).toBe(Date.parse(at))
    expect(Date.parse(String(mq.updatedSince))).toBe(Date.parse(at))
  }
  const [offset] = new List({ resource: 'case', filters: [], since: { param: 'createdSince', record: 3 } }).queries(model, 'case')!
  expect(offset.createdSince).toMatch(/\.123[+-]\d{2}:\d{2}$/)
})
