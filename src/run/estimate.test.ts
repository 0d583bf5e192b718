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

  it("says the time a key's limit sets as a range, and what each end assumes; the spec's default when the server did not say", () => {
    expect(describeEstimate({ main: 1130 }, { main: 600 })).toEqual([
      "about 1130 requests on the main key; at 600/min the rate limit alone takes 53 s to 1 min 53 s (53 s if the key may spend a minute's quota at once, 1 min 53 s if it must spread it evenly), plus the server's answers and the checks' own waits",
    ])
    expect(describeEstimate({ main: 30, restricted: 400 }, {})).toEqual([
      "about 400 requests on the restricted key; at 600/min (the spec's default) the rate limit alone takes 0 s to 40 s (0 s if the key may spend a minute's quota at once, 40 s if it must spread it evenly), plus the server's answers and the checks' own waits",
      "about 30 requests on the main key; at 600/min (the spec's default) the rate limit alone takes 0 s to 3 s (0 s if the key may spend a minute's quota at once, 3 s if it must spread it evenly), plus the server's answers and the checks' own waits",
    ])
  })
})
