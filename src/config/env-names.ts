// Variables that look like ours but are not (CRM_APIKEY, CRM_BASEURL, CRM_API_KEY_RESTRICED): a typo
// that would otherwise silently drop a key, or test the embedded server instead of the user's. Pure.
import { distance } from 'fastest-levenshtein'
import { nearestTerms } from './nearest-terms.ts'

/** Names of the CI examples' own variables (examples/*.yml), never read by the suite and never a typo. */
const FOREIGN_PREFIXES = ['CRM_CONFORMANCE_']
/** A name this close to a public one (CMR_API_KEY) is a look-alike even without the CRM prefix. */
const LOOKALIKE_DISTANCE = 2

/** The names among `names` that look like public variables but are none of them. */
export function lookalikeVariables(names: readonly string[], known: readonly string[]): string[] {
  const exact = new Set(known)
  return names.filter((name) => {
    if (exact.has(name)) return false
    const upper = name.toUpperCase()
    if (FOREIGN_PREFIXES.some((p) => upper.startsWith(p))) return false
    return upper.startsWith('CRM') || known.some((k) => distance(upper, k) <= LOOKALIKE_DISTANCE)
  })
}

/** One warning line per look-alike, naming the nearest public variables. */
export function lookalikeWarnings(names: readonly string[], known: readonly string[]): string[] {
  return lookalikeVariables(names, known).map((name) => {
    const near = nearestTerms(name.toUpperCase(), known)
    return near.length > 0
      ? `warning: ${name} is not a variable crm-conformance reads: did you mean ${near.join(' or ')}?`
      : `warning: ${name} is not a variable crm-conformance reads (docs/reference.md lists them): it is ignored`
  })
}
