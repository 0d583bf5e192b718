import { describe, expect, it } from 'vitest'
import { readSchemaFiles } from './files.ts'
import { renderSchemaFiles } from './generate.ts'

// schemas/ is generated from src/spec/resources.ts and committed; this keeps the two from drifting apart.
describe('schemas/', () => {
  it('is exactly what scripts/build-schemas.ts generates (run: node bin/run-ts.mjs scripts/build-schemas.ts)', () => {
    const wanted = renderSchemaFiles()
    const present = readSchemaFiles()
    expect([...present.keys()].sort()).toEqual([...wanted.keys()].sort())
    for (const [path, text] of wanted) expect(present.get(path), path).toBe(text)
  })
})
