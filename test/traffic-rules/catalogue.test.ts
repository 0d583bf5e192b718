import { join } from 'node:path'
import { expect, it } from 'vitest'
import { TRAFFIC_RULES } from '../../src/traffic/rules/index.ts'
import { BoundedMap } from '../../src/traffic/rules/kit.ts'

it('names every rule traffic.<subject>.<property>, once, with clauses, a level, a side and a title', () => {
  const ids = TRAFFIC_RULES.map((r) => r.id)
  expect(new Set(ids).size).toBe(ids.length)
  for (const rule of TRAFFIC_RULES) {
    expect(rule.id).toMatch(/^traffic\.[a-z0-9-]+\.[a-z0-9-]+$/)
    expect(rule.clauses.length, rule.id).toBeGreaterThan(0)
    for (const c of rule.clauses) expect(c).toMatch(/^§\d+(\.\d+)?$/)
    expect(['MUST', 'SHOULD', 'INFO']).toContain(rule.level)
    expect(['server', 'client']).toContain(rule.side)
    expect(rule.title.length).toBeGreaterThan(10)
  }
})

it('keeps its ids frozen: a rename or removal must update src/traffic/rules/rule-ids.txt on purpose', async () => {
  const listing = TRAFFIC_RULES.map((r) => `${r.id} ${r.level} ${r.side} ${r.clauses.join(',')}`).join('\n') + '\n'
  await expect(listing).toMatchFileSnapshot(join(import.meta.dirname, '../../src/traffic/rules/rule-ids.txt'))
})

it('gives each verification fresh state', () => {
  for (const rule of TRAFFIC_RULES) expect(rule.start(), rule.id).toBeDefined()
})

it('forgets the least recently used entry past its bound', () => {
  const map = new BoundedMap<string, number>(2)
  map.set('a', 1)
  map.set('b', 2)
  map.get('a')
  map.set('c', 3)
  expect([map.peek('a'), map.peek('b'), map.peek('c'), map.size]).toEqual([1, undefined, 3, 2])
})
