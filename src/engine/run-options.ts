// What the CLI hands to the vitest worker that runs the suites (through vitest's `provide`).
import type { ResolvedConfig } from '../config/config.ts'
import type { TransportStats } from '../http/transport.ts'
import type { Leftover } from './ledger.ts'
import type { EmbeddedOptions } from './session.ts'

export interface SuiteRunOptions {
  config: ResolvedConfig
  runId: string
  only: string[]
  skip: string[]
  /** Where the worker journals created records and writes its request statistics. */
  journalDir: string
  embedded?: EmbeddedOptions
}

declare module 'vitest' {
  export interface ProvidedContext {
    crmconf: SuiteRunOptions
  }
}

/** Files the worker leaves in journalDir for the CLI. */
export const JOURNAL_FILES = {
  ledger: 'ledger.jsonl',
  stats: 'stats.json',
  exchanges: 'exchanges.jsonl',
} as const

/** What the worker reports back at the end of the suites (written to JOURNAL_FILES.stats). */
export interface WorkerStats extends TransportStats {
  byArea: Record<string, number>
  capabilities: Record<string, unknown>
  baseUrl: string
  leftovers: Leftover[]
}
