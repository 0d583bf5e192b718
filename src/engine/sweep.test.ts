import { describe, expect, it } from 'vitest'
import { parseDuration, runIdOf, runIdTime } from './sweep.ts'

describe('sweep markers', () => {
  it('reads the run id from a run tag or a run label, and nothing else', () => {
    expect(runIdOf('account', { tags: ['vip', 'crmconf-run-20261122-053212-a1b2c3'] })).toBe('20261122-053212-a1b2c3')
    expect(runIdOf('lead', { fullName: 'crmconf lead 20261122-053212-a1b2c3 x1y2' })).toBe('20261122-053212-a1b2c3')
    expect(runIdOf('account', { tags: ['crmconf-run-manual'] })).toBeUndefined()
    expect(runIdOf('lead', { fullName: 'Jane 20261122-053212-a1b2c3' })).toBeUndefined()
    expect(runIdOf('account', { name: 'crmconf account 20261122-053212-a1b2c3' })).toBeUndefined()
  })
  it('dates a run id and parses durations', () => {
    expect(runIdTime('20261122-053212-a1b2c3')).toBe(Date.parse('2026-11-22T05:32:12Z'))
    expect(parseDuration('6h')).toBe(21_600_000)
    expect(() => parseDuration('soon')).toThrow()
  })
})
