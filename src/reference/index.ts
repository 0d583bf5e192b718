// The embedded reference server: a complete implementation of the spec, the target when CRM_BASE_URL is unset,
// the stand-in behind `crm-conformance serve`, and the base of the fault-injected servers of self-validation.

import { serve, type ServerType } from '@hono/node-server'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { FIXTURE_VARIABLES, KEY_VARIABLES, type FixtureName, type KeyRole } from '../vocabulary.ts'
import { createApp } from './app.ts'
import { keyTable } from './auth.ts'
import { Clock, inWholeSeconds, type NowFn } from './clock.ts'
import { closeIdleConnections, delayed, startRelay, type Relay, type ServerConditions } from './conditions.ts'
import { faultSwitches, switchedOn, type FaultId, type SwitchesOf } from './faults.ts'
import { IdempotencyStore, retentionMs } from './idempotency.ts'
import { RateLimiter } from './rate-limit.ts'
import { MAIN_WORKSPACE, RESTRICTED_SCOPES, roleLimitedDenied, seedExtraUsers, seedStore } from './seed.ts'
import { MemoryStore, mirrorRecord, withListLag, type Store } from './store.ts'
import type { ResourceName } from '../spec/resources.ts'
import { variantOf, type BasePath, type VariantName } from './variants.ts'
import { withCors } from './cors.ts'
import { WEBHOOK_DEFAULTS, WebhookDispatcher } from './webhooks.ts'

/** The faults this module plays (faults.ts): the only switches its code can read. */
export const SERVER_FAULTS = ['pagination.limit-uncapped'] as const satisfies readonly FaultId[]

export type { VariantName, BasePath } from './variants.ts'
export type { ServerConditions } from './conditions.ts'
export { LIMITER_SHAPES, type LimiterShape } from './rate-limit.ts'
export { VARIANTS, VARIANT_NAMES } from './variants.ts'
export { FAULTS, type FaultId, type FaultInfo } from './faults.ts'

/** Named defaults of the options below. */
export const REFERENCE_DEFAULTS = {
  host: '127.0.0.1',
  /** 0 = an ephemeral port. */
  port: 0,
  /** §8 default per-minute limit, for the main key. */
  rateLimitPerMinute: 600,
  /** Data, keys and secrets are the same for the same seed. */
  seed: 1,
}

export interface ReferenceServerOptions {
  port?: number
  host?: string
  /** The prefix advertised in `baseUrl`; both `/v1` and `/api/v1` are always served. Default: the variant's. */
  basePath?: BasePath
  /** One legal choice wherever the spec says "not shown" (variants.ts). */
  variant?: VariantName
  /** Named faults to switch on (faults.ts FAULTS); an unknown id is an error. */
  faults?: string[]
  /** The main key's per-minute limit (default 600). */
  rateLimitPerMinute?: number
  /** Where events are delivered (§6); `retrySchedule` is the wait before each retry, in ms. */
  webhook?: { url: string; retrySchedule?: number[] }
  seed?: number
  /** Milliseconds since the epoch; for tests that need to move time. */
  clock?: NowFn
  /** Another store behind the same interface (default: in memory, seeded). */
  store?: Store
  /** Deployment conditions to play: the limiter's shape, a response delay, idle keep-alive close, a relay (conditions.ts). */
  conditions?: ServerConditions
  /** Lists (filtered or not) show a write only this long after it was made, like a search index; reads by id at once. Default 0. */
  listLagMs?: number
  /** `serve --cors`: the origin allowed to call the API from a browser (`*`: any); src/reference/cors.ts. */
  cors?: string
}

export interface ReferenceServer {
  /** The advertised base address, e.g. `http://127.0.0.1:PORT/v1`. */
  baseUrl: string
  /** The same API under `/api/v1` (§1 "Both serve the same API"). */
  apiBaseUrl: string
  keys: Record<KeyRole, string>
  restrictedScopes: string[]
  /** What the role-limited key's owner may not do, each `METHOD /path` (CRM_API_KEY_ROLE_LIMITED_DENIED). */
  roleLimitedDenied: string[]
  fixtures: Record<FixtureName, string>
  /** Every seeded record each fixture variable may name, the fixture first (a nightly run's pools). */
  fixturePools: Record<FixtureName, string[]>
  /** `whsec_…`: the signing secret of the main workspace's webhook endpoint. */
  webhookSecret: string
  /**
   * Answers a request in this process, without the network, as if it came from `host` (the explorer's oracle,
   * src/run/oracle.ts, sends every command here).
   */
  handle(request: Request): Promise<Response>
  /**
   * Puts a record into the main workspace as another server shows it (the explorer's oracle mirrors the target's
   * fixtures), under its own id, every §2 field present: replaces one with that id.
   */
  mirror(resource: ResourceName, record: Record<string, unknown>): void
  /** Points event delivery somewhere else (or nowhere). */
  setWebhookTarget(url: string | undefined): void
  /** A ready-to-paste `.env` block: the base URL, every key, the webhook secret and the fixture ids. */
  envBlock(): string
  close(): Promise<void>
}

export async function startReferenceServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  const variant = variantOf(options.variant ?? 'default')
  const faults = faultSwitches(options.faults)
  const serverFaults: SwitchesOf<typeof SERVER_FAULTS> = faults
  const clock = new Clock(options.clock, variant.wholeSeconds ? 1000 : 1)
  const seed = options.seed ?? REFERENCE_DEFAULTS.seed
  const store = options.store ?? new MemoryStore()
  const seeded = seedStore(variant.wholeSeconds ? inWholeSeconds(store) : store, {
    seed,
    mainLimitPerMinute: options.rateLimitPerMinute ?? REFERENCE_DEFAULTS.rateLimitPerMinute,
  })
  // The fault's workspace imported a staff directory: more users than a page of 100, so an uncapped limit shows.
  if (serverFaults['pagination.limit-uncapped']) seedExtraUsers(store, MAIN_WORKSPACE, 120)
  const webhooks = new WebhookDispatcher({
    secret: seeded.webhookSecret,
    url: options.webhook?.url,
    retrySchedule: options.webhook?.retrySchedule ?? variant.webhookRetrySchedule ?? WEBHOOK_DEFAULTS.retrySchedule,
    faults,
    now: () => clock.now(),
    dateTime: variant.dateTime,
    extraFields: variant.extraFields,
  })
  // Seeded records are indexed from the start; only the API's writes show late.
  const lagged = withListLag(store, options.listLagMs ?? 0, () => clock.now())
  const app = createApp({
    store: lagged.store,
    lists: lagged.lists,
    clock,
    variant,
    faults,
    keys: keyTable(seeded.keys, faults),
    workspaces: seeded.workspaces,
    limiter: new RateLimiter(options.conditions?.limiter),
    idempotency: new IdempotencyStore(retentionMs(faults)),
    webhooks,
    webhookWorkspace: MAIN_WORKSPACE,
  })

  const host = options.host ?? REFERENCE_DEFAULTS.host
  const conditions = options.conditions ?? {}
  const relayed = conditions.relayDelayMs !== undefined
  const server = await new Promise<ServerType>((resolve, reject) => {
    // The Node globals stay untouched: the suite and its HTTP client share this process. Behind a relay, the
    // server itself takes any free port and the relay the one asked for.
    const port = relayed ? 0 : (options.port ?? REFERENCE_DEFAULTS.port)
    const fetch = options.cors ? withCors(app.fetch, options.cors) : app.fetch
    const s = serve({ fetch: delayed(fetch, conditions), port, hostname: host, overrideGlobalObjects: false }, () => resolve(s))
    s.once('error', reject)
  })
  if (conditions.idleCloseMs !== undefined) closeIdleConnections(server as Server, conditions.idleCloseMs)
  let relay: Relay | undefined
  if (relayed)
    relay = await startRelay({ host, port: (server.address() as AddressInfo).port }, conditions.relayDelayMs!, host, options.port ?? REFERENCE_DEFAULTS.port)
  const port = relay?.port ?? (server.address() as AddressInfo).port
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`
  const basePath = options.basePath ?? variant.basePath
  const baseUrl = `${origin}${basePath}`

  const keys = Object.fromEntries(seeded.keys.map((k) => [k.role, k.secret])) as Record<KeyRole, string>
  const envBlock = (): string => {
    const lines = [
      `# crm-conformance reference server: variant ${variant.name}, seed ${seed}${switchedOn(faults).length ? `, faults ${switchedOn(faults).join(' ')}` : ''}`,
      `CRM_BASE_URL=${baseUrl}`,
      ...(Object.entries(KEY_VARIABLES) as [KeyRole, string][]).map(([role, name]) => `${name}=${keys[role]}`),
      `CRM_API_KEY_RESTRICTED_SCOPES="${RESTRICTED_SCOPES.join(' ')}"`,
      `CRM_API_KEY_ROLE_LIMITED_DENIED="${roleLimitedDenied(variant.updateMethod).join(' ')}"`,
      `CRM_WEBHOOK_SECRET=${seeded.webhookSecret}`,
      // Pools: a nightly run takes a usable id from each list (src/engine/fixture-pools.ts).
      ...(Object.entries(FIXTURE_VARIABLES) as [FixtureName, string][]).map(([name, variable]) => {
        const ids = seeded.fixturePools[name]
        return ids.length > 1 ? `${variable}="${ids.join(' ')}"` : `${variable}=${ids[0]}`
      }),
    ]
    return `${lines.join('\n')}\n`
  }

  let closing: Promise<void> | undefined
  return {
    baseUrl,
    apiBaseUrl: `${origin}/api/v1`,
    keys,
    restrictedScopes: [...RESTRICTED_SCOPES],
    roleLimitedDenied: roleLimitedDenied(variant.updateMethod),
    fixtures: { ...seeded.fixtures },
    fixturePools: Object.fromEntries(Object.entries(seeded.fixturePools).map(([name, ids]) => [name, [...ids]])) as Record<FixtureName, string[]>,
    webhookSecret: seeded.webhookSecret,
    handle: async (request) => app.fetch(request, { incoming: { socket: { remoteAddress: host } } }),
    mirror: (resource, record) => mirrorRecord(lagged.store, MAIN_WORKSPACE, resource, record),
    setWebhookTarget: (url) => webhooks.setTarget(url),
    envBlock,
    close() {
      closing ??= (async () => {
        await webhooks.close()
        await relay?.close()
        await new Promise<void>((resolve) => {
          server.close(() => resolve())
          // Keep-alive sockets would hold close() open until they time out.
          if ('closeAllConnections' in server) server.closeAllConnections()
        })
      })()
      return closing
    },
  }
}
