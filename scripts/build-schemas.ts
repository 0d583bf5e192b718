// Regenerates schemas/ from src/spec/resources.ts: node bin/run-ts.mjs scripts/build-schemas.ts
// Every .json file under schemas/ is generated; a file no longer produced is removed.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { renderSchemaFiles } from '../src/schemas/generate.ts'
import { SCHEMAS_DIR, readSchemaFiles } from '../src/schemas/files.ts'

const wanted = renderSchemaFiles()
const present = readSchemaFiles(SCHEMAS_DIR)
let written = 0
let removed = 0
for (const [path, text] of wanted) {
  if (present.get(path) === text) continue
  mkdirSync(dirname(join(SCHEMAS_DIR, path)), { recursive: true })
  writeFileSync(join(SCHEMAS_DIR, path), text)
  written++
}
for (const path of present.keys()) {
  if (wanted.has(path)) continue
  rmSync(join(SCHEMAS_DIR, path))
  removed++
}
console.log(`schemas/: ${wanted.size} files, ${written} written, ${removed} removed`)
