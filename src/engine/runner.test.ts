import { describe, expect, it } from 'vitest'
import type { CheckDefinition } from '../checks/types.ts'
import { runChecks, startOrder } from './runner.ts'
import type { RunSession } from './session.ts'

// Enough of a session for checks that send nothing; the main key's adaptive cap stays at its start.
const session = {
  profile: 'full',
  seed: 1,
  baseUrl: 'http://127.0.0.1:1/v1',
  config: {},
  transport: { hasKey: () => true, trackClock: () => () => {}, mainCap: 4 },
  redactor: { string: (s: string) => s, value: (v: unknown) => v },
} as unknown as RunSession

const tick = () => new Promise((resolve) => setTimeout(resolve, 5))

function check(id: string, events: string[], extra: Partial<CheckDefinition> = {}, work = tick): CheckDefinition {
  return {
    id,
    area: id.split('.')[0]!,
    clauses: ['§1'],
    level: 'MUST',
    title: `check ${id}`,
    async run() {
      events.push(`start ${id}`)
      await work()
      events.push(`end ${id}`)
    },
    ...extra,
  }
}

describe('the check scheduler', () => {
  it('starts the longest waits first and takes the areas in turn', () => {
    const events: string[] = []
    const order = startOrder([
      check('a.1', events),
      check('a.2', events),
      check('b.1', events),
      check('c.1', events, { timeoutMs: 90_000 }),
      check('b.2', events),
    ])
    expect(order.map((c) => c.id)).toEqual(['c.1', 'a.1', 'b.1', 'a.2', 'b.2'])
  })

  it("runs an area's other checks while one of them waits", async () => {
    const events: string[] = []
    let release!: () => void
    const waiting = new Promise<void>((resolve) => (release = resolve))
    const checks = [
      check('a.wait', events, { timeoutMs: 60_000 }, () => waiting),
      check('b.1', events),
      check('b.2', events, {}, async () => {
        await tick()
        release()
      }),
    ]
    const results = await runChecks(checks, session, 2)
    expect(results.map((r) => r.status)).toEqual(['passed', 'passed', 'passed'])
    expect(events.indexOf('end b.1')).toBeLessThan(events.indexOf('end a.wait'))
    expect(events.indexOf('start b.2')).toBeLessThan(events.indexOf('end a.wait'))
  })

  it('starts another check beside one that waits deliberately, even with one check in flight', async () => {
    // A check with no request on its way for DEFAULTS.checkIdleMs leaves the key idle: it does not hold its slot.
    const events: string[] = []
    let release!: () => void
    const waiting = new Promise<void>((resolve) => (release = resolve))
    const checks = [check('a.wait', events, { timeoutMs: 60_000 }, () => waiting), check('b.1', events, {}, async () => release())]
    const results = await runChecks(checks, session, 1)
    expect(results.map((r) => r.status)).toEqual(['passed', 'passed'])
    expect(events.indexOf('start b.1')).toBeLessThan(events.indexOf('end a.wait'))
  })

  it('starts a check after the checks it names, and the last phase after everything else', async () => {
    const events: string[] = []
    const checks = [
      check('w.pays-in-full', events, { timeoutMs: 90_000, after: ['s.part-payment'] }),
      check('s.part-payment', events, {}, async () => {
        await tick()
        await tick()
      }),
      check('i.invariant', events, { phase: 'last' }),
      check('x.unrelated', events),
    ]
    const results = await runChecks(checks, session, 4)
    expect(results.map((r) => r.id)).toEqual(checks.map((c) => c.id))
    expect(events.indexOf('start w.pays-in-full')).toBeGreaterThan(events.indexOf('end s.part-payment'))
    expect(events.indexOf('start i.invariant')).toBe(events.length - 2)
  })

  it('ignores an ordering on a check that is not part of the run', async () => {
    const events: string[] = []
    const results = await runChecks([check('w.1', events, { after: ['s.not-selected'] })], session, 2)
    expect(results[0]!.status).toBe('passed')
  })
})
