// badge.json: a shields.io endpoint (https://shields.io/badges/endpoint-badge).
import type { RunReport, Verdict } from './types.ts'

export interface ShieldsEndpointBadge {
  schemaVersion: 1
  label: string
  message: string
  color: string
}

const COLOR: Record<Verdict, string> = { compliant: 'brightgreen', partial: 'yellow', 'non-compliant': 'red' }

/** `compliant · 212/212`: the verdict, then checks passed over checks run (a waived failure is not a pass). */
export function renderBadge(report: RunReport): ShieldsEndpointBadge {
  return {
    schemaVersion: 1,
    label: 'CRM API conformance',
    message: `${report.verdict} · ${report.summary.passed}/${report.summary.total}`,
    color: COLOR[report.verdict] ?? 'lightgrey',
  }
}
