// `list --where <id|clause>`: the file and line that declare each check a value selects (the values of --only:
// an id, an id prefix, an area or a clause), as a path from the working directory, so a failing id from a
// report leads to its code.
import { join, relative, sep } from 'node:path'
import type { CheckDefinition } from '../checks/types.ts'
import { select, selectionProblem } from '../engine/selection.ts'
import { PROJECT_ROOT } from '../version.ts'

export interface WhereAnswer {
  /** The selected checks, in catalogue order. */
  checks: CheckDefinition[]
  /** One line per selected check: `<file>:<line>  <id>  <level>  <clauses>  <title>`. */
  lines: string[]
  /** Each value that selects no check, with the nearest ones; then nothing is selected. */
  problem?: string
}

/** `declaredAt` (from the package root) as a path from `cwd`. */
export function declarationFrom(declaredAt: string | undefined, cwd: string): string {
  if (!declaredAt) return '(declaration not recorded)'
  const colon = declaredAt.lastIndexOf(':')
  const file = relative(cwd, join(PROJECT_ROOT, declaredAt.slice(0, colon)))
    .split(sep)
    .join('/')
  return `${file}${declaredAt.slice(colon)}`
}

export function whereChecks(checks: CheckDefinition[], values: string[], cwd: string = process.cwd()): WhereAnswer {
  const problem = selectionProblem(checks, values, [], '--where')
  if (problem) return { checks: [], lines: [], problem }
  const selected = select(checks, values)
  return { checks: selected, lines: selected.map((c) => [declarationFrom(c.declaredAt, cwd), c.id, c.level, c.clauses.join(','), c.title].join('  ')) }
}
