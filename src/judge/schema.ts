// A value judged against a schema of the one registry (src/schemas/registry.ts), summarised the same way for a
// check's failure and a traffic rule's violation.
import { validate, type SchemaIssue, type SchemaKey } from '../schemas/registry.ts'

export interface SchemaProblem {
  /** The first five issues, `path message; …`, and how many more. */
  summary: string
  issues: SchemaIssue[]
}

/** Undefined when the value matches the schema. */
export function schemaProblem(key: SchemaKey, value: unknown): SchemaProblem | undefined {
  const issues = validate(key, value)
  if (issues.length === 0) return undefined
  const first = issues
    .slice(0, 5)
    .map((i) => `${i.path || '(root)'} ${i.message}`)
    .join('; ')
  return { summary: `${first}${issues.length > 5 ? `; and ${issues.length - 5} more` : ''}`, issues }
}
