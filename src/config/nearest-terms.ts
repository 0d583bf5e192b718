// The nearest known names to a typed one, for "did you mean" hints: the selection (--only/--skip), the
// embedded server's --variant and --fault, and look-alike variable names all suggest with it. Pure.
import { distance } from 'fastest-levenshtein'

/** Suggestions offered for a value that names nothing. */
const MAX_SUGGESTIONS = 3

/**
 * The terms nearest to a value by edit distance (case-insensitive; ties all kept, up to `max`), within a bound
 * that grows with the value's length so that `pagnation` finds `pagination` but `xyz` does not find `auth`.
 */
export function nearestTerms(value: string, terms: readonly string[], max = MAX_SUGGESTIONS): string[] {
  const wanted = value.toLowerCase()
  const bound = Math.max(2, Math.floor(wanted.length / 3))
  const scored = terms
    .map((term) => ({ term, d: distance(wanted, term.toLowerCase()) }))
    .filter(({ d }) => d <= bound)
    .sort((a, b) => a.d - b.d || a.term.length - b.term.length || a.term.localeCompare(b.term))
  const best = scored[0]?.d
  return scored
    .filter(({ d }) => d === best)
    .slice(0, max)
    .map(({ term }) => term)
}
