// Comparing two responses by meaning rather than bytes: a replay may re-serialise what it stored.

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/

/** True when both values say the same thing; date-times compare as instants (Date.parse). */
export function sameMeaning(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string') {
    if (a === b) return true
    return DATE_TIME.test(a) && DATE_TIME.test(b) && Date.parse(a) === Date.parse(b) && !Number.isNaN(Date.parse(a))
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameMeaning(x, b[i]))
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)])
    return [...keys].every((k) => sameMeaning((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  }
  return sameLeaf(a, b)
}

/**
 * The one equality of two plain values every comparator here ends in: SameValueZero. 0 and -0 are one number
 * (`JSON.parse('-0')` gives -0), and a value is always the same as itself (NaN included).
 */
export function sameLeaf(a: unknown, b: unknown): boolean {
  return a === b || (a !== a && b !== b)
}

/** The top-level fields of `first` whose value `second` does not share (fields only `second` has are ignored). */
export function differingFields(first: Record<string, unknown>, second: Record<string, unknown>): string[] {
  return Object.keys(first).filter((k) => !sameMeaning(first[k], second[k]))
}
