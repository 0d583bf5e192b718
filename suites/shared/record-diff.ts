// Which top-level fields differ between two versions of a record, by meaning, not bytes: a server may write the
// same instant in another ISO 8601 form. The comparison itself is the idempotency area's sameMeaning (one for two
// versions of a record).
import { sameMeaning } from '../../src/checks/index.ts'

/** The top-level fields whose meaning differs between two versions of a record, minus those ignored. */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>, ignore: readonly string[] = []): string[] {
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])
  return [...keys].filter((k) => !ignore.includes(k) && !sameMeaning(before?.[k], after?.[k])).sort()
}

/** `{ field: { before, after } }` for the report. */
export function diffOf(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  fields: readonly string[],
): Record<string, { before: unknown; after: unknown }> {
  return Object.fromEntries(fields.map((f) => [f, { before: before?.[f], after: after?.[f] }]))
}
