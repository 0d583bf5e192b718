// report.json: pretty, with a stable key order so two runs diff line by line.
import { writeFile } from 'node:fs/promises'
import type { CheckResult, EvidenceItem } from '../checks/types.ts'
import type { Exchange } from '../http/exchange.ts'
import type { RunReport } from './types.ts'

// Known shapes keep a reading order (verdict near the top, the long parts last); keys not listed here
// (fields added later) follow in alphabetical order. Maps (config, headers, capabilities…) are sorted.
const REPORT_ORDER = [
  'tool',
  'spec',
  'target',
  'profile',
  'seed',
  'runId',
  'startedAt',
  'finishedAt',
  'durationMs',
  'verdict',
  'verdictLabel',
  'scope',
  'verdictReasons',
  'summary',
  'requests',
  'capabilities',
  'leftovers',
  'replay',
  'config',
  'checks',
]
const COUNTS_ORDER = ['total', 'passed', 'failed', 'waived', 'skipped', 'errored', 'byLevel']
const LEVEL_ORDER = ['MUST', 'SHOULD', 'INFO']
const REQUESTS_ORDER = ['total', 'byArea', 'byKey', 'rateLimited']
const CHECK_ORDER = [
  'id',
  'clause',
  'clauses',
  'level',
  'area',
  'title',
  'status',
  'waived',
  'message',
  'expected',
  'replay',
  'declaredAt',
  'notes',
  'observations',
  'data',
  'requests',
  'durationMs',
  'evidence',
]
const EVIDENCE_ORDER = ['curl', 'exchange']
const EXCHANGE_ORDER = ['seq', 'checkId', 'keyRole', 'startedAt', 'durationMs', 'request', 'response', 'error']
const REQUEST_ORDER = ['method', 'url', 'headers', 'body']
const RESPONSE_ORDER = ['status', 'headers', 'body', 'rawText', 'truncated']

type Obj = Record<string, unknown>

function isObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function ordered(value: unknown, order: readonly string[], map: (key: string, v: unknown) => unknown = (_, v) => v): unknown {
  if (!isObject(value)) return value
  const rest = Object.keys(value)
    .filter((k) => !order.includes(k))
    .sort()
  const out: Obj = {}
  for (const key of [...order.filter((k) => k in value), ...rest]) out[key] = map(key, value[key])
  return out
}

/** Recursively sorted keys: for maps whose insertion order depends on run order (config, byArea…). */
function sortedDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedDeep)
  if (!isObject(value)) return value
  return ordered(value, [], (_, v) => sortedDeep(v))
}

/** Top-level keys sorted; values kept as the server or check produced them. */
function sortedShallow(value: unknown): unknown {
  return ordered(value, [])
}

function normalizeExchange(exchange: Exchange): unknown {
  return ordered(exchange, EXCHANGE_ORDER, (key, v) => {
    if (key === 'request') return ordered(v, REQUEST_ORDER, (k, x) => (k === 'headers' ? sortedShallow(x) : x))
    if (key === 'response') return ordered(v, RESPONSE_ORDER, (k, x) => (k === 'headers' ? sortedShallow(x) : x))
    return v
  })
}

function normalizeCheck(check: CheckResult): unknown {
  return ordered(check, CHECK_ORDER, (key, v) => {
    if (key === 'observations') return sortedShallow(v)
    if (key === 'evidence' && Array.isArray(v)) {
      return v.map((item: EvidenceItem) => ordered(item, EVIDENCE_ORDER, (k, x) => (k === 'exchange' ? normalizeExchange(x as Exchange) : x)))
    }
    return v
  })
}

/** The report with every object's keys in the stable order above. */
export function normalizeReport(report: RunReport): unknown {
  return ordered(report, REPORT_ORDER, (key, v) => {
    switch (key) {
      case 'summary':
        return ordered(v, COUNTS_ORDER, (k, x) => (k === 'byLevel' ? ordered(x, LEVEL_ORDER, (_, c) => ordered(c, COUNTS_ORDER)) : x))
      case 'requests':
        return ordered(v, REQUESTS_ORDER, (_, x) => sortedDeep(x))
      case 'config':
      case 'tool':
      case 'spec':
      case 'target':
        return sortedDeep(v)
      case 'capabilities':
        return sortedShallow(v)
      case 'leftovers':
        return Array.isArray(v) ? v.map((l) => ordered(l, ['resource', 'id', 'reason'])) : v
      case 'checks':
        return Array.isArray(v) ? v.map(normalizeCheck) : v
      default:
        return v
    }
  })
}

/** Values JSON has no form for (a bigint, a Map in a check's `data`) are written readably instead of throwing. */
function replacer(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString()
  if (value instanceof Map) return Object.fromEntries(value)
  if (value instanceof Set) return [...value]
  if (value instanceof Error) return { name: value.name, message: value.message }
  return value
}

/** report.json's text: two-space indent, stable key order, a final newline. */
export function toReportJson(report: RunReport): string {
  return `${JSON.stringify(normalizeReport(report), replacer, 2)}\n`
}

export async function writeReportJson(report: RunReport, path: string): Promise<string> {
  await writeFile(path, toReportJson(report), 'utf8')
  return path
}
