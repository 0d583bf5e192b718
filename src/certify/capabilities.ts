// CAPABILITIES.md: what the server chose where the spec leaves the choice open, one section per open
// question, always in the same order and with the same headings, so that `diff` of two certified servers'
// pages shows exactly where they differ. Fed by report.json's `capabilities` (the run's capabilities and the
// checks' observations, src/report/build.ts mergeCapabilities).
import { capabilityText, CAPABILITY_TOPICS, groupCapabilities } from '../report/capability-topics.ts'
import { mdCell } from '../text/markdown-cell.ts'
import type { RunReport } from '../report/types.ts'
import type { ProductInfo } from './product.ts'

export { CAPABILITY_TOPICS, groupCapabilities, type CapabilityTopic } from '../report/capability-topics.ts'

export function renderCapabilitiesMarkdown(report: Pick<RunReport, 'capabilities' | 'tool' | 'spec' | 'runId' | 'target'>, product: ProductInfo): string {
  const { groups, other } = groupCapabilities(report.capabilities ?? {})
  const out: string[] = [
    `# Capabilities: ${mdCell(product.product)} ${mdCell(product.version)}`,
    '',
    'Where the spec leaves a choice open ("not shown"), what this server chose, as observed by the run. Information, never a',
    "failure: every choice here is legal. The headings and their order are fixed, so `diff` of two submissions'",
    '`CAPABILITIES.md` shows where two certified servers differ.',
    '',
    `- vendor: ${mdCell(product.vendor)}`,
    `- suite: crm-conformance ${mdCell(report.tool?.version)}`,
    `- spec: sha256 ${mdCell(report.spec?.digest)}`,
    `- run: ${mdCell(report.runId)}${report.target?.embedded ? ` (embedded reference server${report.target.variant ? `, variant ${mdCell(report.target.variant)}` : ''})` : ''}`,
    '',
  ]
  for (const topic of CAPABILITY_TOPICS) {
    const entries = groups.get(topic.id) ?? []
    out.push(`## ${topic.heading} (${topic.clause})`, '')
    if (entries.length === 0) {
      out.push('Not observed in this run.', '')
      continue
    }
    out.push('| observation | value |', '|---|---|')
    for (const [key, value] of entries) out.push(`| ${mdCell(key, 200)} | ${mdCell(capabilityText(value), 400)} |`)
    out.push('')
  }
  out.push(
    '## Other observations',
    '',
    `${other.length} further observation(s) of this run (values queried, counts, timings) differ from run to run; they are in report.json (\`capabilities\`) and report.html (Capabilities).`,
  )
  return `${out.join('\n').trimEnd()}\n`
}
