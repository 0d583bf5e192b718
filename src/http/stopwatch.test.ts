import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { deadlineOn, Stopwatch } from './stopwatch.ts'

describe('a check stopwatch', () => {
  beforeEach(() => void vi.useFakeTimers())
  afterEach(() => void vi.useRealTimers())

  it('counts only the time no hold is in place, however holds nest', () => {
    const watch = new Stopwatch(() => Date.now())
    vi.advanceTimersByTime(100)
    const a = watch.hold()
    const b = watch.hold()
    vi.advanceTimersByTime(5_000)
    a()
    vi.advanceTimersByTime(5_000)
    expect(watch.running).toBe(false)
    b()
    b() // releasing twice changes nothing
    vi.advanceTimersByTime(50)
    expect(watch.elapsed()).toBe(150)
  })

  it('a deadline fires after its time on the stopwatch, not on the wall clock', () => {
    const watch = new Stopwatch(() => Date.now())
    const expired = vi.fn()
    deadlineOn(watch, 1_000, expired)
    vi.advanceTimersByTime(600)
    const release = watch.hold()
    vi.advanceTimersByTime(60_000)
    expect(expired).not.toHaveBeenCalled()
    release()
    vi.advanceTimersByTime(399)
    expect(expired).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(expired).toHaveBeenCalledTimes(1)
  })

  it('a cancelled deadline never fires', () => {
    const watch = new Stopwatch(() => Date.now())
    const expired = vi.fn()
    const cancel = deadlineOn(watch, 100, expired)
    cancel()
    vi.advanceTimersByTime(1_000)
    expect(expired).not.toHaveBeenCalled()
  })
})
