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
/** Observed traffic: the server's verdict in a few words, the client's violations apart (a badge is no sentence). */
function trafficBadge(report: RunReport): ShieldsEndpointBadge {
  const traffic = report.traffic!
  const tone = traffic.headline?.tone ?? (traffic.violations.server > 0 ? 'violations' : 'conformant')
  const server = traffic.violations.server
  const client = traffic.violations.client > 0 ? ` · client: ${traffic.violations.client} broken` : ''
  const message =
    tone === 'nothing-verified'
      ? 'nothing verified'
      : tone === 'violations'
        ? `${server} server rule${server === 1 ? '' : 's'} broken${client}`
        : `${tone === 'partial' ? 'partial' : 'conformant'}${client}`
  const color =
    tone === 'nothing-verified'
      ? 'lightgrey'
      : tone === 'violations'
        ? 'red'
        : tone === 'partial'
          ? COLOR.partial
          : client
            ? 'yellowgreen'
            : SCOPED_COMPLIANT_COLOR
  return { schemaVersion: 1, label: 'CRM API traffic', message, color }
}

export function renderBadge(report: RunReport): ShieldsEndpointBadge {
  if (report.traffic) return trafficBadge(report)
  const label = verdictLabel(report.verdict, report.scope, report.profile, report.checks)
  const scoped = label !== report.verdict
  return {
    schemaVersion: 1,
    label: 'CRM API conformance',
    message: `${label} · ${report.summary.passed}/${report.summary.total}`,
    color: scoped && report.verdict === 'compliant' ? SCOPED_COMPLIANT_COLOR : (COLOR[report.verdict] ?? 'lightgrey'),
  }
}
