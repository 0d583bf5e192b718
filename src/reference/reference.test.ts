// A smoke test of the reference server itself; the conformance suites are what test its behaviour in depth.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FAULTS, startReferenceServer, type ReferenceServer } from './index.ts'

let server: ReferenceServer

beforeAll(async () => {
  server = await startReferenceServer()
})
afterAll(async () => {
  await server.close()
})

const call = async (path: string, init: { method?: string; key?: string | null; body?: unknown; headers?: Record<string, string> } = {}) => {
  const headers: Record<string, string> = { ...init.headers }
  const key = init.key === undefined ? server.keys.main : init.key
  if (key !== null) headers.authorization = `Bearer ${key}`
  if (init.body !== undefined) headers['content-type'] = 'application/json'
  const res = await fetch(`${server.baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  })
  const text = await res.text()
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined }
}

describe('reference server', () => {
  it('answers GET /me for the main key, with rate-limit headers', async () => {
    const res = await call('/me')
    expect(res.status).toBe(200)
    expect(res.body.workspace.id).toBe('ws_main')
    expect(res.body.key.scopes).toContain('accounts:write')
    expect(res.headers.get('ratelimit-limit')).toBe('600')
  })

  it('creates, gets and lists an account', async () => {
    const created = await call('/accounts', { method: 'POST', body: { name: 'Smoke Sdn Bhd', backupOwnerId: null } })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ name: 'Smoke Sdn Bhd', tags: [], custom: {} })
    expect(created.body).not.toHaveProperty('backupOwnerId')
    const got = await call(`/accounts/${created.body.id}`)
    expect(got.body).toEqual(created.body)
    const list = await call('/accounts?limit=100')
    expect(list.body.data.map((a: { id: string }) => a.id)).toContain(created.body.id)
    expect(list.body.nextCursor).toBe('')
  })

  it('answers 401 without a key and 404 for an unknown id, both with rate headers', async () => {
    const anonymous = await call('/accounts', { key: null })
    expect(anonymous.status).toBe(401)
    expect(anonymous.body.error.code).toBe('unauthorized')
    expect(anonymous.headers.get('ratelimit-remaining')).not.toBeNull()
    const missing = await call('/accounts/00000000-0000-4000-8000-000000000000')
    expect(missing.status).toBe(404)
    expect(missing.headers.get('ratelimit-reset')).not.toBeNull()
  })

  it('replays a create with the same Idempotency-Key and body', async () => {
    const headers = { 'idempotency-key': `smoke-${Date.now()}` }
    const first = await call('/leads', { method: 'POST', body: { fullName: 'Idem Potent' }, headers })
    const again = await call('/leads', { method: 'POST', body: { fullName: 'Idem Potent' }, headers })
    expect(again.status).toBe(first.status)
    expect(again.body.id).toBe(first.body.id)
    const other = await call('/leads', { method: 'POST', body: { fullName: 'Someone Else' }, headers })
    expect(other.status).toBe(409)
  })

  it('serves the same API under /v1 and /api/v1', async () => {
    const v1 = await fetch(`${server.baseUrl}/me`, { headers: { authorization: `Bearer ${server.keys.main}` } })
    const api = await fetch(`${server.apiBaseUrl}/me`, { headers: { authorization: `Bearer ${server.keys.main}` } })
    expect(v1.status).toBe(200)
    expect(api.status).toBe(200)
    expect(await api.json()).toEqual(await v1.json())
  })

  it('refuses an unknown fault id', async () => {
    await expect(startReferenceServer({ faults: ['no.such-fault'] })).rejects.toThrow(/Unknown fault/)
    expect(FAULTS.length).toBeGreaterThanOrEqual(10)
  })
})
