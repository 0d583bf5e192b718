// Hands each exchange to every rule and gathers their verdicts into report rows (the CheckResult shape of a
// suite run, plus `side`). Memory: one row per rule, and at most MAX_EVIDENCE exchanges kept per rule.
import type { CheckResult, EvidenceItem } from '../checks/types.ts'
import type { Exchange } from '../http/exchange.ts'
import { curlFor } from '../http/curl.ts'
import { lightExchange, linkWhole, wholeOf } from './rules/kit.ts'
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
  /**
   * Judges the light copy (kit.ts lightExchange) of an exchange read whole in another partition, by the `light`
   * rules this partition owns; it is not counted here. `whole` gives the whole exchange (for evidence).
   */
  observeLight(light: TrafficExchange, whole: () => TrafficExchange): SeenViolation[]
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
  /**
   * Judging one partition of the traffic (partition.ts): which rules judge an exchange here, and whether it is
   * counted here (each exchange in exactly one partition). Absent: every rule judges every exchange, all counted.
   */
  partition?: {
    owns(rule: TrafficRule, exchange: TrafficExchange, operation: ResolvedOperation): boolean
    counts(exchange: TrafficExchange, operation: ResolvedOperation): boolean
  }
}

/**
 * Where a violation falls in the whole traffic: [0, seq] when seen judging exchange `seq`, [1, seq] when seen at the
 * end (seq: the latest exchange it shows). Partitions' tallies merge by it into what one verifier would have kept.
 */
export type ViolationAt = [phase: 0 | 1, seq: number]

/** A rule's tally, as a partition hands it over (structured-clonable, and what a shard's report.json keeps). */
export interface RuleTally {
  id: string
  judged: number
  violations: number
  first?: { message: string; expected?: string; side: Side; at: ViolationAt }
  /** The first MAX_EVIDENCE exchanges its violations showed, each with where its violation fell. */
  evidence: { at: ViolationAt; item: EvidenceItem }[]
}

interface Tally {
  rule: TrafficRule
  state: RuleState
  judged: number
  violations: number
  first?: { violation: Violation; side: Side; at: ViolationAt }
  evidence: { at: ViolationAt; exchange: TrafficExchange }[]
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

function evidenceItem(shown: TrafficExchange): EvidenceItem {
  const exchange = wholeOf(shown)
  return { exchange: asEvidenceExchange(exchange), curl: curlFor(exchange.request, exchange.keyRole ?? 'main') }
}

export function createVerifier(options: VerifierOptions): TrafficVerifier & { tallies(): RuleTally[] } {
  const tallies: Tally[] = options.rules.map((rule) => ({ rule, state: rule.start(), judged: 0, violations: 0, evidence: [] }))
  const partition = options.partition
  let exchanges = 0
  let answered = 0

  const record = (tally: Tally, violation: Violation, at: ViolationAt, current: TrafficExchange | undefined, seen: SeenViolation[]) => {
    const side = violation.side ?? tally.rule.side
    tally.violations++
    tally.first ??= { violation, side, at }
    const shown = violation.exchanges ?? (current ? [current] : [])
    for (const ex of shown)
      if (tally.evidence.length < MAX_EVIDENCE && !tally.evidence.some((e) => e.exchange === ex)) tally.evidence.push({ at, exchange: ex })
    seen.push({ rule: tally.rule, violation, side })
  }

  const contextFor = <O extends ResolvedOperation | undefined>(tally: Tally, operation: O, onViolation: (violation: Violation) => void) => {
    let exercised = false
    return {
      operation,
      exercised() {
        if (!exercised) tally.judged++
        exercised = true
      },
      violation: onViolation,
    }
  }

  /** Hands the exchange, as `shownTo` gives it to each rule (undefined: not that rule's), to the rules this partition owns. */
  function judge(exchange: TrafficExchange, operation: ResolvedOperation, shownTo: (rule: TrafficRule) => TrafficExchange | undefined): SeenViolation[] {
    const seen: SeenViolation[] = []
    const at: ViolationAt = [0, exchange.seq]
    const times = options.ruleTimes
    for (const tally of tallies) {
      if (partition && !partition.owns(tally.rule, exchange, operation)) continue
      const shown = shownTo(tally.rule)
      if (shown === undefined) continue
      const ctx = contextFor(tally, operation, (v) => record(tally, v, at, shown, seen))
      // Untimed, no clock is read.
      if (times === undefined) tally.state.observe(shown, ctx)
      else {
        const started = performance.now()
        tally.state.observe(shown, ctx)
        times.set(tally.rule.id, (times.get(tally.rule.id) ?? 0) + performance.now() - started)
      }
    }
    return seen
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
      if (!partition || partition.counts(exchange, operation)) {
        exchanges++
        if (exchange.response !== undefined) answered++
      }
      // The light rules judge the light copy here too, so a verdict never depends on where an exchange was read whole.
      let light: TrafficExchange | undefined
      return judge(exchange, operation, (rule) => (rule.light ? (light ??= linkWhole(lightExchange(exchange, operation), () => exchange)) : exchange))
    },
    observeLight(light, whole) {
      const operation = options.resolve(light, options.basePath)
      if (operation === undefined) return []
      linkWhole(light, whole)
      return judge(light, operation, (rule) => (rule.light ? light : undefined))
    },
    finish() {
      finishAll()
      return tallies.map((t) => rowOf(t.rule, exportTally(t)))
    },
    tallies() {
      finishAll()
      return tallies.map(exportTally)
    },
  }

  function finishAll(): void {
    const seen: SeenViolation[] = []
    for (const tally of tallies) {
      if (tally.state === FINISHED) continue
      const started = options.ruleTimes ? performance.now() : 0
      // Violations seen at the end are tallied in the order of the latest exchange each shows, whatever order the
      // rule's memory iterates in: the order partitions merge them in (at).
      const late: Violation[] = []
      tally.state.finish?.(contextFor(tally, undefined, (v) => late.push(v)))
      const latest = (v: Violation) => Math.max(0, ...(v.exchanges ?? []).map((e) => e.seq))
      for (const v of late.map((v, i) => ({ v, i, seq: latest(v) })).sort((a, b) => a.seq - b.seq || a.i - b.i)) record(tally, v.v, [1, v.seq], undefined, seen)
      tally.state = FINISHED
      options.ruleTimes?.set(tally.rule.id, (options.ruleTimes.get(tally.rule.id) ?? 0) + performance.now() - started)
    }
  }
}

const FINISHED: RuleState = { observe() {} }

function exportTally(tally: Tally): RuleTally {
  const { first } = tally
  return {
    id: tally.rule.id,
    judged: tally.judged,
    violations: tally.violations,
    ...(first
      ? {
          first: {
            message: first.violation.message,
            ...(first.violation.expected !== undefined ? { expected: first.violation.expected } : {}),
            side: first.side,
            at: first.at,
          },
        }
      : {}),
    evidence: tally.evidence.map((e) => ({ at: e.at, item: evidenceItem(e.exchange) })),
  }
}

const before = (a: ViolationAt, b: ViolationAt) => a[0] - b[0] || a[1] - b[1]

/**
 * One tally from the tallies of the same rule judged in partitions (each exchange judged by it in exactly one):
 * counts added, the first violation the earliest, the evidence the first MAX_EVIDENCE in traffic order. The same as
 * one verifier's tally: a partition keeps its own first MAX_EVIDENCE, and the whole's first ones are among them.
 */
export function mergeTallies(parts: readonly RuleTally[]): RuleTally {
  const merged: RuleTally = { id: parts[0]!.id, judged: 0, violations: 0, evidence: [] }
  for (const part of parts) {
    merged.judged += part.judged
    merged.violations += part.violations
    if (part.first && (!merged.first || before(part.first.at, merged.first.at) < 0)) merged.first = part.first
  }
  // Stable: a partition's own evidence keeps its order where two fall at the same place.
  merged.evidence = parts
    .flatMap((p) => p.evidence)
    .sort((a, b) => before(a.at, b.at))
    .slice(0, MAX_EVIDENCE)
  return merged
}

export function rowOf(rule: Pick<TrafficRule, 'id' | 'clauses' | 'level' | 'title' | 'side'>, tally: RuleTally): TrafficRow {
  const status = tally.violations > 0 ? 'failed' : tally.judged > 0 ? 'passed' : 'skipped'
  const message =
    status === 'failed'
      ? `${tally.first?.message ?? 'violated'}${tally.violations > 1 ? ` (${tally.violations} violations in ${tally.judged} judged exchanges)` : ''}`
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
    ...(tally.first?.expected ? { expected: tally.first.expected } : {}),
    ...(status === 'failed' ? { side: tally.first?.side ?? rule.side } : {}),
    evidence: tally.evidence.map((e) => e.item),
    observations: {},
    notes: [],
    requests: tally.judged,
    durationMs: 0,
    replay: '',
    judged: tally.judged,
    violations: tally.violations,
  }
}
