// PLACEHOLDER (branch wp/traffic): a minimal resolver so the proxy and verify-traffic run end to end. The lead
// replaces this file with judge's src/traffic/operation.ts on merge (same export, same signature).
import { ME_PATH, RESOURCE_LIST } from '../spec/resources.ts'
import type { ResolvedOperation, TrafficExchange } from './types.ts'

export function resolveOperation(exchange: TrafficExchange, basePath: string): ResolvedOperation | undefined {
  let url: URL
  try {
    url = new URL(exchange.request.url)
  } catch {
    return undefined
  }
  const base = basePath.replace(/\/+$/, '')
  if (url.pathname !== base && !url.pathname.startsWith(`${base}/`)) return undefined
  const path = url.pathname.slice(base.length) || '/'
  const query: Record<string, string> = {}
  for (const [name, value] of url.searchParams) query[name] = value
  const method = exchange.request.method.toUpperCase()
  if (path === ME_PATH) return { path, resource: 'me', op: 'me', query }
  for (const resource of RESOURCE_LIST) {
    if (path === resource.path) return { path, resource: resource.name, op: method === 'POST' ? 'create' : method === 'GET' ? 'list' : undefined, query }
    if (path.startsWith(`${resource.path}/`)) {
      const [id, ...rest] = path.slice(resource.path.length + 1).split('/')
      if (rest.length > 0) return { path, resource: resource.name, op: 'action', id, query }
      const op = method === 'GET' ? 'get' : method === 'DELETE' ? 'delete' : method === 'PUT' ? (resource.ops.replace ? 'replace' : 'update') : method === 'PATCH' ? 'update' : undefined
      return { path, resource: resource.name, ...(op ? { op } : {}), id, query }
    }
  }
  return { path, query }
}
