// --only / --skip: a value selects a check by id, id prefix (`records.account`), area or clause (`§4.1`).
import type { CheckDefinition } from '../checks/types.ts'

export function selects(value: string, check: CheckDefinition): boolean {
  if (value.startsWith('§')) return check.clauses.some((c) => c === value || c.startsWith(`${value}.`))
  return check.id === value || check.id.startsWith(`${value}.`) || check.area === value
}

export function select(checks: CheckDefinition[], only: string[] = [], skip: string[] = []): CheckDefinition[] {
  return checks.filter((c) => (only.length === 0 || only.some((v) => selects(v, c))) && !skip.some((v) => selects(v, c)))
}
