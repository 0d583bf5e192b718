// Effects that show a moment after the write that caused them: a list fed by a search index, an owner set by
// routing from a queue, an invoice total updated after its payment. The spec gives no deadline, so a read is
// repeated after each pause of a schedule until it shows what is awaited; a server that shows it at once pays
// nothing beyond the first read.

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Pauses before each fresh look at a list that does not show a write yet: about 5 s in all. */
export const LIST_LAG_PAUSES_MS: readonly number[] = [200, 400, 800, 1_600, 2_000]

/** Starting from `first`, reads again after each pause while `done` does not hold; returns the last answer. */
export async function readUntil<T>(first: T, read: () => Promise<T>, done: (answer: T) => boolean, pausesMs: readonly number[]): Promise<T> {
  let latest = first
  for (const pause of pausesMs) {
    if (done(latest)) break
    await sleep(pause)
    latest = await read()
  }
  return latest
}
