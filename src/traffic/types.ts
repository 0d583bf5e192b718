// The contract between the traffic sources (proxy, HAR and NDJSON readers) and the rules that judge traffic.
// A source turns what it saw into TrafficExchanges, already redacted; the verifier (verifier.ts) hands each one
// to every rule; a rule judges with the same functions the suite's checks use (src/judge/), never a copy.
import type { Level } from '../checks/types.ts'

/** One observed request and its response, in the order they were seen. Secrets are masked before one exists. */
export interface TrafficExchange {
  /** Position in the traffic (1-based), unique within one verification. */
  seq: number
  /** Where it came from, for evidence: `staging.har#entry 12`, `run.ndjson:40`, `proxy`. */
  source: string
  request: {
    method: string
    /** Absolute URL as sent (with the query string). */
    url: string
    /** Lower-case names. Authorization and other secrets already masked (`Bearer <redacted:CRM_API_KEY>` or `<redacted>`). */
    headers: Record<string, string>
    /** Parsed JSON when the body was JSON, else the text; undefined when no body was sent. */
    body?: unknown
    /**
     * Set when a body was sent but is not here to judge (cut at the size cap, left out of a HAR file, a coding not
     * decoded, nested too deep): rules that judge request bodies skip it.
     */
    truncated?: boolean
    /** Why the body is not judged, when `truncated`. */
    note?: string
  }
  /** Absent when no response was seen (the connection failed, the file recorded none). */
  response?: {
    status: number
    headers: Record<string, string>
    body?: unknown
    /** Set when the body is not here to judge (cut at the size cap, left out of the file, not decoded): rules that judge bodies skip it. */
    truncated?: boolean
    /** Why the body is not judged, when `truncated`. */
    note?: string
  }
  /** ISO 8601, when the request started and when the response ended. */
  startedAt: string
  endedAt: string
  /** Which key sent it, when the source could tell (the proxy matches CRM_API_KEY* values): `main`, `restricted`, … */
  keyRole?: string
}

/** Who broke the contract: the server's answer, or the client's request. */
export type Side = 'server' | 'client'

export interface Violation {
  message: string
  /** What a conformant side does, and why (the clause's words). */
  expected?: string
  /** The exchanges that show it, the judged one last. Default: the judged exchange alone. */
  exchanges?: TrafficExchange[]
  /** Default: the rule's side. */
  side?: Side
}

/** What a rule is handed with each exchange. */
export interface RuleContext {
  /** The operation the path and method name, resolved once per exchange: a rule is handed only exchanges below the base path. */
  readonly operation: ResolvedOperation
  /** The rule judged something on this exchange (a rule that never calls it is reported `skipped`: not exercised). */
  exercised(): void
  violation(v: Violation): void
}

export interface ResolvedOperation {
  /** The path below the base path, e.g. `/accounts/3f…/notes`. */
  path: string
  /** `me`, a resource name of src/spec/resources.ts, or undefined for an unknown path. */
  resource?: string
  op?: 'list' | 'get' | 'create' | 'update' | 'replace' | 'delete' | 'me' | 'action'
  id?: string
  /** Parsed query string (last value wins). */
  query: Record<string, string>
}

/** A rule as data, like a check: stable id, clauses, level, one-line title, and the side it judges. */
export interface TrafficRule {
  /** `traffic.<subject>.<property>`, frozen like check ids (by src/traffic/rules/rule-ids.txt). */
  id: string
  clauses: string[]
  level: Level
  title: string
  side: Side
  /**
   * What the rule's memory across exchanges is keyed by, so traffic judged in partitions (partition.ts: --jobs,
   * --shard) hands each partition every exchange that memory needs, in order: `none` (it judges each exchange
   * alone), `key` (the API key that sent it: keyOf), `collection` (the §2 resource), or a function naming the
   * partition key of an exchange (undefined: the rule keeps nothing of it, and reads nothing it kept, to judge it).
   * Absent: the rule is judged whole, in one partition that sees every exchange.
   */
  memory?: RuleMemory
  /**
   * The rule judges a light copy of each exchange (rules/kit.ts lightExchange: no request body, a response body only
   * for /me and as the ids of the records an answer carries), so its partition, which may see all of one key's
   * traffic, is handed that copy rather than reading every exchange whole again. Evidence shows the whole exchange.
   */
  light?: true
  /** Fresh state for one verification: cross-exchange rules keep bounded state (memory must not grow with the traffic). */
  start(): RuleState
}

export type RuleMemory = 'none' | 'key' | 'collection' | ((exchange: TrafficExchange, operation: ResolvedOperation) => string | undefined)

export interface RuleState {
  observe(exchange: TrafficExchange, ctx: RuleContext): void
  /** Called once after the last exchange (a rule that judges a sequence may conclude here). */
  finish?(ctx: Omit<RuleContext, 'operation'>): void
}
