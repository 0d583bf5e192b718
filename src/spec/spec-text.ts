// The spec text the suite was built from, and its digest (the "spec digest" of every report).
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { PROJECT_ROOT } from '../version.ts'

const SPEC_FILE = join(PROJECT_ROOT, 'spec', 'crm-api-spec.md')

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
