// The data behind the API, behind one small interface so that a persistent store could replace the memory one.

import { RESOURCES, type ResourceName } from '../spec/resources.ts'

/** The API's resources, and the records the API reads but cannot create (conversations). */
export type Kind = ResourceName | 'conversation'

export type Json = Record<string, unknown>

export interface StoredRecord {
  /** Lower-case uuid. */
  id: string
  /** Order keys of every list (§4.1 sort): milliseconds, strictly increasing for writes made through the API. */
  createdAtMs: number
  updatedAtMs: number
  /** The record exactly as §2 lists it, every field present, in the spec's order. */
  record: Json
  /** Fields written but not in the record (§2 "Writable but not in the record") and server-side state. */
  hidden: Json
}

export type SortField = 'createdAt' | 'updatedAt'

export interface Store {
  get(workspace: string, kind: Kind, id: string): StoredRecord | undefined
  /** Inserts or replaces (by id). Records are replaced whole, never mutated in place. */
  put(workspace: string, kind: Kind, rec: StoredRecord): void
  /** `recycle` moves the record to the workspace's recycle bin (§1.6): gone from the API, kept by the store. */
  remove(workspace: string, kind: Kind, id: string, mode: 'delete' | 'recycle'): void
  /** Live records in ascending (sort key, id) order. The caller must not change the array. */
  sorted(workspace: string, kind: Kind, by: SortField): readonly StoredRecord[]
  /** The next per-workspace sequence number of a kind (record numbers such as ACC-000012). */
  nextNumber(workspace: string, kind: Kind): number
}

interface Collection {
  live: Map<string, StoredRecord>
  bin: Map<string, StoredRecord>
  sorted: Partial<Record<SortField, StoredRecord[]>>
  sequence: number
}

/** Maps keyed by workspace and kind; sorted views are built on demand and dropped on the next write. */
export class MemoryStore implements Store {
  private readonly collections = new Map<string, Collection>()

  private collection(workspace: string, kind: Kind): Collection {
    const key = `${workspace}\u0000${kind}`
    let c = this.collections.get(key)
    if (!c) {
      c = { live: new Map(), bin: new Map(), sorted: {}, sequence: 0 }
      this.collections.set(key, c)
    }
    return c
  }

  get(workspace: string, kind: Kind, id: string): StoredRecord | undefined {
    return this.collection(workspace, kind).live.get(id)
  }

  put(workspace: string, kind: Kind, rec: StoredRecord): void {
    const c = this.collection(workspace, kind)
    c.live.set(rec.id, rec)
    c.sorted = {}
  }

  remove(workspace: string, kind: Kind, id: string, mode: 'delete' | 'recycle'): void {
    const c = this.collection(workspace, kind)
    const rec = c.live.get(id)
    if (!rec) return
    c.live.delete(id)
    if (mode === 'recycle') c.bin.set(id, rec)
    c.sorted = {}
  }

  sorted(workspace: string, kind: Kind, by: SortField): readonly StoredRecord[] {
    const c = this.collection(workspace, kind)
    let view = c.sorted[by]
    if (!view) {
      const key = by === 'createdAt' ? 'createdAtMs' : 'updatedAtMs'
      view = [...c.live.values()].sort((a, b) => a[key] - b[key] || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      c.sorted[by] = view
    }
    return view
  }

  nextNumber(workspace: string, kind: Kind): number {
    return ++this.collection(workspace, kind).sequence
  }
}

/** What list queries read (§4.1, §4.3): live records in ascending (sort key, id) order. */
export interface ListSource {
  sorted(workspace: string, kind: Kind, by: SortField): readonly StoredRecord[]
}

/** A write that lists do not show yet: the record as lists still show it (undefined: not listed at all). */
interface Pending {
  visibleAt: number
  key: string
  id: string
  before: StoredRecord | undefined
}

const ascending = (by: SortField) => {
  const key = by === 'createdAt' ? 'createdAtMs' : 'updatedAtMs'
  return (a: StoredRecord, b: StoredRecord) => a[key] - b[key] || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
}

/**
 * Lists fed by a search index: a write (create, update, delete or recycle) shows in lists only `lagMs` after it
 * was made, while reads by id see it at once. Returns the store to write through (it notes every write) and the
 * view that list queries read: the store as it was `lagMs` ago. With no lag, both are the store itself.
 */
export function withListLag(store: Store, lagMs: number, now: () => number): { store: Store; lists: ListSource } {
  if (!(lagMs > 0)) return { store, lists: store }
  const pending: Pending[] = []
  const keyOf = (workspace: string, kind: Kind) => `${workspace}\u0000${kind}`
  const note = (workspace: string, kind: Kind, id: string) =>
    pending.push({ visibleAt: now() + lagMs, key: keyOf(workspace, kind), id, before: store.get(workspace, kind, id) })
  const lagging: Store = {
    get: (workspace, kind, id) => store.get(workspace, kind, id),
    put(workspace, kind, rec) {
      note(workspace, kind, rec.id)
      store.put(workspace, kind, rec)
    },
    remove(workspace, kind, id, mode) {
      note(workspace, kind, id)
      store.remove(workspace, kind, id, mode)
    },
    sorted: (workspace, kind, by) => store.sorted(workspace, kind, by),
    nextNumber: (workspace, kind) => store.nextNumber(workspace, kind),
  }
  const lists: ListSource = {
    sorted(workspace, kind, by) {
      const t = now()
      while (pending.length > 0 && pending[0]!.visibleAt <= t) pending.shift()
      const key = keyOf(workspace, kind)
      // The earliest write still hidden decides what lists show of a record: the version before it.
      const shown = new Map<string, StoredRecord | undefined>()
      for (const p of pending) if (p.key === key && !shown.has(p.id)) shown.set(p.id, p.before)
      const live = store.sorted(workspace, kind, by)
      if (shown.size === 0) return live
      const view = live.filter((r) => !shown.has(r.id))
      for (const before of shown.values()) if (before) view.push(before)
      return view.sort(ascending(by))
    },
  }
  return { store: lagging, lists }
}

/**
 * Puts a record as another server shows it (the explorer's oracle mirrors the target's fixtures): under its own id,
 * every §2 field present (null where it showed none), its order keys from its createdAt and updatedAt.
 */
export function mirrorRecord(store: Store, workspace: string, resource: ResourceName, shown: Json): void {
  const record: Json = Object.fromEntries(Object.keys(RESOURCES[resource].record).map((field) => [field, shown[field] ?? null]))
  const id = String(shown.id).toLowerCase()
  const at = (value: unknown) => (typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? Date.parse(value) : Date.now())
  const createdAtMs = at(shown.createdAt)
  store.put(workspace, resource, {
    id,
    createdAtMs,
    updatedAtMs: shown.updatedAt === undefined ? createdAtMs : at(shown.updatedAt),
    record: { ...record, id },
    hidden: {},
  })
}
