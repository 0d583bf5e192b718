// The package root and the tool version, found from this module: the same in src/ (TypeScript) and dist/src/.
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The package's root folder (where package.json, schemas/ and spec/ are): the nearest folder above this module
 * that holds a package.json, so the same code finds it from src/ (the TypeScript) and from dist/src/ (the
 * published JavaScript). A file path, never a URL's pathname: that would keep `%20` for a space.
 */
export const PROJECT_ROOT: string = packageRoot(dirname(fileURLToPath(import.meta.url)))

/** The suite's version, from package.json: part of every report and of every certification verdict. */
export const TOOL_VERSION: string = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')).version

function packageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir
    if (dirname(dir) === dir) throw new Error(`crm-conformance: no package.json in ${from} or any folder above it`)
  }
}
