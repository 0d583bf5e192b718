import { describe, expect, it } from 'vitest'
import { Pacer } from './pacer.ts'
import { parseResetHeader, parseRetryAfter } from './rate-headers.ts'

function fakeClock() {
  let t = 1_700_000_000_000
  const slept: number[] = []
  return {
    now: () => t,
    sleep: async (ms: number) => {
      slept.push(ms)
      t += ms
    },
    slept,
  }
}

describe('parseResetHeader', () => {
  it('reads seconds from now and Unix times', () => {
    expect(parseResetHeader('30', 1000)).toBe(31_000)
    expect(parseResetHeader('1700000060', 0)).toBe(1_700_000_060_000)
    expect(parseResetHeader('soon', 0)).toBeUndefined()
  })
  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('3', 0)).toBe(3000)
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4000)).toBe(6000)
  })
  it("counts an HTTP-date Retry-After from the response's Date, not from our clock", () => {
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 60_000, new Date(4000).toUTCString())).toBe(6000)
  })
})

describe('Pacer', () => {
  // Each waits for the reset, and the second its whole-second rounding may hide.
  it.each([
    {
      name: 'reads the limit and remaining of the draft form `600, 600;w=60`, and waits when none is left',
      headers: { 'ratelimit-limit': '600, 600;w=60', 'ratelimit-remaining': '0, 600;w=60', 'ratelimit-reset': '30' },
      slept: [31_000],
    },
    {
      name: 'waits for the reset when nothing is left, and never sends early',
      headers: { 'ratelimit-limit': '10', 'ratelimit-remaining': '0', 'ratelimit-reset': '7' },
      slept: [8000],
    },
  ])('$name', async ({ headers, slept }) => {
    const clock = fakeClock()
    const pacer = new Pacer({ concurrency: 1, maxWaitS: 90, ...clock })
    pacer.observe(headers)
    ;(await pacer.acquire())()
    expect(clock.slept).toEqual(slept)
  })
  it('sends freely while the quota is large', async () => {
    const clock = fakeClock()
    const pacer = new Pacer({ concurrency: 2, maxWaitS: 90, ...clock })
    pacer.observe({ 'ratelimit-limit': '600', 'ratelimit-remaining': '500', 'ratelimit-reset': '60' })
    for (let i = 0; i < 10; i++) (await pacer.acquire())()
    expect(clock.slept).toEqual([])
  })

  it('spaces requests by 60 s / limit when few are left', async () => {
    const clock = fakeClock()
    const pacer = new Pacer({ concurrency: 1, reserve: 2, maxWaitS: 90, ...clock })
    pacer.observe({ 'ratelimit-limit': '60', 'ratelimit-remaining': '2', 'ratelimit-reset': '50' })
    ;(await pacer.acquire())()
    pacer.observe({ 'ratelimit-limit': '60', 'ratelimit-remaining': '2', 'ratelimit-reset': '50' })
    ;(await pacer.acquire())()
    expect(clock.slept.at(-1)).toBe(1000)
  })

  it('refuses to wait longer than allowed', async () => {
    const clock = fakeClock()
    const pacer = new Pacer({ concurrency: 1, maxWaitS: 5, ...clock })
    pacer.exhausted(60_000)
    pacer.observe({ 'ratelimit-limit': '10' })
    await expect(pacer.acquire()).rejects.toMatchObject({ code: 'CRMCONF_RATE_LIMITED' })
  })
})
