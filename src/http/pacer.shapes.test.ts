// The pacer against simulated rate limiters of every shape a server may use (§8 shows none): fixed windows
// (the whole budget spendable at once, reset on the minute), sliding windows and token buckets, with
// RateLimit-Reset as delta seconds or as a Unix time, and the draft form `600, 600;w=60`. A discrete-event
// clock: no real time passes, every wait is counted. The pacer must meet no 429 and wait no longer than the
// limiter itself makes necessary (plus the second of rounding per reset).
import { describe, expect, it } from 'vitest'
import { Pacer } from './pacer.ts'

class SimClock {
  t: number
  private timers: { at: number; resolve: () => void }[] = []
  constructor(start: number) {
    this.t = start
  }
  now = (): number => this.t
  sleep = (ms: number): Promise<void> => new Promise((resolve) => this.timers.push({ at: this.t + Math.max(0, ms), resolve }))
  /** Runs until `done` settles, advancing time to each next timer once nothing else can move. */
  async run(done: Promise<unknown>): Promise<void> {
    let finished = false
    void done.finally(() => (finished = true))
    for (;;) {
      await new Promise((resolve) => setImmediate(resolve))
      await new Promise((resolve) => setImmediate(resolve))
      if (finished) return
      if (this.timers.length === 0) throw new Error('deadlock: nothing to wait for and not finished')
      const at = Math.min(...this.timers.map((timer) => timer.at))
      this.t = at
      const due = this.timers.filter((timer) => timer.at === at)
      this.timers = this.timers.filter((timer) => timer.at !== at)
      for (const timer of due) timer.resolve()
    }
  }
}

type ResetForm = 'delta-ceil' | 'delta-floor' | 'unix'

interface Limiter {
  /** The server's answer to a request it receives at `now` (ms). */
  handle(now: number): { status: number; headers: Record<string, string> }
}

function resetHeader(form: ResetForm, now: number, resetAtMs: number): string {
  const deltaMs = Math.max(0, resetAtMs - now)
  if (form === 'unix') return String(Math.ceil(resetAtMs / 1000))
  return String(form === 'delta-ceil' ? Math.ceil(deltaMs / 1000) : Math.floor(deltaMs / 1000))
}

function answer(ok: boolean, limitText: string, remaining: number, reset: string): { status: number; headers: Record<string, string> } {
  const headers: Record<string, string> = { 'ratelimit-limit': limitText, 'ratelimit-remaining': String(Math.max(0, remaining)), 'ratelimit-reset': reset }
  if (!ok) headers['retry-after'] = reset
  return { status: ok ? 200 : 429, headers }
}

/** Fixed one-minute windows aligned on the minute: the whole budget is spendable at once. */
function fixedWindow(limit: number, form: ResetForm, limitText = String(limit)): Limiter {
  let window = -1
  let used = 0
  return {
    handle(now) {
      const current = Math.floor(now / 60_000)
      if (current !== window) {
        window = current
        used = 0
      }
      const ok = used < limit
      if (ok) used++
      return answer(ok, limitText, limit - used, resetHeader(form, now, (current + 1) * 60_000))
    },
  }
}

/** A sliding log: at most `limit` requests in any 60 s; the reset is when the oldest one leaves the window. */
function slidingWindow(limit: number, form: ResetForm): Limiter {
  const log: number[] = []
  return {
    handle(now) {
      while (log.length > 0 && log[0]! <= now - 60_000) log.shift()
      const ok = log.length < limit
      if (ok) log.push(now)
      const resetAt = log.length > 0 ? log[0]! + 60_000 : now
      return answer(ok, String(limit), limit - log.length, resetHeader(form, now, resetAt))
    },
  }
}

/** A bucket of `limit` tokens refilled at limit per minute; the reset is when the next token arrives. */
function tokenBucket(limit: number, form: ResetForm): Limiter {
  let tokens = limit
  let last: number | undefined
  const perMs = limit / 60_000
  return {
    handle(now) {
      tokens = Math.min(limit, tokens + (last === undefined ? 0 : (now - last) * perMs))
      last = now
      const ok = tokens >= 1
      if (ok) tokens -= 1
      const resetAt = tokens >= 1 ? now : now + (1 - tokens) / perMs
      return answer(ok, String(limit), Math.floor(tokens), resetHeader(form, now, resetAt))
    },
  }
}

/**
 * `requests` requests through one pacer by `concurrency` workers, each answered `latencyMs` after it is sent;
 * the server judges it when it arrives (half way). Returns the 429s met and the simulated time taken.
 */
async function drive(limiter: Limiter, requests: number, options: { concurrency?: number; latencyMs?: number; start?: number; jitter?: () => number } = {}) {
  const concurrency = options.concurrency ?? 4
  const latencyMs = options.latencyMs ?? 20
  const clock = new SimClock(options.start ?? 1_700_000_010_000)
  const started = clock.t
  const pacer = new Pacer({ concurrency, maxWaitS: 90, now: clock.now, sleep: clock.sleep })
  let next = 0
  let rejected = 0
  const worker = async () => {
    while (next < requests) {
      next++
      const release = await pacer.acquire()
      const [there, back] = options.jitter ? [options.jitter(), options.jitter()] : [latencyMs / 2, latencyMs / 2]
      await clock.sleep(there)
      const { status, headers } = limiter.handle(clock.t)
      await clock.sleep(back)
      pacer.observe(headers)
      if (status === 429) {
        rejected++
        pacer.exhausted(Number(headers['retry-after']) * 1000)
      }
      release()
    }
  }
  const all = Promise.all(Array.from({ length: concurrency }, worker))
  await clock.run(all)
  return { rejected, elapsedS: (clock.t - started) / 1000 }
}

describe('the pacer against every limiter shape, at the spec default of 600 per minute', () => {
  const forms: ResetForm[] = ['delta-ceil', 'delta-floor', 'unix']

  // 1,500 requests starting 30 s into a minute: 30 s left of the first window, then a whole one, then 300.
  it.each(forms)('fixed windows, reset as %s: no 429, and done soon after the third window opens', async (form) => {
    const { rejected, elapsedS } = await drive(fixedWindow(600, form), 1500)
    expect(rejected).toBe(0)
    // Needed: 30 s + 60 s to reach the third window, ~1.5 s to send 300 there (4 at a time, 20 ms each).
    expect(elapsedS).toBeGreaterThan(90)
    expect(elapsedS).toBeLessThan(90 + 1.5 + 2 * 2)
  })

  it('fixed windows with the draft form `RateLimit-Limit: 600, 600;w=60`', async () => {
    const { rejected, elapsedS } = await drive(fixedWindow(600, 'delta-ceil', '600, 600;w=60'), 1500)
    expect(rejected).toBe(0)
    expect(elapsedS).toBeLessThan(90 + 1.5 + 2 * 2)
  })

  it.each(forms)('a sliding window, reset as %s: no 429, and about two minutes for 1,500', async (form) => {
    const { rejected, elapsedS } = await drive(slidingWindow(600, form), 1500)
    expect(rejected).toBe(0)
    // 600 in the first 3 s; each later request waits for one sent 60 s before it to leave the window.
    expect(elapsedS).toBeGreaterThan(120)
    expect(elapsedS).toBeLessThan(120 + 1.5 + 6)
  })

  it.each(forms)('a token bucket, reset as %s: no 429, and the refill rate once the bucket is empty', async (form) => {
    const { rejected, elapsedS } = await drive(tokenBucket(600, form), 1500)
    expect(rejected).toBe(0)
    // 600 at once, then 900 at 10 per second.
    expect(elapsedS).toBeGreaterThan(89)
    expect(elapsedS).toBeLessThan(90 + 3 + 6)
  })

  it('a key whose window is already spent when the run starts: the first answer is awaited before more go', async () => {
    const limiter = fixedWindow(600, 'delta-ceil')
    for (let i = 0; i < 599; i++) limiter.handle(1_700_000_010_000)
    const { rejected } = await drive(limiter, 50, { concurrency: 8 })
    expect(rejected).toBe(0)
  })

  it('a small limit (60 per minute) with slow answers (300 ms)', async () => {
    for (const limiter of [fixedWindow(60, 'delta-floor'), slidingWindow(60, 'delta-ceil'), tokenBucket(60, 'unix')]) {
      const { rejected } = await drive(limiter, 200, { concurrency: 4, latencyMs: 300 })
      expect(rejected).toBe(0)
    }
  })
})

/** A sliding log whose reset is when the newest request leaves the window (the whole budget back), as the reference server's. */
function slidingWindowWhole(limit: number): Limiter {
  const log: number[] = []
  return {
    handle(now) {
      while (log.length > 0 && log[0]! <= now - 60_000) log.shift()
      const ok = log.length < limit
      if (ok) log.push(now)
      const resetAt = log.length > 0 ? log[log.length - 1]! + 60_000 : now
      const headers = answer(ok, String(limit), limit - log.length, resetHeader('delta-ceil', now, resetAt)).headers
      if (!ok) headers['retry-after'] = String(Math.max(1, Math.ceil((log[0]! + 60_000 - now) / 1000)))
      return { status: ok ? 200 : 429, headers }
    },
  }
}

describe('the pacer when answers arrive out of order (each way 1–150 ms, drawn)', () => {
  /** A seeded draw of one way's latency: a slow answer overtaken by later ones carries older news. */
  const jitter = (seed: number) => {
    let state = seed
    return () => {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31
      return 1 + (state % 150)
    }
  }
  const shapes: [string, () => Limiter][] = [
    ['fixed windows', () => fixedWindow(600, 'delta-ceil')],
    ['a sliding window (reset: the oldest leaves)', () => slidingWindow(600, 'delta-ceil')],
    ['a sliding window (reset: the newest leaves)', () => slidingWindowWhole(600)],
    ['a token bucket', () => tokenBucket(600, 'delta-ceil')],
  ]
  it.each(shapes)('%s: no 429 over 1,500 requests, 8 in flight', async (_, limiter) => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const { rejected } = await drive(limiter(), 1500, { concurrency: 8, jitter: jitter(seed) })
      expect(rejected, `seed ${seed}`).toBe(0)
    }
  })
})
