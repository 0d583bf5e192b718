// junit.xml, rendered from report.json like every other report file (xmlbuilder2 writes and escapes the XML).
// The JUnit format of Jenkins and Ant: one <testsuite> per area, one <testcase> per check and nothing else.
// Every character XML 1.0 forbids is shown as a visible escape (src/text/printable.ts).
// A waived failure is a skipped case whose message starts `waived:`, so a CI view does not go red for it.
import { create } from 'xmlbuilder2'
import type { CheckResult } from '../checks/types.ts'
import { xmlPrintable } from '../text/printable.ts'
import type { RunReport } from './types.ts'

/** The test case name: what a CI view lists, so it carries the id, level and clauses. */
export function junitCaseName(result: Pick<CheckResult, 'id' | 'level' | 'clauses' | 'title'>): string {
  return `${result.id} [${result.level} ${result.clauses.join(' ')}] ${result.title}`
}

/** Longest message attribute; the whole text goes in the element's body. */
const MAX_MESSAGE_CHARS = 500

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > MAX_MESSAGE_CHARS ? `${flat.slice(0, MAX_MESSAGE_CHARS - 1)}…` : flat
}

const seconds = (ms: number) => (ms / 1000).toFixed(3)

function details(result: CheckResult): string {
  return [result.message, result.expected && `expected: ${result.expected}`, `replay: ${result.replay}`].filter(Boolean).join('\n')
}

type Kind = 'passed' | 'failure' | 'error' | 'skipped'

function kindOf(result: CheckResult): Kind {
  if (result.status === 'failed') return result.waived ? 'skipped' : 'failure'
  if (result.status === 'error') return 'error'
  return result.status === 'skipped' ? 'skipped' : 'passed'
}

function labelProperty(report: RunReport, id: string): [['label', string]] | [] {
  const label = report.rerun?.checks.find((c) => c.id === id)?.label
  return label ? [['label', label]] : []
}

export function renderJunit(report: RunReport): string {
  const byArea = new Map<string, CheckResult[]>()
  for (const result of report.checks) byArea.set(result.area, [...(byArea.get(result.area) ?? []), result])
  const count = (rows: CheckResult[], kind: Kind) => rows.filter((r) => kindOf(r) === kind).length
  const totalMs = (rows: CheckResult[]) => rows.reduce((sum, r) => sum + r.durationMs, 0)

  const doc = create({ version: '1.0', encoding: 'UTF-8' })
  const suites = doc.ele('testsuites', {
    name: 'crm-conformance',
    tests: report.checks.length,
    failures: count(report.checks, 'failure'),
    errors: count(report.checks, 'error'),
    skipped: count(report.checks, 'skipped'),
    time: seconds(report.durationMs),
  })
  for (const [area, rows] of byArea) {
    const suite = suites.ele('testsuite', {
      name: area,
      tests: rows.length,
      failures: count(rows, 'failure'),
      errors: count(rows, 'error'),
      skipped: count(rows, 'skipped'),
      time: seconds(totalMs(rows)),
      timestamp: report.startedAt.replace(/\.\d+Z$|Z$/, ''),
    })
    const properties = suite.ele('properties')
    for (const [name, value] of [
      ['runId', report.runId],
      ['target', report.target.baseUrl],
      ['profile', report.profile],
      ['seed', String(report.seed)],
      ['verdict', report.verdict],
      ...(report.interrupted ? [['interrupted', report.interrupted.reason]] : []),
    ]) {
      properties.ele('property', { name, value })
    }
    for (const result of rows) {
      const testcase = suite.ele('testcase', { name: junitCaseName(result), classname: `crm-conformance.${area}`, time: seconds(result.durationMs) })
      const props = testcase.ele('properties')
      for (const [name, value] of [
        ['id', result.id],
        ['clause', result.clauses.join(' ')],
        ['level', result.level],
        ['status', result.status],
        // --rerun-failed / --repeat: fixed, still failing, flaky.
        ...labelProperty(report, result.id),
      ] as const) {
        props.ele('property', { name, value })
      }
      const kind = kindOf(result)
      if (kind === 'failure') testcase.ele('failure', { message: oneLine(result.message), type: `${result.level} ${result.clause}` }).txt(details(result))
      else if (kind === 'error') testcase.ele('error', { message: oneLine(result.message), type: 'harness error' }).txt(details(result))
      else if (kind === 'skipped') testcase.ele('skipped', { message: oneLine(result.waived ? `waived: ${result.waived.reason}` : result.message) })
    }
  }
  // xmlbuilder2 escapes markup but writes characters XML 1.0 forbids as they are; a server's U+FFFE or ESC in an
  // id, code or path would make the file unreadable to CI. Markup is plain ASCII, so escaping the whole text is exact.
  return `${xmlPrintable(doc.end({ prettyPrint: true }))}\n`
}
