// Faults of the reference server picked by what catches them, so that a test wanting a failing run does not
// name a fault id another engineer may rename.
import { ALL_FAULTS } from '../../src/selfcheck/matrix.ts'
import type { Level } from '../../src/checks/types.ts'
import { catalogue } from '../../suites/index.ts'

const levelOf = new Map(catalogue.map((c) => [c.id, c.level]))

/**
 * The first fault caught by checks of `level` (and, with `only`, by no check of another level), with those
 * checks: run with `--fault <fault> --only <checks>` they fail.
 */
export function faultCaughtBy(level: Level, options: { only?: boolean } = {}): { fault: string; checks: string[] } {
  for (const fault of ALL_FAULTS) {
    const catches = fault.catches.filter((id) => levelOf.has(id))
    const checks = catches.filter((id) => levelOf.get(id) === level)
    if (checks.length > 0 && (!options.only || checks.length === catches.length)) return { fault: fault.id, checks }
  }
  throw new Error(`no fault of the reference server is caught by a ${level} check${options.only ? ' alone' : ''}`)
}
