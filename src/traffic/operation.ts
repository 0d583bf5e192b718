// Which operation of §4.2 an observed request names: the base path stripped from the URL's pathname, then the
// collection, the item or `/me`, and the method. The methods of update, replace and delete are not shown (§4.1):
// like src/checks/operations.ts, an item takes PATCH or PUT for whichever of update and replace it has.
import type { TrafficExchange, ResolvedOperation } from './types.ts'
import { ME_PATH, RESOURCE_LIST, type ResourceSpec } from '../spec/resources.ts'

const BY_COLLECTION: ReadonlyMap<string, ResourceSpec> = new Map(RESOURCE_LIST.map((r) => [r.path.slice(1), r]))

type Op = NonNullable<ResolvedOperation['op']>

function collectionOp(spec: ResourceSpec, method: string): Op | undefined {
  if (method === 'GET' || method === 'HEAD') return spec.ops.list ? 'list' : undefined
  if (method === 'POST') return spec.ops.create ? 'create' : undefined
  return undefined
}

function itemOp(spec: ResourceSpec, method: string): Op | undefined {
  switch (method) {
    case 'GET':
    case 'HEAD':
      return spec.ops.get ? 'get' : undefined
    case 'PATCH':
      return spec.ops.update ? 'update' : spec.ops.replace ? 'replace' : undefined
    case 'PUT':
      return spec.ops.replace ? 'replace' : spec.ops.update ? 'update' : undefined
    case 'DELETE':
      return spec.ops.delete ? 'delete' : undefined
    default:
      return undefined
  }
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

function normaliseBase(basePath: string): string {
  const trimmed = basePath.replace(/\/+$/, '')
  return trimmed === '' || trimmed.startsWith('/') ? trimmed : `/${trimmed}`
}

function parseQuery(search: string): Record<string, string> {
  const query: Record<string, string> = {}
  if (search.length > 1) for (const [k, v] of new URLSearchParams(search)) query[k] = v
  return query
}

/** The URL's pathname and search, from an absolute URL or an origin-form target (`/v1/accounts?x=1`). */
function splitUrl(url: string): { pathname: string; search: string } | undefined {
  if (url.startsWith('/')) {
    const q = url.indexOf('?')
    const h = url.indexOf('#')
    const end = h === -1 ? url.length : h
    return q === -1 || q > end ? { pathname: url.slice(0, end), search: '' } : { pathname: url.slice(0, q), search: url.slice(q, end) }
  }
  try {
    const parsed = new URL(url)
    return { pathname: parsed.pathname, search: parsed.search }
  } catch {
    return undefined
  }
}

/**
 * The operation an exchange names, undefined when its URL is not below the base path. Below it, an unknown
 * path resolves without a resource; a known path with a method the spec does not list, without an `op`; a
 * path deeper than an item (`/quotations/{id}/send`, an endpoint §4.2 does not list) as an `action`.
 */
export function resolveOperation(exchange: TrafficExchange, basePath: string): ResolvedOperation | undefined {
  const split = splitUrl(exchange.request.url)
  if (split === undefined) return undefined
  const base = normaliseBase(basePath)
  const { pathname } = split
  if (base !== '' && !(pathname === base || pathname.startsWith(`${base}/`))) return undefined
  const path = pathname.slice(base.length) || '/'
  const query = parseQuery(split.search)
  const method = exchange.request.method.toUpperCase()
  const clean = path.replace(/\/+$/, '')
  if (clean === ME_PATH) return { path, resource: 'me', ...(method === 'GET' || method === 'HEAD' ? { op: 'me' as const } : {}), query }
  const segments = clean.split('/').slice(1)
  const spec = segments[0] === undefined ? undefined : BY_COLLECTION.get(segments[0])
  if (spec === undefined) return { path, query }
  if (segments.length === 1) {
    const op = collectionOp(spec, method)
    return { path, resource: spec.name, ...(op ? { op } : {}), query }
  }
  const id = decode(segments[1]!)
  if (segments.length === 2) {
    const op = itemOp(spec, method)
    return { path, resource: spec.name, ...(op ? { op } : {}), id, query }
  }
  return { path, resource: spec.name, op: 'action', id, query }
}
