// `--variant` and `--fault` (run, certify, serve) are checked with the other options: an unknown name is one
// line naming the nearest, before anything starts or is written.

import { printableLine } from '../text/printable.ts'

/** `--variant` and `--fault`: names the reference server knows, else one line with the nearest. */
export async function embeddedOptionProblem(variant: string | undefined, faults: string[] | undefined): Promise<string | undefined> {
  if (variant === undefined && !faults?.length) return undefined
  const { VARIANT_NAMES } = await import('../reference/variants.ts')
  const { FAULTS } = await import('../reference/faults.ts')
  const { nearestTerms } = await import('../config/nearest-terms.ts')
  const unknown = (flag: string, value: string, known: readonly string[], what: string) => {
    const near = nearestTerms(value, known)
    // A fault id is `<family>.<name>`: a misspelt family (`paginaton`) is near no whole id, but near its family.
    const families = [...new Set(known.filter((k) => k.includes('.')).map((k) => k.split('.')[0]!))]
    const family = near.length === 0 ? nearestTerms(value.split('.')[0]!, families) : []
    const count = (f: string) => known.filter((k) => k.startsWith(`${f}.`)).length
    const hint =
      near.length > 0
        ? `: did you mean ${near.join(' or ')}?`
        : family.length > 0
          ? `: did you mean one of ${family.map((f) => `the ${count(f)} ${f}.* faults`).join(' or ')}? \`crm-conformance list --faults\` lists them`
          : ` (${known.length <= 8 ? `known: ${known.join(', ')}` : `none is near; \`crm-conformance list --faults\` lists the ${known.length} known`})`
    // What was typed is echoed inert: it may come from a pipeline variable.
    return `${flag} ${printableLine(value)} is not ${what}${hint}`
  }
  if (variant !== undefined && !(VARIANT_NAMES as readonly string[]).includes(variant))
    return unknown('--variant', variant, VARIANT_NAMES, 'a variant of the reference server')
  const ids = FAULTS.map((f) => f.id as string)
  const bad = (faults ?? []).filter((f) => !ids.includes(f))
  if (bad.length > 0) return bad.map((f) => unknown('--fault', f, ids, 'a fault of the reference server')).join('; ')
  return undefined
}
