// The project's own imports, read by the TypeScript compiler's scanner (`preProcessFile`), so that what counts as
// an import is what tsc counts: `import type`, `export … from` and `import()` included. The structure tests
// (no-cycles, layers) judge this one reading.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import ts from 'typescript'
import { PROJECT_ROOT } from '../../src/version.ts'

const ROOTS = ['src', 'suites']

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : []
  })
}

const project = (path: string) => relative(PROJECT_ROOT, path).split(sep).join('/')

/** One import of a project module: where it is written (1-based line) and the module it names. */
export interface ImportLine {
  line: number
  target: string
}

/** Every module of src/ and suites/, by its path from the project root, with the project modules it imports and where. */
export function importLines(): Map<string, ImportLine[]> {
  const files = ROOTS.flatMap((root) => sourceFiles(join(PROJECT_ROOT, root)))
  const known = new Set(files.map(project))
  const lines = new Map<string, ImportLine[]>()
  for (const file of files) {
    const text = readFileSync(file, 'utf8')
    const { importedFiles } = ts.preProcessFile(text, true, true)
    const found = importedFiles
      .filter((i) => i.fileName.startsWith('.'))
      .map((i) => ({ line: text.slice(0, i.pos).split('\n').length, target: project(resolve(dirname(file), i.fileName)) }))
      .filter(({ target }) => known.has(target))
    lines.set(project(file), found)
  }
  return lines
}

/** Every module of src/ and suites/ with the project modules it imports (each once). */
export function importGraph(): Map<string, string[]> {
  return new Map([...importLines()].map(([module, found]) => [module, [...new Set(found.map((i) => i.target))]]))
}
