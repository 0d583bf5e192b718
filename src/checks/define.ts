// Declaring a check, and the two ways a check ends other than passing or breaking.
import type { CheckDefinition, FailureDetail } from './types.ts'

export function defineCheck(check: CheckDefinition): CheckDefinition {
  return check
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
