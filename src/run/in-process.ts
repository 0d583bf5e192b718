// Runs checks in this process against the embedded reference server (or a given base URL), with no report
// files: the self-validation matrix, the benchmark and the project's own tests. A thin call of the one run
// path (src/run/execute.ts), so it judges exactly as `crm-conformance run` does.
import type { CheckDefinition, CheckResult, Profile } from '../checks/types.ts'
import { DEFAULTS, loadConfig, type ResolvedConfig } from '../config/config.ts'
import { executeRun } from './execute.ts'
import type { Leftover } from '../engine/ledger.ts'
import { select } from '../engine/selection.ts'
import type { EmbeddedOptions } from './target.ts'
import type { RunSession } from '../engine/session.ts'

export interface InProcessOptions {
  checks: CheckDefinition[]
  only?: string[]
  skip?: string[]
  /** Default: the embedded reference server with every optional key. */
  config?: Partial<ResolvedConfig>
  embedded?: EmbeddedOptions
  profile?: Profile
  seed?: number
  runId?: string
  /** Checks in flight at once. */
  concurrency?: number
  /** Aborting it interrupts the run, as a signal does the CLI's. */
  signal?: AbortSignal
}

export interface InProcessRun {
  results: CheckResult[]
  session: RunSession
  leftovers: Leftover[]
}

export async function runInProcess(options: InProcessOptions): Promise<InProcessRun> {
  const base = loadConfig({}, { profile: options.profile ?? 'full', seed: options.seed ?? 1, envFile: false })
  const config: ResolvedConfig = { ...base, ...options.config, profile: options.profile ?? options.config?.profile ?? 'full' }
  const { results, session, leftovers } = await executeRun({
    config,
    checks: select(options.checks, options.only, options.skip),
    runId: options.runId ?? `inproc-${Date.now().toString(36)}`,
    embedded: config.baseUrl === undefined ? { rateLimitPerMinute: DEFAULTS.embeddedRateLimitPerMinute, ...options.embedded } : undefined,
    concurrency: options.concurrency,
    signal: options.signal,
  })
  return { results, session, leftovers }
}
