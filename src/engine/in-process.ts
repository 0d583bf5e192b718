// Runs checks in this process, without vitest: the self-validation matrix, the benchmark and the project's
// own tests use it. Same session, same runner, same verdicts as the CLI.
import type { CheckDefinition, CheckResult, Profile } from '../checks/types.ts'
import { loadConfig, type ResolvedConfig } from '../config/config.ts'
import { cleanUpWith } from './cleanup.ts'
import type { Leftover } from './ledger.ts'
import { checksInFlight, runChecks } from './runner.ts'
import { select } from './selection.ts'
import { RunSession, type EmbeddedOptions } from './session.ts'

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
}

export interface InProcessRun {
  results: CheckResult[]
  session: RunSession
  leftovers: Leftover[]
}

export async function runInProcess(options: InProcessOptions): Promise<InProcessRun> {
  const base = loadConfig({}, { profile: options.profile ?? 'full', seed: options.seed ?? 1, envFile: false })
  const config: ResolvedConfig = { ...base, ...options.config, profile: options.profile ?? options.config?.profile ?? 'full' }
  const session = await RunSession.open({
    config,
    runId: options.runId ?? `inproc-${Date.now().toString(36)}`,
    embedded: config.baseUrl === undefined ? { rateLimitPerMinute: 1_000_000, ...options.embedded } : undefined,
  })
  try {
    const results = await runChecks(select(options.checks, options.only, options.skip), session, options.concurrency ?? checksInFlight(config.concurrency))
    const leftovers = await cleanUpWith(session.ledger, session.transport)
    return { results, session, leftovers }
  } finally {
    await session.close()
  }
}
