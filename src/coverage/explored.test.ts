import { describe, expect, it } from 'vitest'
import { RESOURCE_LIST, RESOURCES } from '../spec/resources.ts'
import { cellsOfRequest, exploredBlock, exploreUniverse, valueForm } from './explored.ts'

const ID = '0b0e8a3e-1111-4222-8333-444455556666'
const BASE = 'https://crm.example.test/api/v1'

describe('the explored universe, from the spec tables', () => {
  it('holds every operation of §4.2 on every collection, each list parameter and filter, each body field', () => {
    const all = exploreUniverse()
    for (const r of RESOURCE_LIST) if (r.ops.list) expect(all.has(`${r.name}.list GET ${r.path} query.limit=max-100`), r.name).toBe(true)
    for (const r of RESOURCE_LIST)
      for (const f of r.filters) expect(all.has(`${r.name}.list GET ${r.path} query.${f.param}=absent`), `${r.name} ${f.param}`).toBe(true)
    expect(all.has('task.create POST /tasks body.priority=urgent')).toBe(true)
    expect(all.has('account.update PATCH /accounts/{id} body.name=absent')).toBe(true)
    // A required field is never absent from a create.
    expect(all.has('account.create POST /accounts body.name=absent')).toBe(false)
    expect(all.has('account.create POST /accounts header.Idempotency-Key=present')).toBe(true)
    expect(all.has('account.get GET /accounts/{id} path.id=uuid')).toBe(true)
    expect([...all].some((c) => c.startsWith('user.create'))).toBe(false)
  })
})

describe('the cells a request falls in, read from the request', () => {
  it('a list: every query parameter and filter, absent or in its value form', () => {
    const cells = cellsOfRequest({ method: 'GET', url: `${BASE}/tasks?limit=1&sort=updatedAt&createdSince=2026-01-01T08:00:00%2B08:00&priority=high` })
    const filters = RESOURCES.task.filters.length
    expect(cells).toHaveLength(filters + 6)
    expect(cells).toContain('task.list GET /tasks query.limit=min-1')
    expect(cells).toContain('task.list GET /tasks query.sort=updatedAt')
    expect(cells).toContain('task.list GET /tasks query.order=absent')
    expect(cells).toContain('task.list GET /tasks query.createdSince=offset')
    expect(cells).toContain('task.list GET /tasks query.cursor=absent')
  })

  it('a write: each body field in its form, absent ones too, and the Idempotency-Key header', () => {
    const cells = cellsOfRequest({
      method: 'POST',
      url: `${BASE}/accounts`,
      headers: { 'Idempotency-Key': 'k1' },
      body: { name: 'Zoë Ñandú', website: null, tags: [] },
    })
    expect(cells).toContain('account.create POST /accounts body.name=non-ascii')
    expect(cells).toContain('account.create POST /accounts header.Idempotency-Key=present')
    expect(cells).toContain('account.create POST /accounts body.tags=empty')
    expect(cells.filter((c) => c.endsWith('=absent')).length).toBeGreaterThan(3)
    expect(cellsOfRequest({ method: 'PATCH', url: `${BASE}/contacts/${ID}`, body: { firstName: 'Ann' } })).toContain(
      'contact.update PATCH /contacts/{id} body.firstName=ascii',
    )
    expect(cellsOfRequest({ method: 'DELETE', url: `${BASE}/tasks/${ID}` })).toEqual(['task.delete DELETE /tasks/{id} path.id=uuid'])
  })

  it('a request outside the universe falls in no cell', () => {
    expect(cellsOfRequest({ method: 'GET', url: `${BASE}/me` })).toEqual([])
    expect(cellsOfRequest({ method: 'DELETE', url: `${BASE}/users/${ID}` })).toEqual([])
    expect(cellsOfRequest({ method: 'GET', url: 'not a url' })).toEqual([])
  })

  it('value forms: date-times by their offset, enum values by name, text by its characters', () => {
    expect(valueForm('2026-01-01T00:00:00Z', 'date-time')).toBe('utc-z')
    expect(valueForm('2026-01-01T05:45:00+05:45', 'date-time|null')).toBe('offset')
    expect(valueForm('high', 'enum:low,medium,high,urgent')).toBe('high')
    expect(valueForm('plain')).toBe('ascii')
    expect(valueForm('陈美玲')).toBe('non-ascii')
    expect(valueForm(null)).toBe('null')
  })
})

describe('the explored share over nights', () => {
  it('is the union of the cells of every run of the history over the universe, and grows with a run that explored new cells', () => {
    const a = cellsOfRequest({ method: 'GET', url: `${BASE}/accounts?limit=1` })
    const b = cellsOfRequest({ method: 'GET', url: `${BASE}/accounts?limit=100&order=asc` })
    const first = exploredBlock(a, { file: 'h.jsonl', earlier: [] })
    const second = exploredBlock(b, { file: 'h.jsonl', earlier: [a] })
    expect(first.nights!.cells).toBe(a.length)
    expect(second.nights!.runs).toBe(2)
    expect(second.nights!.newTonight).toBe(2)
    expect(second.nights!.share).toBeGreaterThan(first.nights!.share)
    expect(second.universe).toBe(exploreUniverse().size)
    expect(exploredBlock(['not a cell']).run.cells).toBe(0)
  })
})
