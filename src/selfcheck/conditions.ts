// Self-validation under deployment conditions (issue 16): the whole suite against the reference server playing
// one condition a real deployment has, a rate limiter of another shape, a slow server, lagging lists, a load
// balancer closing idle connections, a forward proxy. The verdict must be the one of a fast, unthrottled run.
import type { CheckDefinition, CheckResult } from '../checks/types.ts'
import { DEFAULTS, type ResolvedConfig } from '../config/config.ts'
import { runInProcess, type InProcessRun } from '../run/in-process.ts'
import type { EmbeddedOptions } from '../run/target.ts'
import { verdictOf } from '../report/build.ts'
import type { Verdict } from '../report/types.ts'
import { startForwardProxy } from './forward-proxy.ts'

/** §8: the spec's default per-minute limit; every condition runs the main key at it. */
export const SPEC_DEFAULT_LIMIT = 600

export interface Condition {
  name: string
  title: string
  /** The embedded server's options (the main key's limit, the conditions it plays, list lag). */
  embedded: EmbeddedOptions
  /** Settings a user would choose for such a server (none does today: the main key's cap on requests in flight adapts). */
  config?: Partial<ResolvedConfig>
  /** The run goes through a forward proxy (HTTP_PROXY). */
  proxy?: boolean
}

/** A rate limit no run reaches: the slow-staging condition is bound by its answers' latency alone. */
const NO_PRACTICAL_LIMIT = DEFAULTS.embeddedRateLimitPerMinute

export const CONDITIONS: readonly Condition[] = [
  {
    name: 'fixed-window',
    title: 'fixed one-minute windows at 600/min (the whole budget spendable at once, reset on the minute)',
    embedded: { rateLimitPerMinute: SPEC_DEFAULT_LIMIT, conditions: { limiter: 'fixed-window' } },
  },
  {
    name: 'sliding-window',
    title: 'a sliding one-minute window at 600/min',
    embedded: { rateLimitPerMinute: SPEC_DEFAULT_LIMIT, conditions: { limiter: 'sliding-window' } },
  },
  { name: 'token-bucket', title: 'a token bucket at 600/min', embedded: { rateLimitPerMinute: SPEC_DEFAULT_LIMIT, conditions: { limiter: 'token-bucket' } } },
  {
    name: 'delay-600ms',
    title: 'every response 600 ms ± 100 ms late, 600/min',
    embedded: { rateLimitPerMinute: SPEC_DEFAULT_LIMIT, conditions: { responseDelayMs: 600, responseJitterMs: 100 } },
  },
  {
    name: 'delay-2s',
    title: 'every response 2 s ± 200 ms late, 600/min',
    embedded: { rateLimitPerMinute: SPEC_DEFAULT_LIMIT, conditions: { responseDelayMs: 2000, responseJitterMs: 200 } },
  },
  {
    name: 'list-lag',
    title: 'lists (and filtered lists) show a write 1.5 s late; reads by id at once, 600/min',
    embedded: { rateLimitPerMinute: SPEC_DEFAULT_LIMIT, listLagMs: 1500 },
  },
  {
    name: 'idle-close',
    title: 'idle keep-alive connections closed after 500 ms, behind a network of 40 ms each way, 600/min',
    embedded: { rateLimitPerMinute: SPEC_DEFAULT_LIMIT, conditions: { idleCloseMs: 500, relayDelayMs: 40 } },
  },
  {
    // Issue 30: QA's staging servers are often slow; the run must fill the key's budget, not four slots.
    name: 'slow-staging',
    title: 'every response 700 ms ± 100 ms late (a slow staging server), no practical rate limit',
    embedded: { rateLimitPerMinute: NO_PRACTICAL_LIMIT, conditions: { responseDelayMs: 700, responseJitterMs: 100 } },
  },
  {
    name: 'delay-250ms',
    title: 'every response 250 ms ± 50 ms late, 600/min',
    embedded: { rateLimitPerMinute: SPEC_DEFAULT_LIMIT, conditions: { responseDelayMs: 250, responseJitterMs: 50 } },
  },
  { name: 'proxy', title: 'every request through a forward proxy (HTTP_PROXY), 600/min', embedded: { rateLimitPerMinute: SPEC_DEFAULT_LIMIT }, proxy: true },
]

export const CONDITION_NAMES = CONDITIONS.map((c) => c.name)

export function conditionNamed(name: string): Condition {
  const condition = CONDITIONS.find((c) => c.name === name)
  if (!condition) throw new Error(`unknown condition ${name}; one of ${CONDITION_NAMES.join(', ')}`)
  return condition
}

export interface ConditionRun {
  condition: Condition
  run: InProcessRun
  verdict: Verdict
  reasons: string[]
  wallMs: number
  /** What went through the forward proxy (proxy condition only). */
  proxied?: { requests: number; tunnels: number; refused: number }
  /** Results that break the rule of the condition runs: any failure or error, a MUST skipped. */
  problems: string[]
}

export interface ConditionRunOptions {
  runId?: string
  seed?: number
  only?: string[]
}

/** The whole suite (full profile) against the reference server playing `condition`. */
export async function runUnderCondition(condition: Condition, checks: CheckDefinition[], options: ConditionRunOptions = {}): Promise<ConditionRun> {
  const proxy = condition.proxy ? await startForwardProxy() : undefined
  const restoreEnv = proxy ? proxyEnvironment(proxy.url) : () => undefined
  const started = performance.now()
  try {
    // A user's run takes the proxy from HTTP_PROXY (config `proxy`); the embedded server is reached through one
    // only when asked for explicitly, as here.
    const config: Partial<ResolvedConfig> = { ...condition.config }
    const embedded = proxy ? { ...condition.embedded, proxy: { httpProxy: proxy.url, httpsProxy: proxy.url } } : condition.embedded
    const run = await runInProcess({
      checks,
      only: options.only,
      embedded,
      config,
      profile: 'full',
      seed: options.seed,
      runId: options.runId ?? `cond-${condition.name}-${Date.now().toString(36)}`,
    })
    const { verdict, reasons } = verdictOf(run.results)
    return {
      condition,
      run,
      verdict,
      reasons,
      wallMs: Math.round(performance.now() - started),
      proxied: proxy ? { requests: proxy.requests, tunnels: proxy.tunnels, refused: proxy.refused } : undefined,
      problems: problemsOf(run.results),
    }
  } finally {
    restoreEnv()
    await proxy?.close()
  }
}

const PROXY_VARIABLES = ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy', 'NO_PROXY', 'no_proxy']

/**
 * HTTP_PROXY and HTTPS_PROXY at the proxy for the run, and no NO_PROXY, as a user's environment would have
 * them: what must not go through a proxy (the sink, the embedded server's own deliveries) is then proven not to,
 * since the proxy's count must equal the run's requests. The previous values come back after.
 */
function proxyEnvironment(url: string): () => void {
  const saved = Object.fromEntries(PROXY_VARIABLES.map((name) => [name, process.env[name]]))
  for (const name of PROXY_VARIABLES) delete process.env[name]
  process.env.HTTP_PROXY = url
  process.env.HTTPS_PROXY = url
  return () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
  }
}

export function problemsOf(results: readonly CheckResult[]): string[] {
  return results
    .filter((r) => r.status === 'failed' || r.status === 'error' || (r.status === 'skipped' && r.level === 'MUST'))
    .map((r) => `${r.level} ${r.id} ${r.status}: ${r.message.replace(/\s+/g, ' ').slice(0, 300)}`)
}
