// The vocabulary shared by check declarations, the runners and the reporters.
import type { Exchange } from '../http/exchange.ts'
import type { ApiClient } from '../http/api-client.ts'
import type { Redactor } from '../http/redact.ts'
import type { ApiRequest, Transport } from '../http/transport.ts'
import type { ResolvedConfig } from '../config/config.ts'
import type { Sink } from '../webhooks/sink.ts'
import type { KeyRole, Level, Profile, Status, WriteNeed } from '../vocabulary.ts'
import type { ResourceName } from '../spec/resources.ts'

export type { Level, Profile, Status, WriteNeed } from '../vocabulary.ts'

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
  /**
   * Where the check is declared, relative to the package root (`suites/records/round-trip.ts:56`): set by
   * `defineCheck` from its call site; for a generated family, the generator's `defineCheck` call.
   */
  declaredAt?: string
  run(ctx: CheckContext): Promise<void>
}

/** A record the run made, to be removed at its end. */
export interface LedgerEntry {
  resource: string
  id: string
  /** Path to DELETE it; absent when the API has no delete for it. */
  deletePath?: string
  /** Why it cannot be deleted, when deletePath is absent. */
  reason?: string
  checkId?: string
  /** The key that created it (default main): a foreign workspace's record is removed with the foreign key. */
  keyRole?: string
}

/** The run's record ledger as a check uses it; the engine's `Ledger` (src/engine/ledger.ts) journals it to disk. */
export interface LedgerView {
  track(entry: LedgerEntry): void
  /** The record is gone (deleted by a check or by cleanup). */
  forget(id: string): void
  /** Notes a create on its way (its record may be listed before it is tracked); returns it. */
  creating<T>(create: Promise<T>): Promise<T>
  /** Resolves once every create on its way now has ended. */
  settled(): Promise<void>
  /** Whether this run created the record, whether or not it is gone since. */
  created(id: string): boolean
}

/**
 * The run as a check sees it: its shared fixtures, the records it made, what the server chose, the run's
 * exchanges and the webhook sink. Nothing that starts, schedules, stops or ends the run.
 */
export interface CheckSession {
  readonly runId: string
  /** The tag every record of this run carries where the resource has tags. */
  readonly runTag: string
  readonly profile: Profile
  readonly seed: number
  /** The target's base address (the embedded server's when it runs). */
  readonly baseUrl: string
  /** The embedded reference server's variant and faults, when the run tests it (a replay names them). */
  readonly embedded?: { readonly variant?: string; readonly faults?: string[] }
  /** Run-wide observations of what the server chose; merged into the report's capabilities. */
  readonly capabilities: Record<string, unknown>
  /** Every exchange of the run so far, in order (redacted). */
  readonly exchanges: readonly Exchange[]
  /** The records the run made, removed at its end; one object per run, whichever view of the session a check holds. */
  readonly ledger: LedgerView
  /** A value derived from a secret is masked like the secret (`add`). */
  readonly redactor: Pick<Redactor, 'add'>
  /** Whether an optional key is configured, and the run's request counts. */
  readonly transport: Pick<Transport, 'hasKey' | 'stats' | 'inFlightFor'>
  /** A shared fixture, created once per run however many checks ask for it at once. */
  memo<T>(key: string, factory: () => Promise<T>): Promise<T>
  /** The webhook sink, started on first use. */
  sink(): Promise<Sink>
  /**
   * A fresh model of the contract: the reference server in this process, seeded, default choices, no faults
   * (src/run/oracle.ts). The run path provides it; the explorer (suites/explore/) compares a target with it.
   */
  readonly oracle?: () => Promise<Oracle>
}

/** One answer of the oracle, as the explorer compares it with the target's. */
export interface OracleAnswer {
  status: number
  /** Header names in lower case. */
  headers: Record<string, string>
  /** The JSON body, or undefined when there is none. */
  body: any
}

/** The reference server answering in this process, as the main key (or another role of its own keys). */
export interface Oracle {
  send(req: ApiRequest, role?: KeyRole): Promise<OracleAnswer>
  /**
   * Puts a record the API cannot make (a fixture: a sent invoice, an accepted quotation) into the model, as the
   * target shows it, under the target's id: the model then answers about it as it would about its own.
   */
  mirror(resource: ResourceName, record: Record<string, unknown>): Promise<void>
  close(): Promise<void>
}

export interface CheckContext {
  /** The main key's client; every exchange it makes is this check's evidence. */
  api: ApiClient
  /** A client for an optional key; skips the check (naming the variable) when the key is not configured. */
  as(role: KeyRole): ApiClient
  config: ResolvedConfig
  session: CheckSession
  profile: Profile
  seed: number
  runId: string
  /** Records what the server chose where the spec leaves the choice open (shown as information in the report). */
  observe(name: string, value: unknown): void
  /** Notes a run-wide choice of the server (`delete.status`: `204`): each value once, in the report's capabilities. */
  noteCapability(name: string, value: string): void
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
  /** Where the check is declared (`suites/records/round-trip.ts:56`, relative to the package root). */
  declaredAt?: string
  /** Set by the waiver logic: a failed check with a valid waiver. */
  waived?: { reason: string; expires?: string }
}
