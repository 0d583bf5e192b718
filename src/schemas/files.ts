// Where the committed schema files live and how to read them all.
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { PROJECT_ROOT } from '../version.ts'

/** The package's schemas/ folder. */
export const SCHEMAS_DIR = join(PROJECT_ROOT, 'schemas')

/** Every `.json` file under `dir`: path relative to `dir` (with `/`) → text, sorted by path. */
export function readSchemaFiles(dir: string = SCHEMAS_DIR): Map<string, string> {
  const files = new Map<string, string>()
  const walk = (rel: string): void => {
    for (const entry of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`
      if (entry.isDirectory()) walk(path)
      else if (entry.isFile() && entry.name.endsWith('.json')) files.set(path, readFileSync(join(dir, path), 'utf8'))
    }
  }
  walk('')
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}
