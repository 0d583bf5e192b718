import { describe, expect, it } from 'vitest'
import { catalogue } from '../../suites/index.ts'
import { describeEstimate, estimateRequests } from './estimate.ts'
import { REQUEST_ESTIMATES } from './request-estimates.ts'

describe('the request estimate', () => {
  it('has a measured figure for every check of the catalogue (regenerate with scripts/request-estimates.ts)', () => {
    expect(catalogue.map((c) => c.id).filter((id) => REQUEST_ESTIMATES.checks[id] === undefined)).toEqual([])
  })

  it('the whole catalogue adds up to the measured run, and a selection to its share', () => {
    const measured =
      Object.values(REQUEST_ESTIMATES.checks)
        .flatMap((roles) => Object.values(roles))
        .reduce((a, b) => a + b, 0) + Object.values(REQUEST_ESTIMATES.harness).reduce((a, b) => a + b, 0)
    const whole = estimateRequests(catalogue)
    expect(Object.values(whole).reduce((a, b) => a + b, 0)).toBe(measured)
    const discovery = estimateRequests(catalogue.filter((c) => c.area === 'discovery'))
    expect(discovery.main).toBeLessThan(whole.main! / 10)
  })

  it("says the time a key's limit sets, the spec's default when the server did not say", () => {
    expect(describeEstimate({ main: 980 }, { main: 600 })).toEqual(['about 980 requests on the main key; at 600/min the run takes at least 1 min 38 s'])
    expect(describeEstimate({ main: 30, restricted: 400 }, {})).toEqual([
      "about 400 requests on the restricted key; at 600/min (the spec's default) the run takes at least 40 s",
      "about 30 requests on the main key; at 600/min (the spec's default) the run takes at least 3 s",
    ])
  })
})
