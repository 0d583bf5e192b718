// How precisely a server shows its timestamps. A record shown exactly at a since-bound was created (or changed) at
// the bound only when the server shows every digit it stores; one that keeps more than it shows (microseconds shown
// as milliseconds) rightly counts it as after the bound (§4.1 "after this time").

/** Digits after the seconds of an ISO 8601 date-time (`…:05.120Z` → 3, `…:05Z` → 0); undefined if it is none. */
export function fractionDigits(shown: unknown): number | undefined {
  if (typeof shown !== 'string') return undefined
  const m = /T\d{2}:\d{2}:\d{2}(?:[.,](\d+))?(?:Z|[+-]\d{2}:?\d{2})?$/i.exec(shown)
  return m ? (m[1]?.length ?? 0) : undefined
}

export interface ShownPrecision {
  /** The distinct numbers of fractional digits seen, ascending. */
  digits: number[]
  /**
   * Every timestamp seen has the same number of fractional digits: the server writes them in one fixed form, taken
   * here to be the precision it stores. Varying digits (trailing zeros cut, rounding of a finer value) may hide a
   * later instant, so a record shown at the bound cannot be judged.
   */
  uniform: boolean
}

export function shownPrecision(timestamps: unknown[]): ShownPrecision {
  const digits = [...new Set(timestamps.map(fractionDigits).filter((d): d is number => d !== undefined))].sort((a, b) => a - b)
  return { digits, uniform: digits.length === 1 }
}
