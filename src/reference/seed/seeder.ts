// The seeding kit every resource group uses: a Seeder that stores records shaped as §2 lists them, at seeded
// times that only increase, and the context one workspace's groups share. The draw order of the Prng is the
// data: groups run in a fixed order (seed.ts), so the same seed gives the same ids, keys and timestamps.

import { RESOURCES, type ResourceName } from '../../spec/resources.ts'
import type { OwnerRole } from '../auth.ts'
import { isoOf } from '../clock.ts'
import { shape } from '../model-kit.ts'
import type { Prng } from '../prng.ts'
import type { Json, Kind, Store, StoredRecord } from '../store.ts'

/** Seeded records are dated from here on, well before any record the API creates. */
export const SEED_EPOCH = Date.UTC(2025, 0, 6, 1, 0, 0)

export interface UserSeed {
  name: string
  email: string
  role: OwnerRole
  title: string
  status?: string
  availability?: string
  locale?: string
}

export class Seeder {
  private t: number

  constructor(
    readonly store: Store,
    private readonly rng: Prng,
    readonly ws: string,
    /** Where its seeded times start (a seeder added later starts after the others' records). */
    startMs: number = SEED_EPOCH,
  ) {
    this.t = startMs
  }

  /** The next seeded time: strictly increasing, a few minutes to a few hours apart. */
  time(): number {
    this.t += this.rng.int(5, 240) * 60_000 + this.rng.int(0, 59_999)
    return this.t
  }

  number(kind: Kind, prefix: string): string {
    return `${prefix}-${String(this.store.nextNumber(this.ws, kind)).padStart(6, '0')}`
  }

  /** Stores a record shaped as §2 lists it; `touched` seconds after creation it was last updated. */
  add(kind: ResourceName, values: Json | ((createdMs: number) => Json), hidden: Json = {}, touchedSeconds = 0): Json {
    const created = this.time()
    if (typeof values === 'function') values = values(created)
    const updated = created + touchedSeconds * 1000
    const spec = RESOURCES[kind]
    const full: Json = { id: this.rng.uuid(), ...values }
    if ('createdAt' in spec.record) full.createdAt = isoOf(created)
    if ('updatedAt' in spec.record) full.updatedAt = isoOf(updated)
    const rec: StoredRecord = { id: String(full.id), createdAtMs: created, updatedAtMs: updated, record: shape(spec, full), hidden }
    this.store.put(this.ws, kind, rec)
    return rec.record
  }

  addConversation(values: Json): Json {
    const created = this.time()
    const record: Json = { id: this.rng.uuid(), ...values, createdAt: isoOf(created) }
    this.store.put(this.ws, 'conversation', { id: String(record.id), createdAtMs: created, updatedAtMs: created, record, hidden: {} })
    return record
  }
}

export interface WorkspaceProfile {
  id: string
  name: string
  domain: string
  users: UserSeed[]
  accounts: { name: string; industry: string; tier: string | null; email: string | null; city: string }[]
  people: { first: string; last: string; mobile: string; locale: string }[]
  /** How many of each kind of sample record (the foreign workspace has fewer). */
  scale: number
}

/** What one workspace's resource groups share: the seeder, its profile, and the people and ids drawn first. */
export interface SeedContext {
  s: Seeder
  rng: Prng
  p: WorkspaceProfile
  /** The main workspace gets a sample of every state; the foreign one a record or two. */
  big: boolean
  admin: string
  sales: string[]
  agents: string[]
  accounts: Json[]
  contacts: Json[]
  salesTeamId: string
  supportTeamId: string
  pipelineId: string
  categoryIds: string[]
}

export function item(name: string, quantity: number, unitPriceSen: number, taxRatePct = 8, discountSen = 0): Json {
  return { name, quantity, unitPriceSen, discountSen, taxRatePct }
}
