import { describe, expect, it } from 'vitest'
import { exitCodeFor, outcomeOf } from '../report/build.ts'
import { makeCheckResult, makeReport } from '../report/test-fixtures.ts'
import { applyWaivers, describeWaiverOutcome, isExpired, parseWaivers, WaiverFileError } from './waivers.ts'

const NOW = new Date('2026-06-15T12:00:00Z')

function problemsOf(text: string): string[] {
  try {
    parseWaivers(text)
  } catch (error) {
    expect(error).toBeInstanceOf(WaiverFileError)
    return (error as WaiverFileError).problems
  }
  throw new Error('expected the file to be refused')
}

describe('parseWaivers', () => {
  it('reads { waivers: [...] } and the bare array, trimming values', () => {
    const entries = [
      { check: ' auth.missing-key ', reason: 'CRM-12', expires: '2026-12-31' },
      { check: 'state.quotation.replace-non-draft', reason: 'ticket 7' },
    ]
    const expected = [
      { check: 'auth.missing-key', reason: 'CRM-12', expires: '2026-12-31' },
      { check: 'state.quotation.replace-non-draft', reason: 'ticket 7' },
    ]
    expect(parseWaivers(JSON.stringify({ waivers: entries }))).toEqual(expected)
    expect(parseWaivers(JSON.stringify(entries))).toEqual(expected)
  })

  it('lists every problem at once: missing check, missing reason, bad date, unknown field, duplicate', () => {
    const problems = problemsOf(
      JSON.stringify({
        waivers: [
          { reason: 'no check' },
          { check: 'a.b', reason: '  ' },
          { check: 'c.d', reason: 'x', expires: '2026-02-30' },
          { check: 'e.f', reason: 'x', expires: 20261231 },
          { check: 'g.h', reason: 'x', expiry: '2026-01-01' },
          { check: 'i.j', reason: 'x' },
          { check: 'i.j', reason: 'y' },
          'k.l',
        ],
      }),
    )
    expect(problems).toEqual([
      'waivers[0]: "check" is missing: the id of a check, as `crm-conformance list` prints it',
      'waivers[1] (a.b): "reason" is missing or empty: say why the failure is accepted (a ticket, a decision)',
      'waivers[2] (c.d): "expires" must be a date YYYY-MM-DD, got "2026-02-30"',
      'waivers[3] (e.f): "expires" must be a date YYYY-MM-DD, got 20261231',
      'waivers[4] (g.h): unknown field "expiry" (allowed: check, reason, expires)',
      'waivers[6] (i.j): a second waiver for the same check',
      'waivers[7]: expected an object with "check" and "reason"',
    ])
  })

  it('refuses text that is not JSON or not a list, naming the file', () => {
    expect(problemsOf('{ nope')[0]).toMatch(/^not JSON/)
    expect(problemsOf('{"check":"a"}')[0]).toMatch(/expected \{ "waivers"/)
    expect(() => parseWaivers('[{}]', 'ops/waivers.json')).toThrow(/^ops\/waivers.json is not a usable waivers file/)
  })
})

describe('isExpired', () => {
  it('holds through the whole expiry day (UTC), and never expires without a date', () => {
    expect(isExpired({ check: 'a', reason: 'r', expires: '2026-06-15' }, NOW)).toBe(false)
    expect(isExpired({ check: 'a', reason: 'r', expires: '2026-06-14' }, NOW)).toBe(true)
    expect(isExpired({ check: 'a', reason: 'r' }, NOW)).toBe(false)
  })
})

describe('applyWaivers', () => {
  const known = new Set(['x.fails', 'x.passes', 'x.skipped', 'x.not-selected', 'x.expired'])
  const results = [
    makeCheckResult({ id: 'x.fails', status: 'failed' }),
    makeCheckResult({ id: 'x.passes', status: 'passed' }),
    makeCheckResult({ id: 'x.skipped', status: 'skipped' }),
    makeCheckResult({ id: 'x.expired', status: 'failed' }),
  ]

  it('marks a waived failure, which then counts as waived and does not fail the run', () => {
    const { results: out, outcome } = applyWaivers(results.slice(0, 1), [{ check: 'x.fails', reason: 'CRM-12', expires: '2026-12-31' }], known, NOW)
    expect(out[0]!.waived).toEqual({ reason: 'CRM-12', expires: '2026-12-31' })
    expect(outcomeOf(out[0]!)).toBe('waived')
    expect(outcome).toMatchObject({ applied: [{ check: 'x.fails' }], stale: [], unused: [] })
    expect(exitCodeFor(makeReport(out))).toBe(0)
    expect(results[0]!.waived).toBeUndefined()
    expect(describeWaiverOutcome(outcome)).toEqual(['  failed (waived) x.fails: CRM-12 (until 2026-12-31)'])
  })

  it('finds stale waivers: the check passes, the id is unknown, the date is past', () => {
    const { results: out, outcome } = applyWaivers(
      results,
      [
        { check: 'x.passes', reason: 'fixed since' },
        { check: 'x.typo', reason: 'never existed' },
        { check: 'x.expired', reason: 'old', expires: '2026-01-31' },
      ],
      known,
      NOW,
    )
    expect(outcome.stale.map((w) => [w.check, w.problem])).toEqual([
      ['x.passes', 'passes'],
      ['x.typo', 'unknown-check'],
      ['x.expired', 'expired'],
    ])
    // An expired waiver excuses nothing: the failure stays a failure.
    expect(out.find((r) => r.id === 'x.expired')!.waived).toBeUndefined()
    expect(out.find((r) => r.id === 'x.expired')!.notes).toEqual(['waiver expired on 2026-01-31 (not applied): old'])
    expect(out.find((r) => r.id === 'x.passes')!.notes[0]).toMatch(/stale waiver: the check passes/)
    const lines = describeWaiverOutcome(outcome)
    expect(lines.at(-1)).toBe('3 stale waiver(s) in waivers.json: the run fails until they are removed or corrected')
    expect(lines).toContain('  STALE waiver for x.typo: no check of this suite has that id; correct it or remove the waiver')
  })

  it('leaves unused the waivers of checks skipped or not selected: neither applied nor stale', () => {
    const { outcome } = applyWaivers(
      results,
      [
        { check: 'x.skipped', reason: 'r' },
        { check: 'x.not-selected', reason: 'r' },
      ],
      known,
      NOW,
    )
    expect(outcome.stale).toEqual([])
    expect(outcome.unused.map((w) => [w.check, w.why])).toEqual([
      ['x.skipped', 'the check was skipped; a waiver excuses a failure only'],
      ['x.not-selected', 'the check was not selected in this run'],
    ])
  })
})
