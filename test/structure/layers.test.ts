// Each folder on one floor (./layers.ts), importing only its own folder and lower floors (issue 31): the
// offending import is named by file and line, with both floors, so a move or a new import is fixed where it is.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../src/version.ts'
import { importLines, type ImportLine } from './imports.ts'
import { floors, folderOf, LAYERS, layerTableMarkdown, type Floor } from './layers.ts'

const TESTS = /\.test\.ts$/

/** Every import that goes beside or above its own floor, as `file:line → target (floor a folder → floor b folder)`. */
function upwardImports(lines: Map<string, ImportLine[]>, layers: readonly Floor[]): string[] {
  const floorOf = floors(layers)
  const found: string[] = []
  for (const [module, imports] of lines) {
    if (TESTS.test(module)) continue
    const from = folderOf(module)
    for (const { line, target } of imports) {
      const to = folderOf(target)
      if (to === from) continue
      const a = floorOf.get(from)!
      const b = floorOf.get(to)!
      if (b < a) continue
      const where = b === a ? 'beside it' : 'above it'
      found.push(`${module}:${line} → ${target} (floor ${a} ${from} imports floor ${b} ${to}, ${where})`)
    }
  }
  return found
}

describe('the layer table', () => {
  const lines = importLines()

  it('places every folder of src/ and suites/ on exactly one floor', () => {
    const folders = new Set([...lines.keys()].map(folderOf))
    const placed = LAYERS.flatMap((floor) => floor.folders)
    expect([...folders].filter((f) => !placed.includes(f)).sort(), 'folders missing from test/structure/layers.ts').toEqual([])
    expect(placed.filter((f) => !folders.has(f)).sort(), 'folders in the table that do not exist').toEqual([])
    expect(placed.length, 'a folder on two floors').toBe(new Set(placed).size)
  })

  it('is obeyed: a module imports its own folder and lower floors only', () => {
    expect(upwardImports(lines, LAYERS).join('\n')).toBe('')
  })

  it('names the offending import, its line and both floors', () => {
    const fake = new Map<string, ImportLine[]>([
      ['src/checks/index.ts', [{ line: 7, target: 'src/engine/runner.ts' }]],
      ['src/engine/runner.ts', [{ line: 3, target: 'src/checks/types.ts' }]],
      ['src/engine/runner.test.ts', [{ line: 2, target: 'src/cli/main.ts' }]],
    ])
    expect(upwardImports(fake, LAYERS)).toEqual(['src/checks/index.ts:7 → src/engine/runner.ts (floor 4 checks imports floor 6 engine, above it)'])
    expect(upwardImports(new Map([['src/engine/a.ts', [{ line: 1, target: 'src/certify/b.ts' }]]]), LAYERS)).toEqual([
      'src/engine/a.ts:1 → src/certify/b.ts (floor 6 engine imports floor 6 certify, beside it)',
    ])
  })

  it('is printed in docs/ARCHITECTURE.md as it is written here', () => {
    const doc = readFileSync(join(PROJECT_ROOT, 'docs', 'ARCHITECTURE.md'), 'utf8')
    expect(doc, `docs/ARCHITECTURE.md should hold this table:\n${layerTableMarkdown()}`).toContain(layerTableMarkdown())
  })
})
