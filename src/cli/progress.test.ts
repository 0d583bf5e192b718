import { afterEach, describe, expect, it, vi } from 'vitest'
import type { RunSession } from '../engine/session.ts'
import { FIXTURE_SEED, makeCheckResult } from '../report/test-fixtures.ts'
import { controlsIn, HOSTILE_ALL, HOSTILE_TEXT } from '../../test/hostile/corpus.ts'
import { PLAIN_INTERVAL_MS, Progress, skipsByReason, type ProgressOptions } from './progress.ts'

/** Just what the progress line reads of a session: the request count, the main key's requests in flight and its pacer. */
function fakeSession(requests: number, waitingUntil?: number, inFlight = 0): RunSession {
  return { transport: { stats: { total: requests }, onWireFor: () => inFlight, pacerFor: () => ({ waitingUntil }) } } as unknown as RunSession
}

/** A progress printer reading `session`, and all it has written so far. */
function attachedProgress(options: Omit<ProgressOptions, 'write'>, session: RunSession): { progress: Progress; written: string[] } {
  const written: string[] = []
  const progress = new Progress({ ...options, write: (t) => written.push(t) })
  progress.attach(session)
  return { progress, written }
}

// A test that takes the fake clock gives it back however it ends.
afterEach(() => {
  vi.useRealTimers()
})

const check = (area: string) => ({ id: `${area}.x`, area, clauses: ['§1'], level: 'MUST' as const, title: 'x', run: async () => {} })

describe('Progress without a terminal (CI)', () => {
  it('says where the run is every interval, and prints each failure as it happens', () => {
    vi.useFakeTimers()
    const { progress, written } = attachedProgress({ total: 3, tty: false, color: false, quiet: false, now: () => 0 }, fakeSession(42, 12_000))
    progress.started(check('records'))
    progress.started(check('auth'))
    progress.result(makeCheckResult({ id: 'records.a', area: 'records', status: 'failed', message: 'status is 500' }))
    expect(written.join('')).toContain('✗ MUST records.a (§4.1)\n    status is 500')
    vi.advanceTimersByTime(PLAIN_INTERVAL_MS)
    expect(written.at(-1)).toBe('1/3 checks, 1 failed, 42 requests · auth, rate limit: waiting 12 s\n')
    progress.stop()
  })

  it('counts the checks an interrupt stopped before they started as "not run", apart from those done', () => {
    const { progress } = attachedProgress({ total: 4, tty: false, color: false, quiet: true, now: () => 0 }, fakeSession(9))
    progress.started(check('records'))
    progress.result(makeCheckResult({ id: 'records.a', area: 'records', status: 'passed' }))
    progress.result(makeCheckResult({ id: 'records.b', status: 'skipped', message: 'not run: the run was interrupted (SIGINT)' }))
    progress.result(makeCheckResult({ id: 'records.c', status: 'skipped', message: 'not run: the run was interrupted (SIGINT)' }))
    expect(progress.statusLine()).toBe('1/4 checks, 2 not run, 9 requests')
    progress.stop()
  })

  it("shows the main key's requests in flight (the adaptive cap at work)", () => {
    const { progress } = attachedProgress({ total: 2, tty: false, color: false, quiet: true, now: () => 0 }, fakeSession(120, undefined, 7))
    expect(progress.statusLine()).toBe('0/2 checks, 120 requests, in flight 7')
    progress.stop()
  })

  it('--quiet: no progress line, but every failed check is still named with its replay command', () => {
    vi.useFakeTimers()
    const { progress, written } = attachedProgress({ total: 2, tty: false, color: false, quiet: true }, fakeSession(3))
    progress.result(makeCheckResult({ id: 'a.passes', status: 'passed' }))
    progress.result(makeCheckResult({ id: 'a.fails', status: 'failed' }))
    vi.advanceTimersByTime(5 * PLAIN_INTERVAL_MS)
    expect(written).toEqual([`✗ MUST a.fails (§4.1)\n    replay: crm-conformance run --only a.fails --seed ${FIXTURE_SEED}\n`])
  })

  it('colour only when asked (NO_COLOR or no terminal: none)', () => {
    const plain: string[] = []
    new Progress({ total: 1, write: (t) => plain.push(t), tty: false, color: false, quiet: true }).result(makeCheckResult({ status: 'error' }))
    expect(plain.join('')).not.toContain('\x1b[')
    const coloured: string[] = []
    new Progress({ total: 1, write: (t) => coloured.push(t), tty: true, color: true, quiet: true }).result(makeCheckResult({ status: 'error' }))
    expect(coloured.join('')).toContain('\x1b[33m')
  })
})

describe('skipsByReason', () => {
  it('groups skipped checks by reason, largest group first', () => {
    const results = [
      ...Array.from({ length: 3 }, () => makeCheckResult({ status: 'skipped', message: 'CRM_API_KEY_RESTRICTED is not set' })),
      makeCheckResult({ status: 'skipped', message: 'CRM_WEBHOOK_SECRET is not set' }),
      makeCheckResult({ status: 'passed' }),
    ]
    expect(skipsByReason(results)).toEqual(['3 checks skipped: CRM_API_KEY_RESTRICTED is not set', '1 check skipped: CRM_WEBHOOK_SECRET is not set'])
  })
})

describe('Progress with server text that would act on a terminal', () => {
  it('prints it escaped: with colour and the live line on, only its own colour and erase sequences act', () => {
    vi.useFakeTimers()
    const { progress, written } = attachedProgress({ total: 2, tty: true, color: true, quiet: false, now: () => 0 }, fakeSession(7))
    vi.advanceTimersByTime(1_000)
    for (const status of ['failed', 'error'] as const)
      progress.result(makeCheckResult({ id: `records.${HOSTILE_ALL}`, status, clause: `§4${HOSTILE_TEXT.bidi}`, message: `data.id ${HOSTILE_ALL} is unknown` }))
    progress.note(`stopping: ${HOSTILE_ALL}`)
    progress.stop()
    const text = written.join('')
    expect(text).toContain('\x1b[31m')
    expect(text).toContain('\\e]52;')
    expect(controlsIn(text, { allowColour: true })).toEqual([])
  })
})
