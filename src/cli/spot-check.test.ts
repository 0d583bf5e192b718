// The spot check's sample and comparison (pure); runs against reference servers are in test/attestation.test.ts.
import { describe, expect, it } from 'vitest'
import type { CheckResult } from '../checks/types.ts'
import { makeCheckResult } from '../report/test-fixtures.ts'
import { compareRows, describeSpotCheck, sampleOf } from './spot-check.ts'

const IDS = Array.from({ length: 50 }, (_, i) => `area.check-${String(i).padStart(2, '0')}`)
const row = (id: string, status: CheckResult['status'], message = '') => makeCheckResult({ id, level: 'MUST', status, message })

describe('sampleOf', () => {
  it('draws the same checks for the same seed, in catalogue order, and others for another seed', () => {
    const a = sampleOf(IDS, 10, 42)
    expect(a).toHaveLength(10)
    expect(sampleOf(IDS, 10, 42)).toEqual(a)
    expect([...a].sort()).toEqual(a)
    expect(new Set(a).size).toBe(10)
    expect(sampleOf(IDS, 10, 43)).not.toEqual(a)
  })

  it('takes every candidate when the sample is larger', () => {
    expect(sampleOf(IDS.slice(0, 3), 20, 1)).toEqual(IDS.slice(0, 3))
  })
})

describe('compareRows', () => {
  it('names each outcome that changed, counts the compared ones and lists what could not be compared', () => {
    const sampled = ['a', 'b', 'c', 'd']
    const before = [row('a', 'passed'), row('b', 'passed'), row('c', 'failed'), row('d', 'passed')]
    const now = [row('a', 'passed'), row('b', 'failed', 'status is 403, expected 401'), row('c', 'passed'), row('d', 'skipped', 'needs CRM_API_KEY_RESTRICTED')]
    const result = compareRows(sampled, before, now)
    expect(result.compared).toBe(3)
    expect(result.differences.map((d) => [d.id, d.was, d.now])).toEqual([
      ['b', 'passed', 'failed'],
      ['c', 'failed', 'passed'],
    ])
    expect(result.notCompared).toEqual([{ id: 'd', status: 'skipped', message: 'needs CRM_API_KEY_RESTRICTED' }])
    const described = describeSpotCheck({ seed: 7, profile: 'safe', candidates: 40, sampled, ...result })
    expect(described.lines[0]).toBe('spot check (seed 7, safe profile): sampled 4 of 40 checks, 3 compared, 2 differ from the submission')
    expect(described.problems).toEqual([
      'spot check: MUST b passed in the submission and fails now: status is 403, expected 401',
      'spot check: MUST c failed in the submission and passed now: the submission does not describe this server',
    ])
  })
})
