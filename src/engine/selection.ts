// --only / --skip: a value selects a check by id, id prefix (`records.account`), area or clause (`§4.1`).
import type { CheckDefinition } from '../checks/types.ts'
import { nearestTerms } from '../config/nearest-terms.ts'

export function selects(value: string, check: CheckDefinition): boolean {
  if (value.startsWith('§')) return check.clauses.some((c) => c === value || c.startsWith(`${value}.`))
  return check.id === value || check.id.startsWith(`${value}.`) || check.area === value
}

export function select(checks: CheckDefinition[], only: string[] = [], skip: string[] = []): CheckDefinition[] {
  return checks.filter((c) => (only.length === 0 || only.some((v) => selects(v, c))) && !skip.some((v) => selects(v, c)))
}

/** Every value that selects something: areas, ids and their dotted prefixes, clauses and their parents (`§4` of `§4.1`). */
export function selectionTerms(checks: readonly CheckDefinition[]): { names: string[]; clauses: string[] } {
  const names = new Set<string>()
  const clauses = new Set<string>()
  for (const check of checks) {
    names.add(check.area)
    const parts = check.id.split('.')
    for (let i = 1; i <= parts.length; i++) names.add(parts.slice(0, i).join('.'))
    for (const clause of check.clauses) {
      const parts = clause.split('.')
      for (let i = 1; i <= parts.length; i++) clauses.add(parts.slice(0, i).join('.'))
    }
  }
  return { names: [...names].sort(), clauses: [...clauses].sort() }
}

/**
 * Why a selection cannot run, or undefined when it can: each `--only` or `--skip` value that selects no check
 * (a typo would otherwise run nothing, or skip nothing, and still exit 0), with the nearest ids, areas or
 * clauses; and a selection whose `--skip` removes everything its `--only` chose.
 */
export function selectionProblem(checks: CheckDefinition[], only: string[] = [], skip: string[] = [], onlyOption = '--only'): string | undefined {
  const { names, clauses } = selectionTerms(checks)
  const lines: string[] = []
  for (const [option, values] of [
    [onlyOption, only],
    ['--skip', skip],
  ] as const) {
    for (const value of values) {
      if (checks.some((c) => selects(value, c))) continue
      const isClause = value.startsWith('§')
      const near = nearestTerms(value, isClause ? clauses : names)
      const hint =
        near.length > 0
          ? `did you mean ${near.join(', ')}?`
          : isClause
            ? `the checks cite ${clauses.filter((c) => !c.includes('.')).join(', ')} and their sub-clauses`
            : 'a value is a check id or id prefix, an area, or a clause (§4.1); `crm-conformance list` prints them'
      lines.push(`${option} ${value} selects no check: ${hint}`)
    }
  }
  if (lines.length === 0 && select(checks, only, skip).length === 0) {
    const chosen = only.length > 0 ? `every check --only ${only.join(',')} selects` : 'every check'
    lines.push(`--skip ${skip.join(',')} removes ${chosen}: nothing would run`)
  }
  return lines.length > 0 ? lines.join('\n') : undefined
}
