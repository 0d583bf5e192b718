// The catalogue is the contract of the suite itself: ids are frozen (a rename is a decision, not an
// accident: certified reports name them), unique, well formed, and every suite file's checks are in it.
import { readdirSync, readFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../src/version.ts'
import { AREA_ORDER, AREAS, catalogue } from '../suites/index.ts'

const SUITES = join(PROJECT_ROOT, 'suites')

describe('the check catalogue', () => {
  it('has unique, well-formed ids in a known area with a clause, a level and a title', () => {
    const ids = catalogue.map((c) => c.id)
    expect(ids.length).toBe(new Set(ids).size)
    for (const c of catalogue) {
      expect(c.id, c.id).toMatch(/^[a-z-]+\.[A-Za-z0-9._-]+$/)
      expect(c.id.startsWith(`${c.area}.`), `${c.id} starts with its area ${c.area}`).toBe(true)
      expect(AREA_ORDER as readonly string[], c.id).toContain(c.area)
      expect(c.clauses.length, `${c.id} cites a clause`).toBeGreaterThan(0)
      for (const clause of c.clauses) expect(clause, c.id).toMatch(/^§\d+(\.\d+)*$/)
      expect(['MUST', 'SHOULD', 'INFO']).toContain(c.level)
      expect(c.title.trim().length, `${c.id} has a title`).toBeGreaterThan(10)
    }
  })

  it('lists each area folder once, with its vitest suite file, and each check under its own area', () => {
    const folders = readdirSync(SUITES, { withFileTypes: true })
      .filter((d) => d.isDirectory() && d.name !== 'shared')
      .map((d) => d.name)
    expect([...AREA_ORDER].sort()).toEqual(folders.sort())
    for (const { area, checks } of AREAS) {
      expect(existsSync(join(SUITES, area, `${area}.suite.ts`)), `suites/${area}/${area}.suite.ts`).toBe(true)
      for (const c of checks) expect(c.area, c.id).toBe(area)
    }
  })

  it('orders checks only after checks of the same phase that exist', () => {
    const byId = new Map(catalogue.map((c) => [c.id, c]))
    for (const c of catalogue) {
      for (const id of c.after ?? []) {
        expect(byId.has(id), `${c.id} starts after ${id}, which must exist`).toBe(true)
        expect(byId.get(id)!.phase, `${c.id} and ${id} are of the same phase`).toBe(c.phase)
        expect(byId.get(id)!.after ?? [], `${id} does not wait for ${c.id} in turn`).not.toContain(c.id)
      }
    }
  })

  it('holds every check that a suite file registers', async () => {
    for (const area of readdirSync(SUITES, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)) {
      const suiteFile = join(SUITES, area, `${area}.suite.ts`)
      if (!existsSync(suiteFile)) continue
      expect(readFileSync(suiteFile, 'utf8'), `${area}.suite.ts registers ./checks.ts`).toContain("from './checks.ts'")
      const { checks } = (await import(join(SUITES, area, 'checks.ts'))) as { checks: { id: string }[] }
      const missing = checks.map((c) => c.id).filter((id) => !catalogue.some((c) => c.id === id))
      expect(missing, `checks of suites/${area} missing from suites/index.ts`).toEqual([])
    }
  })

  it('keeps its ids frozen: a rename or removal must update suites/check-ids.txt on purpose', async () => {
    const listing = catalogue.map((c) => `${c.id} ${c.level} ${c.clauses.join(',')}`).join('\n') + '\n'
    await expect(listing).toMatchFileSnapshot(join(SUITES, 'check-ids.txt'))
  })
})
