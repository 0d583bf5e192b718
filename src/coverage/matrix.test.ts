import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { STATEMENTS } from '../spec/clauses.ts'
import { RESOURCE_LIST, writeBodies } from '../spec/resources.ts'
import { PROJECT_ROOT } from '../version.ts'
import { generateCells } from './cells.ts'
import { JUDGES, OPEN } from './judges.ts'
import { coverageBlock, expandTemplate, globMatches, namedChecks, resolveCells } from './matrix.ts'

// The frozen catalogue (test/catalogue.test.ts keeps it equal to suites/), read as text: src/ does not import suites/.
const CATALOGUE = readFileSync(join(PROJECT_ROOT, 'suites', 'check-ids.txt'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => line.split(' ')[0])
const IDS = new Set(CATALOGUE)
const LEVELS = new Map(
  readFileSync(join(PROJECT_ROOT, 'suites', 'check-ids.txt'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => [line.split(' ')[0], line.split(' ')[1]] as [string, string]),
)
const cells = generateCells()

describe('the requirement matrix', () => {
  it('gives every MUST and SHOULD statement of the clause registry cells, and no cell a statement it lacks', () => {
    const statements = new Set(cells.map((c) => c.statement))
    for (const s of STATEMENTS.filter((x) => x.level !== 'INFO')) expect(statements.has(s.id), s.id).toBe(true)
    const known = new Set(STATEMENTS.map((s) => s.id))
    expect(cells.filter((c) => !known.has(c.statement)).map((c) => c.id)).toEqual([])
  })

  it('has unique cell ids', () => {
    const seen = new Set<string>()
    const dups = cells.filter((c) => (seen.has(c.id) ? true : (seen.add(c.id), false)))
    expect(dups.map((c) => c.id)).toEqual([])
  })

  it('names only check ids the catalogue has (explicit ids), and prefixes that match one', () => {
    const unknown: string[] = []
    for (const cell of cells)
      for (const named of namedChecks(cell)) {
        if (named.optional) continue
        const ok = named.id.endsWith('*') ? CATALOGUE.some((id) => id.startsWith(named.id.slice(0, -1))) : IDS.has(named.id)
        if (!ok) unknown.push(`${cell.id} → ${named.id}`)
      }
    expect(unknown).toEqual([])
  })

  it('has no dead rule: each judge template (optional ones too) judges at least one cell, each open rule explains one', () => {
    const dead: string[] = []
    for (const rule of JUDGES)
      for (const template of rule.checks) {
        const bare = template.replace(/\?$/, '')
        const judged = cells.some((cell) => {
          if (!globMatches(rule.cells, cell.id) || (rule.when && !rule.when(cell.axes))) return false
          const id = expandTemplate(bare, cell.axes)
          return id !== undefined && (id.endsWith('*') ? CATALOGUE.some((x) => x.startsWith(id.slice(0, -1))) : IDS.has(id))
        })
        if (!judged) dead.push(`${rule.cells} → ${template}`)
      }
    expect(dead).toEqual([])
    const resolved = resolveCells(CATALOGUE)
    expect(
      OPEN.slice(0, -1)
        .filter((rule) => !resolved.some((c) => c.open?.reason === rule.reason))
        .map((r) => r.cells),
    ).toEqual([])
  })

  it('gives every open cell of a generated family a reason of its own (the catch-all is for registry statements only)', () => {
    const catchAll = OPEN[OPEN.length - 1].reason
    const resolved = resolveCells(CATALOGUE)
    expect(resolved.filter((c) => c.open?.reason === catchAll && c.family !== 'statement').map((c) => c.id)).toEqual([])
    for (const c of resolved) if (c.open) expect(c.open.reason.length, c.id).toBeGreaterThan(10)
  })

  it('is generated from src/spec: three page positions for every §4.3 filter, every field of every §4.4 body', () => {
    const filters = RESOURCE_LIST.reduce((n, r) => n + r.filters.length, 0)
    expect(cells.filter((c) => c.family === 'filter-page')).toHaveLength(3 * filters)
    const fields = writeBodies().reduce((n, b) => n + Object.keys(b.body.fields).length, 0)
    expect(cells.filter((c) => c.family === 'body-type')).toHaveLength(fields)
    expect(cells.find((c) => c.id === 'filter-value:contact/email/near-miss')).toBeDefined()
    expect(cells.find((c) => c.id === 'scope:quotation/delete/refused-with-read-scope-only')).toBeDefined()
  })

  it('counts a cell covered only when a check that judges it is in the set', () => {
    const none = coverageBlock([], 'run')
    const untestable = STATEMENTS.filter((s) => s.level !== 'INFO' && s.untestable).length
    expect(none.summary.covered).toBe(0)
    expect(none.summary.cells).toBe(cells.length)
    const all = coverageBlock(CATALOGUE, 'catalogue')
    expect(all.summary.covered).toBeGreaterThan(0)
    expect(all.summary.covered).toBe(all.statements.reduce((n, s) => n + s.covered, 0))
    for (const s of all.statements) expect(s.covered + s.open.reduce((n, g) => n + g.cells.length, 0)).toBe(s.cells)
    const notObservable = all.statements.flatMap((s) => s.open.filter((g) => g.kind === 'not-observable'))
    expect(notObservable.reduce((n, g) => n + g.cells.length, 0)).toBe(untestable)
    const filters = coverageBlock(['filters.account.email.sound', 'filters.account.email.complete'], 'run')
    expect(filters.statements.find((s) => s.statement === '§4.3/filters')!.covered).toBeGreaterThanOrEqual(2)
  })

  it('lists the cells of a MUST statement that only SHOULD or INFO checks judge (a page of 101 is refused only at SHOULD)', () => {
    const block = coverageBlock(CATALOGUE, 'catalogue', undefined, LEVELS)
    const pageSize = block.statements.find((s) => s.statement === '§4.1/page-size')!
    expect(pageSize.belowLevel).toContain('limit:101')
    expect(pageSize.belowLevel).not.toContain('limit:1')
    expect(block.statements.find((s) => s.level === 'SHOULD')!.belowLevel).toBeUndefined()
    expect(coverageBlock(CATALOGUE, 'catalogue').statements.every((s) => s.belowLevel === undefined)).toBe(true)
  })
})
