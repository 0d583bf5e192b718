// The spec text the suite was built from, and its digest (the "spec digest" of every report).
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const SPEC_FILE = fileURLToPath(new URL('../../spec/crm-api-spec.md', import.meta.url))

let digest: string | undefined

/** Absolute path of spec/crm-api-spec.md. */
export function specPath(): string {
  return SPEC_FILE
}

/** SHA-256 (hex) of the spec file's bytes, computed once. */
export function specDigest(): string {
  digest ??= createHash('sha256').update(readFileSync(SPEC_FILE)).digest('hex')
  return digest
}
