// Declaring a check, and the two ways a check ends other than passing or breaking.
import { relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PROJECT_ROOT } from '../version.ts'
import type { CheckDefinition, FailureDetail } from './types.ts'

/** A check, with where it is declared (`declaredAt`): the call site of this function. */
export function defineCheck(check: CheckDefinition): CheckDefinition {
  check.declaredAt ??= callSiteOf(defineCheck)
  return check
}

/**
 * Where `fn` was called from, relative to the package root: `suites/records/read.ts:42` when run from the
 * sources (tsx and vitest map the stack to them), `dist/suites/records/read.js:37` when run from the build the
 * package ships (its line numbers are those of the JavaScript, which is all an installed package holds).
 * Undefined when the stack names no file of the package.
 */
export function callSiteOf(fn: Function): string | undefined {
  const holder: { stack?: string } = {}
  Error.captureStackTrace(holder, fn)
  for (const line of (holder.stack ?? '').split('\n').slice(1)) {
    const frame = /\(?((?:file:\/\/)?[^()\s]+?):(\d+):\d+\)?\s*$/.exec(line)
    if (!frame) continue
    const file = frame[1]!.startsWith('file://') ? fileURLToPath(frame[1]!) : frame[1]!
    const path = relative(PROJECT_ROOT, file)
    if (path.startsWith('..') || path.startsWith(sep) || path.includes(`node_modules${sep}`)) continue
    return `${path.split(sep).join('/')}:${frame[2]}`
  }
  return undefined
}

/** The server broke the clause. */
export class CheckFailed extends Error {
  constructor(
    message: string,
    readonly detail: FailureDetail = {},
  ) {
    super(message)
    this.name = 'CheckFailed'
  }
}

/** A precondition is not met (a key not configured, a fixture not found): skipped, never passed. */
export class CheckSkipped extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'CheckSkipped'
  }
}
