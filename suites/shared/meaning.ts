// Comparing records by meaning, not bytes: a server may write the same instant in another ISO 8601 form.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/

export function sameMeaning(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a === 'string' && typeof b === 'string') {
    return DATE_TIME.test(a) && DATE_TIME.test(b) && !Number.isNaN(Date.parse(a)) && Date.parse(a) === Date.parse(b)
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameMeaning(v, b[i]))
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)])
    return [...keys].every((k) => sameMeaning((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  }
  return false
}

/** The top-level fields whose meaning differs between two versions of a record, minus those ignored. */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>, ignore: readonly string[] = []): string[] {
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])
  return [...keys].filter((k) => !ignore.includes(k) && !sameMeaning(before?.[k], after?.[k])).sort()
}

/** `{ field: { before, after } }` for the report. */
export function diffOf(before: Record<string, unknown>, after: Record<string, unknown>, fields: readonly string[]): Record<string, { before: unknown; after: unknown }> {
  return Object.fromEntries(fields.map((f) => [f, { before: before?.[f], after: after?.[f] }]))
}
