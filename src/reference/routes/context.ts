// What every room of the HTTP surface shares: the server's state, the Hono context type and the named defaults.

import type { HttpBindings } from '@hono/node-server'
import type { Context } from 'hono'
import type { ApiKey, KeyTable } from '../auth.ts'
import type { Clock } from '../clock.ts'
import type { FaultSwitches } from '../faults.ts'
import type { IdempotencyStore } from '../idempotency.ts'
import type { Workspace } from '../model-kit.ts'
import type { RateLimiter } from '../rate-limit.ts'
import type { ListSource, Store } from '../store.ts'
import type { Variant } from '../variants.ts'
import type { WebhookDispatcher } from '../webhooks.ts'

/** Named defaults of the HTTP surface (the spec leaves them open, §8 "not shown"). */
export const HTTP_DEFAULTS = {
  /** Largest request body; larger ones get 413. */
  maxBodyBytes: 1024 * 1024,
  /** Deepest nesting of objects and arrays in a request body. */
  maxBodyDepth: 64,
  /** Per-minute limit of callers without a valid key, per remote address (their 401s carry RateLimit-*). */
  anonymousLimitPerMinute: 600,
}

export const BASE_PATHS = ['/v1', '/api/v1'] as const

export interface AppState {
  store: Store
  /** What list queries read: the store, or a view of it that shows writes late (a search index). */
  lists: ListSource
  clock: Clock
  variant: Variant
  /** The faults switched on; each room reads only its own (SwitchesOf its `*_FAULTS` list). */
  faults: FaultSwitches
  keys: KeyTable
  workspaces: ReadonlyMap<string, Workspace>
  limiter: RateLimiter
  idempotency: IdempotencyStore
  webhooks: WebhookDispatcher
  /** Events of this workspace are delivered (the endpoint configured in its settings, §6.1). */
  webhookWorkspace: string
}

export type Env = { Bindings: HttpBindings; Variables: { key: ApiKey } }
export type Ctx = Context<Env>
