// badge.json: a shields.io endpoint (https://shields.io/badges/endpoint-badge).
import { verdictLabel } from './scope.ts'
import type { RunReport, Verdict } from './types.ts'

export interface ShieldsEndpointBadge {
  schemaVersion: 1
  label: string
  message: string
  color: string
}

const COLOR: Record<Verdict, string> = { compliant: 'brightgreen', partial: 'yellow', 'non-compliant': 'red' }
/** A compliant subset or narrower profile is green, never the bright green of a complete run. */
const SCOPED_COMPLIANT_COLOR = 'green'

/**
 * `compliant · 212/212`: the verdict, then checks passed over checks run (a waived failure is not a pass).
 * The verdict names what it covers unless the run was complete, `compliant (subset: 2 of 511 checks) · 2/2`.
 * The label is derived here from verdict and scope (not read from verdictLabel) so a caller that overrides the
 * verdict (a certification) gets a label that matches it.
 */
export function renderBadge(report: RunReport): ShieldsEndpointBadge {
  // A traffic report's label is its own (what was observed), not a profile's.
  const label = report.traffic ? report.verdictLabel : verdictLabel(report.verdict, report.scope, report.profile, report.checks)
  const scoped = label !== report.verdict
  return {
    schemaVersion: 1,
    label: 'CRM API conformance',
    message: `${label} · ${report.summary.passed}/${report.summary.total}`,
    color: scoped && report.verdict === 'compliant' ? SCOPED_COMPLIANT_COLOR : (COLOR[report.verdict] ?? 'lightgrey'),
  }
}
