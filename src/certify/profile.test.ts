import { describe, expect, it } from 'vitest'
import type { CheckDefinition, Level } from '../checks/types.ts'
import { makeCheckResult } from '../report/test-fixtures.ts'
import { certificationBlock, certificationVerdictOf, certifyingChecks, completeCertifyingRows, notRunOf } from './profile.ts'

function check(id: string, level: Level, clause = '§4.1'): CheckDefinition {
  return { id, level, clauses: [clause], area: id.split('.')[0]!, title: `does ${id}`, run: async () => {} }
}

const CATALOGUE = [check('a.must-one', 'MUST'), check('a.must-two', 'MUST', '§5.5'), check('b.should', 'SHOULD'), check('b.info', 'INFO')]

describe('certifying profile', () => {
  it('is every MUST and SHOULD check, in catalogue order', () => {
    expect(certifyingChecks(CATALOGUE).map((c) => c.id)).toEqual(['a.must-one', 'a.must-two', 'b.should'])
  })

  it('gives a certifying check that reached no result an error row, naming the first harness error; INFO is not required', () => {
    const rows = completeCertifyingRows([makeCheckResult({ id: 'a.must-one' })], CATALOGUE, {
      target: { seed: 7, profile: 'full' },
      harnessErrors: ['Test timed out'],
    })
    expect(rows.map((r) => [r.id, r.status])).toEqual([
      ['a.must-one', 'passed'],
      ['a.must-two', 'error'],
      ['b.should', 'error'],
    ])
    expect(rows[1]).toMatchObject({
      level: 'MUST',
      clause: '§5.5',
      message: 'no result: the check did not report (first harness error of the run: Test timed out)',
      replay: 'crm-conformance run --embedded --only a.must-two --seed 7 --profile full',
    })
  })

  it('verdict: compliant, partial when a MUST did not run, non-compliant when one failed; a waiver changes nothing', () => {
    const pass = (id: string, level: Level = 'MUST') => makeCheckResult({ id, level })
    expect(
      certificationVerdictOf([pass('a.must-one'), pass('a.must-two'), makeCheckResult({ id: 'b.should', level: 'SHOULD', status: 'failed' })]).verdict,
    ).toBe('compliant')
    const partial = certificationVerdictOf([pass('a.must-one'), makeCheckResult({ id: 'a.must-two', status: 'skipped', clause: '§5.5' })])
    expect(partial).toEqual({ verdict: 'partial', reasons: ['MUST a.must-two (§5.5) was skipped: CRM_API_KEY_RESTRICTED is not set'] })
    const waived = makeCheckResult({ id: 'a.must-two', status: 'failed', clause: '§5.5', waived: { reason: 'known' } })
    expect(certificationVerdictOf([pass('a.must-one'), waived])).toEqual({
      verdict: 'non-compliant',
      reasons: ['MUST a.must-two (§5.5) failed: status is 500, expected 404 (§5.7)'],
    })
  })

  it('the certification block freezes suite version, spec digest, the checks and what did not run', () => {
    const rows = [
      makeCheckResult({ id: 'a.must-one' }),
      makeCheckResult({ id: 'a.must-two', status: 'error', clause: '§5.5' }),
      makeCheckResult({ id: 'b.should', level: 'SHOULD', status: 'skipped' }),
    ]
    const block = certificationBlock(rows, CATALOGUE, { suiteVersion: '9.9.9', specDigest: 'f'.repeat(64) })
    expect(block).toEqual({
      suiteVersion: '9.9.9',
      specDigest: 'f'.repeat(64),
      profile: 'full',
      levels: ['MUST', 'SHOULD'],
      selection: 'none',
      waivers: 'none',
      checkIds: ['a.must-one', 'a.must-two', 'b.should'],
      verdict: 'partial',
      verdictReasons: ['MUST a.must-two (§5.5) could not be verified (harness error): CRMCONF_TIMEOUT: no response within 15000 ms'],
      notRun: notRunOf(rows),
    })
    expect(block.notRun.map((n) => [n.id, n.level, n.status])).toEqual([
      ['a.must-two', 'MUST', 'error'],
      ['b.should', 'SHOULD', 'skipped'],
    ])
  })
})
