import { describe, expect, it } from 'vitest'
import { MemoryStore, withListLag, type StoredRecord } from './store.ts'

const rec = (id: string, at: number, name: string): StoredRecord => ({ id, createdAtMs: at, updatedAtMs: at, record: { id, name }, hidden: {} })

describe('withListLag', () => {
  it('shows a write in lists only lagMs after it, and to reads by id at once', () => {
    let now = 1_000
    const { store, lists } = withListLag(new MemoryStore(), 500, () => now)
    store.put('ws', 'account', rec('a', 1, 'first'))
    expect(store.get('ws', 'account', 'a')?.record.name).toBe('first')
    expect(lists.sorted('ws', 'account', 'createdAt')).toEqual([])
    now += 500
    expect(lists.sorted('ws', 'account', 'createdAt').map((r) => r.record.name)).toEqual(['first'])
    store.put('ws', 'account', { ...rec('a', 1, 'second'), updatedAtMs: 2 })
    store.remove('ws', 'account', 'a', 'recycle')
    expect(store.get('ws', 'account', 'a')).toBeUndefined()
    expect(lists.sorted('ws', 'account', 'updatedAt').map((r) => r.record.name)).toEqual(['first'])
    now += 500
    expect(lists.sorted('ws', 'account', 'updatedAt')).toEqual([])
  })

  it('is the store itself without lag', () => {
    const inner = new MemoryStore()
    const { store, lists } = withListLag(inner, 0, () => 0)
    expect(store).toBe(inner)
    expect(lists).toBe(inner)
  })
})
