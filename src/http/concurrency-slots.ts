// The per-key cap on requests in flight. Apart from the pacer on purpose: a request sent unpaced (the 429
// probe) still takes a slot, so turning pacing off never lifts the cap. The cap is a number (every key but the
// main one) or read anew at each turn (the main key's, adaptive-concurrency.ts): a cap that grew lets waiting
// requests through at once (`poke`), one that shrank lets none through until enough have ended.
export class ConcurrencySlots {
  private inUse = 0
  private readonly waiting: (() => void)[] = []
  private readonly limit: () => number

  constructor(size: number | (() => number)) {
    this.limit = typeof size === 'number' ? () => size : size
  }

  /** Slots taken now: requests of this key on their way (queued for the pacer or on the wire). */
  get active(): number {
    return this.inUse
  }

  /** Requests waiting for a slot now. */
  get queued(): number {
    return this.waiting.length
  }

  /** Waits for a free slot; returns the function that frees it (calling it again does nothing). */
  async acquire(): Promise<() => void> {
    if (this.waiting.length === 0 && this.inUse < this.limit()) this.inUse++
    // The slot is counted by `drain` before the waiter is woken, in the order they came.
    else await new Promise<void>((resolve) => this.waiting.push(resolve))
    let released = false
    return () => {
      if (released) return
      released = true
      this.inUse--
      this.drain()
    }
  }

  /** The cap may have grown: let waiting requests through up to it. */
  poke(): void {
    this.drain()
  }

  private drain(): void {
    while (this.waiting.length > 0 && this.inUse < this.limit()) {
      this.inUse++
      this.waiting.shift()!()
    }
  }
}
