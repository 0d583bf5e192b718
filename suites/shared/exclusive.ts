// Checks run concurrently; two probes of the same seeded record (a GET before, a write, a GET after) must not
// interleave, or one would see the other's change. Another area that writes to a seeded record (e.g. the
// webhook area paying the sent invoice in full) takes the same turn: `exclusive(session, recordLock('invoice', id), …)`.
// Keyed by the run's ledger: one per run, the same object whichever view of the session a check holds.
import type { CheckSession } from '../../src/checks/index.ts'

const queues = new WeakMap<object, Map<string, Promise<unknown>>>()

/** Runs `task` after every earlier task of the same key in this session has settled. */
export function exclusive<T>(session: CheckSession, key: string, task: () => Promise<T>): Promise<T> {
  let byKey = queues.get(session.ledger)
  if (!byKey) {
    byKey = new Map()
    queues.set(session.ledger, byKey)
  }
  const previous = byKey.get(key) ?? Promise.resolve()
  const run = previous.then(task, task)
  byKey.set(
    key,
    run.catch(() => undefined),
  )
  return run
}

/** The key under which the probes of one record take turns. */
export function recordLock(resource: string, id: string): string {
  return `${resource}:${id}`
}
