// The target of a run, resolved before its session opens: the user's server as configured, or (no base URL:
// chosen on purpose, src/config/target-choice.ts) the embedded reference server, started here, its keys,
// fixtures and webhook secret filled into the configuration. The session receives it (src/engine/session.ts),
// so the engine never imports the reference server.
import type { ResolvedConfig } from '../config/config.ts'
import type { RunTarget } from '../engine/session.ts'
import type { ServerConditions } from '../reference/conditions.ts'
import type { VariantName } from '../reference/variants.ts'

export interface EmbeddedOptions {
  variant?: string
  faults?: string[]
  /** The main key's per-minute limit on the embedded server (the spec's default is 600). */
  rateLimitPerMinute?: number
  basePath?: '/v1' | '/api/v1'
  /** Deployment conditions the embedded server plays (limiter shape, response delay, idle close, relay). */
  conditions?: ServerConditions
  /** Lists show a write only this long after it (a search index); reads by id at once. */
  listLagMs?: number
  /** Reach the embedded server through this forward proxy (the proxy condition of self-validation); the environment's proxy never applies to it. */
  proxy?: ResolvedConfig['proxy']
}

/** The configured server, or the embedded one started with `embedded` when the configuration names none. */
export async function resolveTarget(config: ResolvedConfig, embedded?: EmbeddedOptions): Promise<RunTarget> {
  if (config.baseUrl !== undefined) return { config: { ...config, baseUrl: config.baseUrl } }
  const { startReferenceServer } = await import('../reference/index.ts')
  const server = await startReferenceServer({
    // The name was checked against VARIANT_NAMES with the other options (src/cli/embedded-options.ts); variantOf refuses any other.
    variant: embedded?.variant as VariantName | undefined,
    faults: embedded?.faults,
    rateLimitPerMinute: embedded?.rateLimitPerMinute,
    basePath: embedded?.basePath,
    conditions: embedded?.conditions,
    listLagMs: embedded?.listLagMs,
  })
  const fixtures = { ...server.fixtures, ...config.fixtures }
  // A fixture the caller unset has no pool either: the checks look for one by listing.
  const pools = Object.entries({ ...server.fixturePools, ...config.fixturePools }).filter(([name]) => fixtures[name as keyof typeof fixtures] !== undefined)
  return {
    embedded: { ...embedded, server },
    config: {
      ...config,
      baseUrl: server.baseUrl,
      keys: { ...server.keys, ...config.keys },
      restrictedScopes: config.restrictedScopes ?? server.restrictedScopes,
      roleLimitedDenied: config.roleLimitedDenied ?? server.roleLimitedDenied,
      fixtures,
      fixturePools: Object.fromEntries(pools),
      webhookSecret: config.webhookSecret ?? server.webhookSecret,
      // The embedded server is this process's own loopback listener: never reached through the environment's
      // proxy, only through one the caller puts in front on purpose.
      proxy: embedded?.proxy ?? {},
    },
  }
}
