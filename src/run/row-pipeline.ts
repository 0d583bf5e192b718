// After the run, before the report: the amendments to the result rows, one ordered list of pure functions of the
// rows and what the run was asked. The order is the meaning: key warnings first (a note on the rows a warned key
// touched), then the certifying rows a certification owes (an error row for each that did not report), then
// waivers last, so that they excuse a failure as finally written and see every row a waiver could name.
import type { CheckDefinition, CheckResult } from '../checks/types.ts'
import { completeCertifyingRows } from '../certify/profile.ts'
import { applyWaivers, type Waiver, type WaiverOutcome } from './waivers.ts'
import { annotateResults, type KeyWarning } from './preflight.ts'
import type { ReplayTarget } from '../checks/replay.ts'

/** What the amendments read besides the rows: the run's request and how it ended. */
export interface RowContext {
  /** The whole catalogue (a waiver for a check left out by --only is unused, not unknown). */
  catalogue: readonly CheckDefinition[]
  target: ReplayTarget
  startedAt: Date
  keyWarnings?: readonly KeyWarning[]
  /** `certify`: a row for every certifying check. */
  certification?: boolean
  waivers?: readonly Waiver[]
  waiversFile?: string
  harnessError?: string
}

export interface AmendedRows {
  rows: CheckResult[]
  /** Set by the waiver step when the run has waivers. */
  waiverOutcome?: WaiverOutcome
}

export interface RowAmendment {
  name: string
  amend(rows: AmendedRows, context: RowContext): AmendedRows
}

export const ROW_AMENDMENTS: readonly RowAmendment[] = [
  {
    name: 'key warnings',
    amend: (done, context) => (context.keyWarnings?.length ? { ...done, rows: annotateResults(done.rows, context.catalogue, context.keyWarnings) } : done),
  },
  {
    name: 'certifying rows',
    amend: (done, context) =>
      context.certification
        ? {
            ...done,
            rows: completeCertifyingRows(done.rows, context.catalogue, {
              target: context.target,
              harnessErrors: context.harnessError ? [context.harnessError] : [],
            }),
          }
        : done,
  },
  {
    name: 'waivers',
    amend: (done, context) => {
      if (!context.waivers) return done
      const ids = new Set(context.catalogue.map((c) => c.id))
      const { results, outcome } = applyWaivers(done.rows, context.waivers, ids, context.startedAt, context.waiversFile)
      return { rows: results, waiverOutcome: outcome }
    },
  },
]

/** The rows with every amendment applied, in order; the input is not changed. */
export function amendRows(rows: readonly CheckResult[], context: RowContext): AmendedRows {
  return ROW_AMENDMENTS.reduce<AmendedRows>((done, step) => step.amend(done, context), { rows: [...rows] })
}
