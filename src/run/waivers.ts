// Known failures for everyday runs (`run --waivers FILE`), never for certification. A waived failure is
// reported as `failed (waived)` and does not fail the run; a stale waiver (its check now passes, it names an
// unknown check, or it has expired) fails the run, so waivers never outlive the fault they excuse.
import { readFileSync } from 'node:fs'
import { CrmConfError } from '../errors.ts'
import type { CheckResult } from '../checks/types.ts'

export interface Waiver {
  /** The check id, exactly as `crm-conformance list` prints it (no prefix, area or clause). */
  check: string
  /** Why the failure is known and accepted: a ticket, a decision. Required. */
  reason: string
  /** `YYYY-MM-DD` (UTC): the waiver holds through the end of that day. */
  expires?: string
}

export type StaleProblem = 'passes' | 'unknown-check' | 'expired'

export interface StaleWaiver extends Waiver {
  problem: StaleProblem
  /** Says what to do, for the console and the report. */
  message: string
}

/** What `run --waivers` records in report.json (key `waivers`). */
export interface WaiverOutcome {
  file: string
  /** Failures the waivers excused: reported as failed (waived). */
  applied: Waiver[]
  /** Waivers that fail the run. */
  stale: StaleWaiver[]
  /** Waivers whose check was not selected, was skipped or errored: neither applied nor stale. */
  unused: (Waiver & { why: string })[]
}

export class WaiverFileError extends CrmConfError {
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    super('CRMCONF_WAIVERS_INVALID', `${file} is not a usable waivers file:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
    this.name = 'WaiverFileError'
  }
}

const FIELDS = new Set(['check', 'reason', 'expires'])
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/

function isCalendarDate(text: string): boolean {
  const m = DATE.exec(text)
  if (!m) return false
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])))
  return d.toISOString().slice(0, 10) === text
}

/**
 * Validates a waivers document: `{ "waivers": [ { "check", "reason", "expires"? } ] }` or the bare array.
 * Lists every problem at once (a missing reason, a bad date, an unknown field, a duplicate check). An unknown
 * check id is not a problem of the file's shape: it is a stale waiver, which fails the run (see applyWaivers).
 */
export function parseWaivers(text: string, file = 'waivers.json'): Waiver[] {
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch (error) {
    throw new WaiverFileError(file, [`not JSON: ${(error as Error).message}`])
  }
  const list = Array.isArray(doc)
    ? doc
    : typeof doc === 'object' && doc !== null && Array.isArray((doc as { waivers?: unknown }).waivers)
      ? (doc as { waivers: unknown[] }).waivers
      : undefined
  if (!list) throw new WaiverFileError(file, ['expected { "waivers": [ { "check": "<check id>", "reason": "<why>", "expires": "YYYY-MM-DD" } ] }'])
  const problems: string[] = []
  const waivers: Waiver[] = []
  const seen = new Set<string>()
  list.forEach((entry: unknown, i) => {
    const at = `waivers[${i}]`
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      problems.push(`${at}: expected an object with "check" and "reason"`)
      return
    }
    const e = entry as Record<string, unknown>
    const named = typeof e.check === 'string' && e.check.trim() ? `${at} (${e.check.trim()})` : at
    for (const key of Object.keys(e)) if (!FIELDS.has(key)) problems.push(`${named}: unknown field "${key}" (allowed: check, reason, expires)`)
    const check = typeof e.check === 'string' ? e.check.trim() : ''
    if (!check) problems.push(`${at}: "check" is missing: the id of a check, as \`crm-conformance list\` prints it`)
    const reason = typeof e.reason === 'string' ? e.reason.trim() : ''
    if (!reason) problems.push(`${named}: "reason" is missing or empty: say why the failure is accepted (a ticket, a decision)`)
    let expires: string | undefined
    if (e.expires !== undefined) {
      if (typeof e.expires !== 'string' || !isCalendarDate(e.expires))
        problems.push(`${named}: "expires" must be a date YYYY-MM-DD, got ${JSON.stringify(e.expires)}`)
      else expires = e.expires
    }
    if (check && seen.has(check)) problems.push(`${named}: a second waiver for the same check`)
    if (check) seen.add(check)
    if (check && reason) waivers.push(expires ? { check, reason, expires } : { check, reason })
  })
  if (problems.length > 0) throw new WaiverFileError(file, problems)
  return waivers
}

export function loadWaivers(path: string): Waiver[] {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new WaiverFileError(path, [`cannot read it: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`])
  }
  return parseWaivers(text, path)
}

/** Expired once the run's UTC date is past `expires` (a waiver expiring today still holds today). */
export function isExpired(waiver: Waiver, now: Date): boolean {
  return waiver.expires !== undefined && now.toISOString().slice(0, 10) > waiver.expires
}

/**
 * Marks the failures the waivers excuse (`result.waived`), and finds the stale waivers. Returns new result
 * objects; the input is not changed. `knownIds` is the catalogue's ids (the whole suite, not the selection:
 * a waiver for a check left out by --only is unused, not unknown).
 */
export function applyWaivers(
  results: readonly CheckResult[],
  waivers: readonly Waiver[],
  knownIds: ReadonlySet<string>,
  now: Date,
  file = 'waivers.json',
): { results: CheckResult[]; outcome: WaiverOutcome } {
  const outcome: WaiverOutcome = { file, applied: [], stale: [], unused: [] }
  const byCheck = new Map(waivers.map((w) => [w.check, w]))
  const notes = new Map<string, string>()
  const ran = new Map(results.map((r) => [r.id, r]))
  for (const waiver of waivers) {
    const result = ran.get(waiver.check)
    const until = waiver.expires ? ` (expires ${waiver.expires})` : ''
    if (!knownIds.has(waiver.check)) {
      outcome.stale.push({
        ...waiver,
        problem: 'unknown-check',
        message: `waiver for ${waiver.check}: no check of this suite has that id; correct it or remove the waiver`,
      })
    } else if (isExpired(waiver, now)) {
      outcome.stale.push({
        ...waiver,
        problem: 'expired',
        message: `waiver for ${waiver.check} expired on ${waiver.expires}; fix the failure or renew the waiver with a new date`,
      })
      if (result) notes.set(result.id, `waiver expired on ${waiver.expires} (not applied): ${waiver.reason}`)
    } else if (!result) {
      outcome.unused.push({ ...waiver, why: 'the check was not selected in this run' })
    } else if (result.status === 'passed') {
      outcome.stale.push({ ...waiver, problem: 'passes', message: `waiver for ${waiver.check}${until}: the check now passes; remove the waiver` })
      notes.set(result.id, `stale waiver: the check passes; remove it from ${file}`)
    } else if (result.status === 'failed') {
      outcome.applied.push(waiver)
    } else {
      outcome.unused.push({ ...waiver, why: `the check ${result.status === 'error' ? 'errored' : 'was skipped'}; a waiver excuses a failure only` })
    }
  }
  const applied = new Set(outcome.applied.map((w) => w.check))
  const out = results.map((r) => {
    const note = notes.get(r.id)
    if (applied.has(r.id)) {
      const w = byCheck.get(r.id)!
      return { ...r, waived: w.expires ? { reason: w.reason, expires: w.expires } : { reason: w.reason } }
    }
    return note ? { ...r, notes: [...r.notes, note] } : r
  })
  return { results: out, outcome }
}

/** Lines for the console after a run with waivers: waived failures as `failed (waived)`, then stale waivers. */
export function describeWaiverOutcome(outcome: WaiverOutcome): string[] {
  const lines: string[] = []
  for (const w of outcome.applied) lines.push(`  failed (waived) ${w.check}: ${w.reason}${w.expires ? ` (until ${w.expires})` : ''}`)
  for (const w of outcome.unused) lines.push(`  waiver not used for ${w.check}: ${w.why}`)
  for (const w of outcome.stale) lines.push(`  STALE ${w.message}`)
  if (outcome.stale.length > 0) lines.push(`${outcome.stale.length} stale waiver(s) in ${outcome.file}: the run fails until they are removed or corrected`)
  return lines
}
