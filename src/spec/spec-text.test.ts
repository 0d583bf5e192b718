import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { specDigest, specPath } from './spec-text.ts'

// Relative to this module: src/spec/ → the repository root is ../../, the shared copy sits beside it.
const REPO_SPEC = fileURLToPath(new URL('../../spec/crm-api-spec.md', import.meta.url))
const SHARED_SPEC = fileURLToPath(new URL('../../../shared/crm-api-spec.md', import.meta.url))

describe('spec text', () => {
  it('is spec/crm-api-spec.md of this repository', () => {
    expect(specPath()).toBe(REPO_SPEC)
    expect(readFileSync(specPath(), 'utf8')).toMatch(/^# Customer Relationship Management REST API Specification/)
  })
  it('digest is the SHA-256 hex of its bytes, stable across calls', () => {
    const expected = createHash('sha256').update(readFileSync(specPath())).digest('hex')
    expect(specDigest()).toMatch(/^[0-9a-f]{64}$/)
    expect(specDigest()).toBe(expected)
    expect(specDigest()).toBe(specDigest())
  })
  // ARCHITECTURE.md: spec/ is a copy of ../shared/crm-api-spec.md, kept equal when the shared copy is present.
  it.skipIf(!existsSync(SHARED_SPEC))('is byte-identical to ../shared/crm-api-spec.md', () => {
    expect(readFileSync(specPath()).equals(readFileSync(SHARED_SPEC))).toBe(true)
  })
})
