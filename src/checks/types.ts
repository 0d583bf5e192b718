// The vocabulary shared by check declarations, the runners and the reporters.
import type { Exchange } from '../http/exchange.ts'
import type { ApiClient } from '../http/api-client.ts'
import type { ResolvedConfig, KeyRole } from '../config/config.ts'
import type { RunSession } from '../engine/session.ts'

/** MUST where the spec's words demand it, SHOULD where convention does, INFO for what the spec leaves open. */
export type Level = 'MUST' | 'SHOULD' | 'INFO'

/** `error` is a harness fault (network, a bug of ours), kept apart from a server fault (`failed`). */
export type Status = 'passed' | 'failed' | 'skipped' | 'error'

/** `read-only` sends no write; `safe` writes only what it can delete or tag, with no outward effect; `full` does everything. */
export type Profile = 'full' | 'safe' | 'read-only'

/** What a check writes: gates it by profile. */
export type WriteNeed = 'none' | 'safe' | 'full'

export interface CheckDefinition {
  /** Stable and frozen by a test: `<area>.<subject>.<property>`, e.g. `records.account.schema`. */
  id: string
  /** Spec clauses the check enforces, most specific first: `['§4.1', '§8']`. */
  clauses: string[]
  level: Level
  /** The suite area (one folder of suites/). */
  area: string
  /** One line, read by people: says what a conformant server does. */
  title: string
  /** Default 'none'. */
  writes?: WriteNeed
  /** Optional keys the check needs; a missing one makes it skipped, naming the variable. */
  keys?: KeyRole[]
  /** Needs the webhook sink (CRM_WEBHOOK_SECRET). */
  webhooks?: boolean
  /**
   * Starts only once these checks have ended, when they are part of the run: for a fixture one check uses up
   * (the webhook area pays the sent invoice in full) and another needs as it was (a part payment).
   */
  after?: string[]
  /** `last`: runs after every other check (the run-wide invariants read the whole run's exchanges). */
  phase?: 'last'
  /** Upper bound on the check's own time, deliberate waits included. Default 30 s. */
  timeoutMs?: number
  run(ctx: CheckContext): Promise<void>
}

export interface CheckContext {
  /** The main key's client; every exchange it makes is this check's evidence. */
  api: ApiClient
  /** A client for an optional key; skips the check (naming the variable) when the key is not configured. */
  as(role: KeyRole): ApiClient
  config: ResolvedConfig
  session: RunSession
  profile: Profile
  seed: number
  runId: string
  /** Records what the server chose where the spec leaves the choice open (shown as information in the report). */
  observe(name: string, value: unknown): void
  /** Ends the check as skipped: an unmet precondition, never a pass. */
  skip(reason: string): never
  /** Ends the check as failed: the server broke the clause. */
  fail(message: string, detail?: FailureDetail): never
  /** Notes for the report row (e.g. a shrunk counter-example, a replay command). */
  note(text: string): void
  /**
   * Awaits work other checks do (a shared fixture they create, their creates in flight): the check's own clock
   * stands still meanwhile, so its deadline measures the check, not the others' queue or the server's speed.
   * `ctx.session.memo` does this by itself for a fixture another check started.
   */
  others<T>(work: Promise<T>): Promise<T>
}

export interface FailureDetail {
  /** What a conformant server does, and why (the clause's words). */
  expected?: string
  /** The exchanges that show the fault; default: the check's last exchanges. */
  exchanges?: Exchange[]
  /** Anything else that explains the failure (a diff, a counter-example). */
  data?: unknown
}

export interface EvidenceItem {
  exchange: Exchange
  curl: string
}

export interface CheckResult {
  id: string
  clause: string
  clauses: string[]
  level: Level
  area: string
  title: string
  status: Status
  message: string
  expected?: string
  evidence: EvidenceItem[]
  observations: Record<string, unknown>
  notes: string[]
  data?: unknown
  requests: number
  durationMs: number
  /** The exact command that replays this check alone. */
  replay: string
  /** Set by the waiver logic: a failed check with a valid waiver. */
  waived?: { reason: string; expires?: string }
}
