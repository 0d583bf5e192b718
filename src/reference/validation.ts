// Body validation goes through the project's one schema registry (src/schemas/registry.ts); this file only turns
// its issues into §7 details, one per field.

import { validate, writeKey, type SchemaIssue } from '../schemas/registry.ts'
import type { ResourceName, WriteOp } from '../spec/resources.ts'
import type { ErrorDetail } from './api-error.ts'

/** `overlooked`: issues a faulty validator does not see (self-validation faults). */
export function bodyProblems(resource: ResourceName, op: WriteOp, body: unknown, overlooked: (issue: SchemaIssue) => boolean = () => false): ErrorDetail[] {
  const issues = validate(writeKey(resource, op), body).filter((issue) => !overlooked(issue))
  if (issues.length === 0) return []
  const byPath = new Map<string, ErrorDetail>()
  for (const issue of issues) {
    if (byPath.has(issue.path)) continue
    const field = issue.path === '' ? 'body' : issue.path
    byPath.set(issue.path, { segments: issue.path === '' ? [] : issue.path.split('.'), message: `${field} ${issue.message}` })
  }
  return [...byPath.values()]
}
