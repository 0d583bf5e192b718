// Every record a run creates, so that it can be removed at the end: also after a failure, a timeout or an
// interrupt, because each change is journalled to disk as it happens (§ "leave nothing behind").
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs'
import { dirname } from 'node:path'
import type { LedgerEntry, LedgerView } from '../checks/types.ts'

export type { LedgerEntry }

type JournalLine = ({ op: 'add' } & LedgerEntry) | { op: 'remove'; id: string }

export class Ledger implements LedgerView {
  private readonly entries = new Map<string, LedgerEntry>()
  private readonly everTracked = new Set<string>()
  private readonly inFlight = new Set<Promise<unknown>>()

  constructor(private readonly journalFile?: string) {
    if (journalFile) mkdirSync(dirname(journalFile), { recursive: true })
  }

  track(entry: LedgerEntry): void {
    this.entries.set(entry.id, entry)
    this.everTracked.add(entry.id)
    this.journal({ op: 'add', ...entry })
  }

  /** The record is gone (deleted by a check or by cleanup). */
  forget(id: string): void {
    if (this.entries.delete(id)) this.journal({ op: 'remove', id })
  }

  /** Outstanding records, newest first (children before their parents). */
  pending(): LedgerEntry[] {
    return [...this.entries.values()].reverse()
  }

  /** Whether this run created the record, whether or not it is gone since. */
  created(id: string): boolean {
    return this.everTracked.has(id)
  }

  /** Notes a create on its way (its record may be listed before it is tracked); returns it. */
  creating<T>(create: Promise<T>): Promise<T> {
    this.inFlight.add(create)
    const done = () => this.inFlight.delete(create)
    create.then(done, done)
    return create
  }

  /**
   * Resolves once every create on its way now has ended: a record seen in a list read before this call is
   * then known to `created` if this run made it.
   */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.inFlight])
  }

  private journal(line: JournalLine): void {
    // Synchronous on purpose: a worker that is killed must not lose the line.
    if (this.journalFile) appendFileSync(this.journalFile, `${JSON.stringify(line)}\n`)
  }

  /** Rebuilds the outstanding records of a (possibly interrupted) run from its journal. */
  static fromJournal(journalFile: string): Ledger {
    const ledger = new Ledger()
    if (!existsSync(journalFile)) return ledger
    for (const text of readFileSync(journalFile, 'utf8').split('\n')) {
      if (!text.trim()) continue
      let line: JournalLine
      try {
        line = JSON.parse(text) as JournalLine
      } catch {
        continue // a line cut by a kill
      }
      if (line.op === 'add') {
        const { op: _op, ...entry } = line
        ledger.entries.set(entry.id, entry)
      } else {
        ledger.entries.delete(line.id)
      }
    }
    return ledger
  }
}

export interface Leftover {
  resource: string
  id: string
  reason: string
}

/**
 * Deletes what the ledger still holds; returns what could not be removed through the API, in the ledger's order.
 * `parallel` deletes go out at once (the transport's per-key cap still applies): a server answering in 700 ms
 * took 200 s to remove 300 records one by one (issue 30). They start newest first still; a delete refused
 * meanwhile (a parent removed beside its child, which a server may refuse: the spec does not show it) is tried
 * again once every other delete has ended, one at a time in the ledger's order, as a `parallel` of 1 does.
 */
export async function cleanUp(ledger: Ledger, remove: (path: string, keyRole: string) => Promise<number | undefined>, parallel = 1): Promise<Leftover[]> {
  const pending = ledger.pending()
  const outcome = new Map<LedgerEntry, Leftover | undefined>()
  /** Whether the server refused the delete (worth another try once the others are gone). */
  const attempt = async (entry: LedgerEntry): Promise<boolean> => {
    if (!entry.deletePath) {
      outcome.set(entry, { resource: entry.resource, id: entry.id, reason: entry.reason ?? 'the API has no delete for it' })
      return false
    }
    let status: number | undefined
    try {
      status = await remove(entry.deletePath, entry.keyRole ?? 'main')
    } catch (error) {
      outcome.set(entry, { resource: entry.resource, id: entry.id, reason: `delete failed: ${(error as Error).message}` })
      return false
    }
    // 404: already gone (a check deleted it, or the server recycled it).
    if (status !== undefined && ((status >= 200 && status < 300) || status === 404)) {
      ledger.forget(entry.id)
      outcome.set(entry, undefined)
      return false
    }
    outcome.set(entry, { resource: entry.resource, id: entry.id, reason: `delete answered ${status}` })
    return true
  }
  if (parallel <= 1) {
    for (const entry of pending) await attempt(entry)
  } else {
    const refused = new Set<LedgerEntry>()
    let next = 0
    await Promise.all(
      Array.from({ length: Math.min(parallel, pending.length) }, async () => {
        while (next < pending.length) {
          const entry = pending[next++]!
          if (await attempt(entry)) refused.add(entry)
        }
      }),
    )
    for (const entry of pending) if (refused.has(entry)) await attempt(entry)
  }
  return pending.flatMap((entry) => {
    const leftover = outcome.get(entry)
    return leftover ? [leftover] : []
  })
}
