// Removes what earlier, crashed runs of this suite left behind: records tagged `crmconf-run-<run id>`
// (or, for resources without tags, named by runLabel) whose run is older than a threshold. It touches
// nothing else: the run id's timestamp and the suite's own marker must both be there.
import { ApiClient } from '../http/api-client.ts'
import type { Transport } from '../http/transport.ts'
import { RESOURCE_LIST, type ResourceName } from '../spec/resources.ts'
import { CheckFailed } from '../checks/define.ts'
import { RUN_LABEL_FIELDS, walkAllPages } from '../checks/operations.ts'
import { RUN_TAG_PREFIX } from '../vocabulary.ts'

/** `20261122-053212-a1b2c3`: the run id made by newRunId. */
const RUN_ID = /(\d{8})-(\d{6})-[0-9a-f]{6}/

export interface SweepOptions {
  olderThanMs: number
  dryRun?: boolean
  /** Bound on pages walked per collection. */
  maxPages?: number
  now?: number
  /** The current run's id: never swept. */
  exceptRunId?: string
  /** Sweep this run's records only, whatever their age (an interrupted run's own clean-up). */
  onlyRunId?: string
}

export interface SweepResult {
  removed: { resource: string; id: string; runId: string }[]
  failed: { resource: string; id: string; status?: number; reason: string }[]
  scanned: number
}

export function runIdTime(runId: string): number | undefined {
  const m = RUN_ID.exec(runId)
  if (!m) return undefined
  const [d, t] = [m[1]!, m[2]!]
  return Date.parse(`${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}T${t.slice(0, 2)}:${t.slice(2, 4)}:${t.slice(4, 6)}Z`)
}

/** The run id that marks a record as this suite's, or undefined. */
export function runIdOf(resource: ResourceName, record: Record<string, unknown>): string | undefined {
  const tags = Array.isArray(record.tags) ? (record.tags as unknown[]) : []
  for (const tag of tags) {
    if (typeof tag === 'string' && tag.startsWith(RUN_TAG_PREFIX)) {
      const id = RUN_ID.exec(tag.slice(RUN_TAG_PREFIX.length))?.[0]
      if (id) return id
    }
  }
  const field = RUN_LABEL_FIELDS[resource]
  const label = field ? record[field] : undefined
  if (typeof label === 'string' && label.startsWith('crmconf ')) return RUN_ID.exec(label)?.[0]
  return undefined
}

export async function sweep(transport: Transport, options: SweepOptions): Promise<SweepResult> {
  const now = options.now ?? Date.now()
  const client = new ApiClient(transport, 'main', () => {}, 'sweep')
  const result: SweepResult = { removed: [], failed: [], scanned: 0 }
  for (const spec of RESOURCE_LIST) {
    if (!spec.ops.delete || !(spec.hasTags || RUN_LABEL_FIELDS[spec.name])) continue
    let records: Record<string, unknown>[]
    try {
      records = (await walkAllPages(client, spec.path, { limit: 100 }, options.maxPages ?? 100)).records
    } catch (error) {
      const message = error instanceof CheckFailed ? error.message : (error as Error).message
      result.failed.push({ resource: spec.name, id: '*', reason: `listing failed: ${message}` })
      continue
    }
    result.scanned += records.length
    for (const record of records) {
      const runId = runIdOf(spec.name, record)
      const time = runId ? runIdTime(runId) : undefined
      if (!runId || time === undefined || runId === options.exceptRunId || now - time < options.olderThanMs) continue
      if (options.onlyRunId !== undefined && runId !== options.onlyRunId) continue
      const id = String(record.id)
      if (options.dryRun) {
        result.removed.push({ resource: spec.name, id, runId })
        continue
      }
      const response = await client.delete(`${spec.path}/${encodeURIComponent(id)}`)
      if (response.ok || response.status === 404) result.removed.push({ resource: spec.name, id, runId })
      else result.failed.push({ resource: spec.name, id, status: response.status, reason: `delete answered ${response.status}` })
    }
  }
  return result
}

/** `6h`, `30m`, `2d`, `90s` → milliseconds. */
export function parseDuration(text: string): number {
  const m = /^(\d+)\s*(s|m|h|d)$/.exec(text.trim())
  if (!m) throw new Error(`not a duration: ${text} (use e.g. 30m, 6h, 2d)`)
  return Number(m[1]) * { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as 's' | 'm' | 'h' | 'd']
}
