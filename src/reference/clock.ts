// Time for the reference server: one injectable source, and write stamps that strictly increase.

import type { Json, Kind, Store, StoredRecord } from './store.ts'

export type NowFn = () => number

export class Clock {
  private last = 0

  /** `stepMs`: the precision write times are kept at (1000: whole seconds, ties allowed, as a variant stores them). */
  constructor(
    private readonly source: NowFn = Date.now,
    private readonly stepMs = 1,
  ) {}

  /** Milliseconds since the epoch, as the source says (rate limits, expiry, webhook timestamps). */
  now(): number {
    return this.source()
  }

  /**
   * A write time in milliseconds, strictly greater than every earlier write time, so `updatedSince` with the
   * last seen `updatedAt` never misses a change made within the same millisecond (§9.2 incremental sync).
   */
  stamp(): number {
    if (this.stepMs > 1) {
      // Whole steps, never earlier than the last: two writes in one second share their time.
      this.last = Math.max(this.last, Math.floor(this.source() / this.stepMs) * this.stepMs)
      return this.last
    }
    const now = this.source()
    this.last = now > this.last ? now : this.last + 1
    return this.last
  }
}

/** §2 date-time as this server writes it: ISO 8601, UTC, milliseconds, `Z`. */
export function isoOf(ms: number): string {
  return new Date(ms).toISOString()
}

/** §2 date: `YYYY-MM-DD` (UTC). */
export function dateOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10)
}

/** Milliseconds of a date-time string, or undefined when it does not parse. */
export function parseDateTime(value: string): number | undefined {
  // RFC 3339 only: a zone is required, so a bare date or a local time is refused.
  if (!/^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})$/.test(value)) return undefined
  const ms = Date.parse(value)
  if (Number.isNaN(ms)) return undefined
  // Date.parse rolls 2026-02-30 over to March: the calendar day must exist.
  const [y, m, d] = value.slice(0, 10).split('-').map(Number) as [number, number, number]
  const day = new Date(0)
  day.setUTCFullYear(y, m - 1, d)
  return day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d ? ms : undefined
}

/** `YYYY-MM-DD` of a date or date-time string, or undefined when it is neither. */
export function parseDate(value: string): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  if (m) {
    const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))
    return dateOf(ms) === value ? value : undefined
  }
  const ms = parseDateTime(value)
  return ms === undefined ? undefined : dateOf(ms)
}

/**
 * A store whose puts keep times in whole seconds (list order keys and every millisecond date-time of the record):
 * the seed of a variant that stores seconds, so seeded records are kept as its writes are.
 */
export function inWholeSeconds(store: Store): Store {
  const cut = (ms: number) => Math.floor(ms / 1000) * 1000
  return Object.assign(Object.create(store) as Store, {
    put(workspace: string, kind: Kind, rec: StoredRecord): void {
      const record: Json = {}
      for (const [k, v] of Object.entries(rec.record)) record[k] = typeof v === 'string' && MS_ISO.test(v) ? v.replace(MS_ISO, '$1.000Z') : v
      store.put(workspace, kind, { ...rec, createdAtMs: cut(rec.createdAtMs), updatedAtMs: cut(rec.updatedAtMs), record })
    },
  })
}

const MS_ISO = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\.\d{3}Z$/
