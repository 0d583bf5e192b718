// Resource operations as checks use them, with the spec's leniency in one place (§4.1 "not shown"):
// any 2xx on create (200 or 201, observed), update by PATCH and replace by PUT, each falling back to the other
// method where the answer may mean it is not routed (observed), any 2xx on delete with or without a body
// (observed), and list walks that accept every last-page convention.
import type { CheckContext } from './types.ts'
import type { KeyRole } from '../config/config.ts'
import { CheckFailed } from './define.ts'
import { expectListEnvelope, expectSchema } from './assert.ts'
import type { ApiClient, ApiResponse } from '../http/api-client.ts'
import type { Query } from '../http/transport.ts'
import { recordKey } from '../schemas/registry.ts'
import { RESOURCES, type ResourceName } from '../spec/resources.ts'
import { RUN_TAG_PREFIX } from '../vocabulary.ts'

export type { AnyRecord } from '../judge/written.ts'
import type { AnyRecord } from '../judge/written.ts'

export function itemPath(resource: ResourceName, id: string): string {
  return `${RESOURCES[resource].path}/${encodeURIComponent(id)}`
}

/** Adds the run tag to `tags` where the resource has tags (§ "every record it creates is tagged"). */
export function tagged(ctx: CheckContext, resource: ResourceName, body: AnyRecord): AnyRecord {
  if (!RESOURCES[resource].hasTags) return body
  const tags = Array.isArray(body.tags) ? body.tags : []
  return tags.includes(ctx.session.runTag) ? body : { ...body, tags: [...tags, ctx.session.runTag] }
}

export interface CreateOptions {
  client?: ApiClient
  idempotencyKey?: string
  /** Skip the run tag (e.g. a check that compares tags exactly adds its own). */
  untagged?: boolean
  /** Validate the returned record against its schema (default true). */
  validate?: boolean
}

/**
 * POSTs a create and answers the response as it came, judging nothing: a record it made (a 2xx with an id) is
 * tracked for clean-up, and the create is known to the ledger while on its way. For a create that may be refused.
 */
export function postCreate(ctx: CheckContext, resource: ResourceName, body: AnyRecord, options: Omit<CreateOptions, 'validate'> = {}): Promise<ApiResponse> {
  const client = options.client ?? ctx.api
  const sent = options.untagged ? body : tagged(ctx, resource, body)
  return ctx.session.ledger.creating(
    client.post(RESOURCES[resource].path, sent, { idempotencyKey: options.idempotencyKey }).then((r) => {
      if (r.ok && typeof r.body?.id === 'string') trackCreated(ctx, resource, r.body.id, client.role)
      return r
    }),
  )
}

/** POST a record that must be accepted; tracks it for clean-up. Fails the check when the server refuses. */
export async function createRecord(
  ctx: CheckContext,
  resource: ResourceName,
  body: AnyRecord,
  options: CreateOptions = {},
): Promise<{ record: AnyRecord; response: ApiResponse }> {
  const response = await postCreate(ctx, resource, body, options)
  if (!response.ok) {
    throw new CheckFailed(`create ${resource}: status is ${response.status}, expected a 2xx for a valid body (§4.1, §4.4)`, {
      exchanges: [response.exchange],
      expected: 'a valid §4.4 body is accepted',
      data: response.body,
    })
  }
  ctx.noteCapability('create.status', String(response.status))
  const record = response.body as AnyRecord
  if (typeof record?.id !== 'string') {
    throw new CheckFailed(`create ${resource}: the response has no record id (§4.2: create returns the record)`, { exchanges: [response.exchange] })
  }
  if (options.validate !== false) expectSchema(response, recordKey(resource), '§2')
  return { record, response }
}

/** Records a created id in the run's ledger, with how it can be removed and by which key. */
export function trackCreated(ctx: CheckContext, resource: ResourceName, id: string, keyRole: KeyRole = 'main'): void {
  const spec = RESOURCES[resource]
  ctx.session.ledger.track({
    resource,
    id,
    keyRole: keyRole === 'main' ? undefined : keyRole,
    ...(spec.ops.delete ? { deletePath: itemPath(resource, id) } : { reason: `the API has no delete for ${spec.path} (§4.2)` }),
  })
}

type Method = 'PATCH' | 'PUT'

/** Answers that may mean "this path has no such method": 405 and 501, and the 404 of routers such as Express. */
const NO_SUCH_METHOD = new Set([404, 405, 501])

function sender(client: ApiClient, path: string, body: AnyRecord): (method: Method) => Promise<ApiResponse> {
  return (method) => (method === 'PATCH' ? client.patch(path, body) : client.put(path, body))
}

/**
 * Sends with the method this resource is known to take, else with `first` and, where the answer may mean that
 * the method is not routed, with `second`. A 404 on both is a record not found, and stays the first answer;
 * after a 405 or 501 the second answer stands. The method that succeeded is remembered per resource for the
 * rest of the run and reported as a capability.
 */
async function withMethodFallback(
  ctx: CheckContext,
  op: 'update' | 'replace',
  resource: ResourceName,
  methods: readonly [Method, Method],
  send: (method: Method) => Promise<ApiResponse>,
): Promise<ApiResponse> {
  const key = `${op}.method.${resource}`
  const known = ctx.session.capabilities[key] as Method | undefined
  if (known !== undefined) return send(known)
  const remember = (method: Method, response: ApiResponse): ApiResponse => {
    if (response.ok) {
      ctx.session.capabilities[key] = method
      ctx.noteCapability(`${op}.method`, method)
    }
    return response
  }
  const [first, second] = methods
  const response = await send(first)
  if (!NO_SUCH_METHOD.has(response.status)) return remember(first, response)
  const retry = await send(second)
  if (response.status === 404 && NO_SUCH_METHOD.has(retry.status)) return response
  return remember(second, retry)
}

/** Update (§4.2 "update"; the method is not shown, §4.1): PATCH, else PUT. */
export function updateRecord(ctx: CheckContext, resource: ResourceName, id: string, body: AnyRecord, client: ApiClient = ctx.api): Promise<ApiResponse> {
  return withMethodFallback(ctx, 'update', resource, ['PATCH', 'PUT'], sender(client, itemPath(resource, id), body))
}

/**
 * Replace (§4.2 "replace … send every field"; the method is not shown, §4.1): PUT, else PATCH. A state refusal
 * (§3.1) answered 404 to the PUT stays a refusal: the PATCH then answers 404 or 405 too, or refuses as well.
 */
export function replaceRecord(ctx: CheckContext, resource: ResourceName, id: string, body: AnyRecord, client: ApiClient = ctx.api): Promise<ApiResponse> {
  return withMethodFallback(ctx, 'replace', resource, ['PUT', 'PATCH'], sender(client, itemPath(resource, id), body))
}

/** DELETE; any 2xx, with or without a body (§4.1: delete bodies not shown). Forgets the record on success. */
export async function deleteRecord(ctx: CheckContext, resource: ResourceName, id: string, client: ApiClient = ctx.api): Promise<ApiResponse> {
  const response = await client.delete(itemPath(resource, id))
  if (response.ok) {
    ctx.session.ledger.forget(id)
    ctx.noteCapability('delete.status', String(response.status))
    ctx.noteCapability('delete.body', response.exchange.response?.body === undefined && !response.exchange.response?.rawText ? 'empty' : 'present')
  }
  return response
}

export type WalkEnd = 'null-cursor' | 'empty-cursor' | 'absent-cursor' | 'empty-page' | 'max-pages'

export interface Walk {
  records: AnyRecord[]
  pages: ApiResponse[]
  end: WalkEnd
}

/**
 * Follows nextCursor from the first page to the last. The last page may carry a null, empty or absent
 * cursor, or a cursor leading to an empty page (§4.1: not shown); all end the walk. A repeated cursor or a
 * walk longer than maxPages is the server's fault.
 */
export async function walkAllPages(client: ApiClient, path: string, query: Query = {}, maxPages = 50): Promise<Walk> {
  const records: AnyRecord[] = []
  const pages: ApiResponse[] = []
  const seenCursors = new Set<string>()
  let cursor: string | undefined
  for (let page = 0; page < maxPages; page++) {
    const response = await client.get(path, { ...query, cursor })
    pages.push(response)
    if (response.status !== 200 || !Array.isArray(response.body?.data)) {
      throw new CheckFailed(
        `list ${path}: status ${response.status}${Array.isArray(response.body?.data) ? '' : ', no data array'} while walking pages (§4.1)`,
        {
          exchanges: [response.exchange],
          expected: '200 with { data: [...], nextCursor } (§4.1)',
        },
      )
    }
    const data = response.body.data as AnyRecord[]
    records.push(...data)
    const next = response.body.nextCursor
    if (next === null) return { records, pages, end: 'null-cursor' }
    if (next === undefined) return { records, pages, end: 'absent-cursor' }
    if (next === '') return { records, pages, end: 'empty-cursor' }
    if (data.length === 0) return { records, pages, end: 'empty-page' }
    if (typeof next !== 'string') {
      throw new CheckFailed(`list ${path}: nextCursor is ${typeof next}, expected a string (§4.1)`, { exchanges: [response.exchange] })
    }
    if (seenCursors.has(next)) {
      throw new CheckFailed(`list ${path}: nextCursor repeats an earlier cursor; the walk would never end (§4.1, §9.2)`, {
        exchanges: pages.slice(-2).map((p) => p.exchange),
      })
    }
    seenCursors.add(next)
    cursor = next
  }
  return { records, pages, end: 'max-pages' }
}

/**
 * walkAllPages, and every page it read judged whole against the list envelope (§2, §4.1), the last page too: a
 * walk that ends on a page without nextCursor has read a page that breaks the envelope. The sweep keeps the
 * lenient walk (it must clean up whatever the server answers).
 */
export async function walkListPages(client: ApiClient, path: string, query: Query = {}, maxPages = 50): Promise<Walk> {
  const walk = await walkAllPages(client, path, query, maxPages)
  walk.pages.forEach((page, i) => {
    const last = i === walk.pages.length - 1 && walk.end !== 'max-pages'
    expectListEnvelope(page, `GET ${path}: page ${i + 1} of ${walk.pages.length}${last ? ' (the last)' : ''} of a walk by nextCursor`)
  })
  return walk
}

/** Records the last-page convention a walk met. */
export function observeWalkEnd(ctx: CheckContext, walk: Walk): void {
  if (walk.end !== 'max-pages') ctx.noteCapability('list.lastPage', walk.end)
}

/** Name fields that carry runLabel (`crmconf <what> <run id> …`) on resources without tags. */
export const RUN_LABEL_FIELDS: Partial<Record<ResourceName, string>> = { lead: 'fullName', opportunity: 'name', quotation: 'title', task: 'title' }

/** A unique, recognisable name for a record of this run. */
export function runLabel(ctx: CheckContext, what: string): string {
  return `crmconf ${what} ${ctx.runId} ${Math.random().toString(36).slice(2, 8)}`
}

/** Reserved test data (§ safe profile): example.com addresses, fictional 555-01xx numbers in E.164. */
export function safeEmail(tag: string): string {
  return `crmconf.${tag.toLowerCase().replace(/[^a-z0-9]+/g, '.')}@example.com`
}

export function safePhone(n: number): string {
  return `+1202555${String(100 + (Math.abs(n) % 100)).padStart(4, '0')}`
}

/**
 * The listed records a check may take as "some existing record": none that a run of the suite created (this run's
 * ledger, or the run tag of any run), since the check that made it may change or delete it at any moment.
 * Creates still on their way are awaited first, so that a record listed before its create was tracked is known.
 */
export async function recordsNotInUse(ctx: CheckContext, records: readonly AnyRecord[]): Promise<AnyRecord[]> {
  await ctx.others(ctx.session.ledger.settled())
  return records.filter(
    (r) =>
      typeof r?.id === 'string' &&
      !ctx.session.ledger.created(r.id) &&
      !(Array.isArray(r.tags) && r.tags.some((t: unknown) => typeof t === 'string' && t.startsWith(RUN_TAG_PREFIX))),
  )
}
