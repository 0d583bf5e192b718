// The per-key cap on requests in flight (CRM_CONCURRENCY). Apart from the pacer on purpose: a request sent
// unpaced (the 429 probe) still takes a slot, so turning pacing off never lifts the cap.
export class ConcurrencySlots {
  private inUse = 0
  private readonly waiting: (() => void)[] = []

  constructor(private readonly size: number) {}

  /** Slots taken now: requests of this key on their way (queued for the pacer or on the wire). */
  get active(): number {
    return this.inUse
  }

  /** Waits for a free slot; returns the function that frees it (calling it again does nothing). */
  async acquire(): Promise<() => void> {
    while (this.inUse >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve))
    this.inUse++
    let released = false
    return () => {
      if (released) return
      released = true
      this.inUse--
      this.waiting.shift()?.()
    }
  }
}
