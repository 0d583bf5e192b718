// What a run leaves in a workspace it cannot delete from (§4.2: no delete for products, invoices, payments, orders,
// comments, activities, messages): made inert where the API allows, and counted, this run's and what earlier runs
// left that is still there, so a nightly job sees its footprint grow. Every such record carries the run's label
// (`crmconf <what> <run id>`, or the SKU `CRMCONF-<run id>-…`) in a free-text field, which is how earlier runs'
// records are found again.
import type { Leftover } from '../engine/ledger.ts'
import type { RunSession } from '../engine/session.ts'
import { ApiClient } from '../http/api-client.ts'
import { RESOURCES, type ResourceName } from '../spec/resources.ts'

/** Newest records read per collection when counting earlier runs' leftovers (one page: §4.1 limit 100). */
export const FOOTPRINT_PAGE = 100

/** The collections whose records no run can delete (§4.2). */
export const UNDELETABLE: ResourceName[] = (Object.keys(RESOURCES) as ResourceName[]).filter((r) => RESOURCES[r].ops.create && !RESOURCES[r].ops.delete)

/** The label every run's records carry (src/checks/operations.ts runLabel, suites/shared/bodies.ts runSku). */
const RUN_LABEL = /crmconf[ -]/i

/** The fields of a product its replace sends (§4.4 POST /products and replace /products/{id}: every field). */
const PRODUCT_FIELDS = ['sku', 'name', 'description', 'unit', 'priceSen', 'costSen', 'currency', 'taxCategoryId', 'parentId', 'options', 'status']

export interface Footprint {
  /** Records this run created and could not delete, by resource. */
  thisRun: Record<string, number>
  /** Records earlier runs left that are still there (their label on the newest page of each collection), by resource. */
  earlierRuns: Record<string, number>
  /** Products this run left archived (§2 product status `archived`), so no one sells them. */
  archived: number
  /** How earlier runs' records were counted, in words. */
  method: string
}

/**
 * Products the run could not delete are replaced with status `archived` (§4.2 replace: PUT, else PATCH; the
 * method is not shown). Only records of this run; a failure leaves the product as it was.
 */
export async function archiveProducts(session: RunSession): Promise<Set<string>> {
  const api = new ApiClient(session.transport, 'main', () => undefined, 'cleanup')
  const archived = new Set<string>()
  const products = session.ledger.pending().filter((e) => e.resource === 'product' && !e.deletePath)
  if (products.length === 0) return archived
  // One page of the newest products gives the current record of each this run made (they are among the newest):
  // one request instead of a read per product. One not on it, or whose listed form a replace refuses, is read.
  const listed = new Map<string, Record<string, unknown>>()
  try {
    const page = await api.get(RESOURCES.product.path, { limit: FOOTPRINT_PAGE, sort: 'createdAt', order: 'desc' }, { budgeted: false })
    if (page.status === 200 && Array.isArray(page.body?.data))
      for (const r of page.body.data as Record<string, unknown>[]) if (typeof r?.id === 'string') listed.set(r.id, r)
  } catch {
    // Each product is then read on its own.
  }
  const read = async (path: string) => {
    const current = await api.get(path, undefined, { budgeted: false })
    return current.status === 200 && current.body && typeof current.body === 'object' ? (current.body as Record<string, unknown>) : undefined
  }
  const archive = async (path: string, current: Record<string, unknown>) => {
    const body = { ...Object.fromEntries(PRODUCT_FIELDS.filter((f) => f in current).map((f) => [f, current[f]])), status: 'archived' }
    const answer = await api.send({ method: 'PUT', path, body, budgeted: false })
    return answer.status === 404 || answer.status === 405 ? api.send({ method: 'PATCH', path, body, budgeted: false }) : answer
  }
  // Side by side (the key's cap on requests in flight applies): one by one took 25 s on a server answering in 700 ms.
  await Promise.all(
    products.map(async (entry) => {
      const path = `${RESOURCES.product.path}/${encodeURIComponent(entry.id)}`
      try {
        const fromList = listed.get(entry.id)
        let current = fromList ?? (await read(path))
        if (!current) return
        if (current.status === 'archived') {
          archived.add(entry.id)
          return
        }
        let answer = await archive(path, current)
        if (!answer.ok && fromList && (current = await read(path))) answer = await archive(path, current)
        if (answer.ok) archived.add(entry.id)
      } catch {
        // The target stopped answering: the product stays active and is still counted.
      }
    }),
  )
  return archived
}

/** This run's leftovers by resource, and the labelled records of earlier runs on the newest page of each collection. */
export async function countFootprint(session: RunSession, leftovers: Leftover[], archived: number): Promise<Footprint> {
  const api = new ApiClient(session.transport, 'main', () => undefined, 'cleanup')
  const thisRun: Record<string, number> = {}
  for (const l of leftovers) thisRun[l.resource] = (thisRun[l.resource] ?? 0) + 1
  const mine = new Set(leftovers.map((l) => l.id))
  const earlierRuns: Record<string, number> = {}
  // An order has no text of its own (§4.4: only its quotation): a run's order is the one naming a pool's quotation.
  const poolQuotations = new Set(session.config.fixturePools?.acceptedQuotationId ?? [])
  const ours = (resource: ResourceName, r: Record<string, unknown>) =>
    resource === 'order' ? poolQuotations.has(String(r.quoteId)) : !JSON.stringify(r).includes(session.runId) && RUN_LABEL.test(JSON.stringify(r))
  for (const resource of UNDELETABLE) {
    try {
      const page = await api.get(RESOURCES[resource].path, { limit: FOOTPRINT_PAGE }, { budgeted: false })
      const records = page.status === 200 && Array.isArray(page.body?.data) ? (page.body.data as Record<string, unknown>[]) : []
      const theirs = records.filter((r) => typeof r?.id === 'string' && !mine.has(r.id) && ours(resource, r))
      if (theirs.length > 0) earlierRuns[resource] = theirs.length
    } catch {
      // Counting is information: a collection that cannot be read is left out.
    }
  }
  return {
    thisRun,
    earlierRuns,
    archived,
    method: `records labelled crmconf (or SKU CRMCONF-; orders: naming a quotation of CRM_FIXTURE_ACCEPTED_QUOTATION_ID) among the newest ${FOOTPRINT_PAGE} of each of ${UNDELETABLE.map((r) => RESOURCES[r].path).join(', ')}`,
  }
}

/** One line for the console and summary: `left 42 records (15 product, …); earlier runs' still there: 120 (…)`. */
export function describeFootprint(f: Footprint): string {
  const sum = (m: Record<string, number>) => Object.values(m).reduce((a, b) => a + b, 0)
  const list = (m: Record<string, number>) =>
    Object.entries(m)
      .sort((a, b) => b[1] - a[1])
      .map(([r, n]) => `${n} ${r}`)
      .join(', ')
  const now = sum(f.thisRun)
  const before = sum(f.earlierRuns)
  return `footprint: this run left ${now} record${now === 1 ? '' : 's'} the API cannot delete${now ? ` (${list(f.thisRun)})` : ''}${f.archived ? `, ${f.archived} products archived` : ''}; earlier runs' still there: ${before ? `at least ${before} (${list(f.earlierRuns)})` : 'none found'}`
}

/** Up to this many records left behind are named one by one on the console; more are summed up in one line. */
export const LEFTOVER_LINES = 3

/**
 * The console's lines for the records a run against a server left behind: each named when they are few; else one
 * line (how many, of which resources, how many clean-up could not remove) pointing at the report files that list
 * every one, so the verdict above is not buried under them.
 */
export function describeLeftovers(leftovers: readonly { resource: string; id: string; reason: string }[], where: string): string[] {
  if (leftovers.length <= LEFTOVER_LINES) return leftovers.map((l) => `left behind: ${l.resource} ${l.id} (${l.reason})`)
  const byResource = new Map<string, number>()
  for (const l of leftovers) byResource.set(l.resource, (byResource.get(l.resource) ?? 0) + 1)
  const resources = [...byResource]
    .sort((a, b) => b[1] - a[1])
    .map(([r, n]) => `${n} ${r}`)
    .join(', ')
  const notRemoved = leftovers.filter((l) => l.reason.startsWith('not removed')).length
  return [
    `left behind: ${leftovers.length} records (${resources})${notRemoved ? `, ${notRemoved} of them not removed by the clean-up` : ''}; each with its id and why in ${where}`,
  ]
}
