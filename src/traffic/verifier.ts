// Hands each exchange to every rule and gathers their verdicts into report rows (the CheckResult shape of a
// suite run, plus `side`). Memory: one row per rule, and at most MAX_EVIDENCE exchanges kept per rule.
import type { CheckResult } from '../checks/types.ts'
import type { Exchange } from '../http/exchange.ts'
import { curlFor } from '../http/curl.ts'
import type { ResolvedOperation, RuleState, Side, TrafficExchange, TrafficRule, Violation } from './types.ts'

/** Evidence kept per rule: the first violations show the fault; the count says how often. */
const MAX_EVIDENCE = 5

export interface TrafficRow extends CheckResult {
  /** Set on a failed row: who broke the contract. */
  side?: Side
  /** Exchanges the rule judged, and how many of them broke it. */
  judged: number
  violations: number
}

export interface SeenViolation {
  rule: TrafficRule
  violation: Violation
  side: Side
}

export interface TrafficVerifier {
  /** Judges one exchange; returns the violations it showed (the proxy prints the MUST ones as they are seen). */
  observe(exchange: TrafficExchange): SeenViolation[]
  /** Ends the verification: one row per rule. */
  finish(): TrafficRow[]
  /** Exchanges of the API (under the base path) observed so far; pages, assets and other APIs are neither judged nor counted. */
  readonly exchanges: number
  /** Of those, the ones the server answered (a call that failed in the client, or that the proxy could not forward, is not). */
  readonly answered: number
}

export interface VerifierOptions {
  rules: readonly TrafficRule[]
  /** The target's base path (`/v1`, `/api/v1`): what precedes the spec's paths in the URLs. */
  basePath: string
  /** Resolves an exchange's operation; rules see the result as ctx.operation. */
  resolve(exchange: TrafficExchange, basePath: string): ResolvedOperation | undefined
  /** Given, each rule's time in observe and finish is added to it (ms by rule id): what each rule costs. Absent, nothing is timed. */
  ruleTimes?: Map<string, number>
}

interface Tally {
  rule: TrafficRule
  state: RuleState
  judged: number
  violations: number
  first?: { violation: Violation; side: Side }
  evidence: TrafficExchange[]
}

export function asEvidenceExchange(exchange: TrafficExchange): Exchange {
  const started = Date.parse(exchange.startedAt)
  const ended = Date.parse(exchange.endedAt)
  return {
    seq: exchange.seq,
    keyRole: exchange.keyRole ?? 'observed',
    request: { ...exchange.request },
    ...(exchange.response ? { response: { ...exchange.response } } : {}),
    startedAt: exchange.startedAt,
    durationMs: Number.isFinite(started) && Number.isFinite(ended) ? Math.max(0, ended - started) : 0,
    checkId: exchange.source,
  }
}

export function createVerifier(options: VerifierOptions): TrafficVerifier {
  const tallies: Tally[] = options.rules.map((rule) => ({ rule, state: rule.start(), judged: 0, violations: 0, evidence: [] }))
  let exchanges = 0
  let answered = 0

  const contextFor = <O extends ResolvedOperation | undefined>(tally: Tally, operation: O, current: TrafficExchange | undefined, seen: SeenViolation[]) => {
    let exercised = false
    return {
      operation,
      exercised() {
        if (!exercised) tally.judged++
        exercised = true
      },
      violation(violation: Violation) {
        const side = violation.side ?? tally.rule.side
        tally.violations++
        tally.first ??= { violation, side }
        const shown = violation.exchanges ?? (current ? [current] : [])
        for (const ex of shown) if (tally.evidence.length < MAX_EVIDENCE && !tally.evidence.includes(ex)) tally.evidence.push(ex)
        seen.push({ rule: tally.rule, violation, side })
      },
    }
  }

  return {
    get exchanges() {
      return exchanges
    },
    get answered() {
      return answered
    },
    observe(exchange) {
      const operation = options.resolve(exchange, options.basePath)
      if (operation === undefined) return []
      exchanges++
      if (exchange.response !== undefined) answered++
      const seen: SeenViolation[] = []
      const times = options.ruleTimes
      // Two loops, so the untimed one reads no clock.
      if (times === undefined) for (const tally of tallies) tally.state.observe(exchange, contextFor(tally, operation, exchange, seen))
      else
        for (const tally of tallies) {
          const started = performance.now()
          tally.state.observe(exchange, contextFor(tally, operation, exchange, seen))
          times.set(tally.rule.id, (times.get(tally.rule.id) ?? 0) + performance.now() - started)
        }
      return seen
    },
    finish() {
      const seen: SeenViolation[] = []
      for (const tally of tallies) {
        const started = options.ruleTimes ? performance.now() : 0
        tally.state.finish?.(contextFor(tally, undefined, undefined, seen))
        options.ruleTimes?.set(tally.rule.id, (options.ruleTimes.get(tally.rule.id) ?? 0) + performance.now() - started)
      }
      return tallies.map(rowOf)
    },
  }
}

function rowOf(tally: Tally): TrafficRow {
  const { rule } = tally
  const status = tally.violations > 0 ? 'failed' : tally.judged > 0 ? 'passed' : 'skipped'
  const message =
    status === 'failed'
      ? `${tally.first?.violation.message ?? 'violated'}${tally.violations > 1 ? ` (${tally.violations} violations in ${tally.judged} judged exchanges)` : ''}`
      : status === 'passed'
        ? `held on ${tally.judged} exchange${tally.judged === 1 ? '' : 's'}`
        : 'not exercised: nothing in the traffic let this rule judge'
  return {
    id: rule.id,
    clause: rule.clauses[0] ?? '',
    clauses: rule.clauses,
    level: rule.level,
    area: 'traffic',
    title: rule.title,
    status,
    message,
    ...(tally.first?.violation.expected ? { expected: tally.first.violation.expected } : {}),
    ...(status === 'failed' ? { side: tally.first?.side ?? rule.side } : {}),
    evidence: tally.evidence.map((exchange) => ({ exchange: asEvidenceExchange(exchange), curl: curlFor(exchange.request, exchange.keyRole ?? 'main') })),
    observations: {},
    notes: [],
    requests: tally.judged,
    durationMs: 0,
    replay: '',
    judged: tally.judged,
    violations: tally.violations,
  }
}
