// A count with its noun in the right number, for every line a person reads: "1 record", "3 records". Imports nothing.

/** `1 record`, `0 records`, `3 records`; `plural` where adding an s is wrong (`1 entry`, `2 entries`). */
export function counted(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`
}
