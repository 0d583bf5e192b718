// `crm-conformance compare <report dirs or submission folders…>`: the reports read (a report folder, a
// submission folder with its PRODUCT.json, or a report.json), anything that is not a report refused in one line
// (exit 2), and the side-by-side table (src/report/compare.ts) written as Markdown and HTML.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { renderCompareHtml, renderCompareMarkdown } from '../report/compare-render.ts'
import { compareReports, type CompareInput, type ComparableReport } from '../report/compare.ts'
import { printableLine } from '../text/printable.ts'

export interface CompareCommandOptions {
  /** compare.md and compare.html written there. */
  reportDir?: string
  markdown?: string
  html?: string
  /** Where the table goes when no file is asked for, and the lines saying what was written. */
  write?: (text: string) => void
  /** Warnings and refusals. */
  warn?: (text: string) => void
}

class NotAReport extends Error {}

const LEVELS = new Set(['MUST', 'SHOULD', 'INFO'])

/** One input as a CompareInput; throws NotAReport with the sentence that says why it is not one. */
export function readCompareInput(input: string): CompareInput {
  const isDir = existsSync(input) && statSync(input).isDirectory()
  const file = isDir ? join(input, 'report.json') : input
  if (!existsSync(file)) throw new NotAReport(isDir ? `${input} holds no report.json` : `${input} does not exist`)
  let parsed: unknown
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    throw new NotAReport(`${file} is not JSON (${(error as Error).message.split('\n')[0]})`)
  }
  const report = parsed as Partial<ComparableReport> | null
  const checks = report?.checks
  const isCheck = (c: unknown) => {
    const check = c as { id?: unknown; status?: unknown; level?: unknown } | null
    return typeof check?.id === 'string' && typeof check.status === 'string' && typeof check.level === 'string' && LEVELS.has(check.level)
  }
  if (
    typeof report !== 'object' ||
    report === null ||
    Array.isArray(report) ||
    report.tool?.name !== 'crm-conformance' ||
    !Array.isArray(checks) ||
    !checks.every(isCheck)
  )
    throw new NotAReport(`${file} is not a crm-conformance report.json (a tool named crm-conformance and checks with an id, a level and a status)`)
  const productFile = join(dirname(file), 'PRODUCT.json')
  let product: CompareInput['product']
  if (existsSync(productFile)) {
    try {
      const read = JSON.parse(readFileSync(productFile, 'utf8')) as unknown
      if (typeof read === 'object' && read !== null) product = read as CompareInput['product']
    } catch {
      throw new NotAReport(`${productFile} is not JSON: a submission folder's PRODUCT.json names the product`)
    }
  }
  const label = input.replace(/[/\\]+$/, '').replace(/[/\\]report\.json$/, '') || input
  return { label, report: report as ComparableReport, ...(product ? { product } : {}) }
}

export function compareCommand(inputs: string[], options: CompareCommandOptions = {}): { exitCode: 0 | 2; written: string[] } {
  const write = options.write ?? ((text: string) => void process.stdout.write(text))
  const warn = options.warn ?? ((text: string) => void process.stderr.write(text))
  const read: CompareInput[] = []
  for (const input of inputs) {
    try {
      read.push(readCompareInput(input))
    } catch (error) {
      if (!(error instanceof NotAReport)) throw error
      warn(`compare: ${printableLine(error.message)}\n`)
      return { exitCode: 2, written: [] }
    }
  }
  const comparison = compareReports(read)
  for (const warning of comparison.warnings) warn(`compare: warning: ${printableLine(warning)}\n`)
  const now = new Date()
  const markdown = renderCompareMarkdown(comparison, now)
  const targets: [string, string][] = []
  if (options.reportDir)
    targets.push([join(options.reportDir, 'compare.md'), markdown], [join(options.reportDir, 'compare.html'), renderCompareHtml(comparison, now)])
  if (options.markdown) targets.push([options.markdown, markdown])
  if (options.html) targets.push([options.html, renderCompareHtml(comparison, now)])
  if (targets.length === 0) {
    write(markdown)
    return { exitCode: 0, written: [] }
  }
  for (const [file, text] of targets) {
    mkdirSync(dirname(resolve(file)), { recursive: true })
    writeFileSync(file, text)
  }
  write(
    `compared ${read.length} report${read.length === 1 ? '' : 's'}, ${comparison.rows.length} clauses: ${targets.map(([f]) => printableLine(f)).join(', ')}\n`,
  )
  return { exitCode: 0, written: targets.map(([f]) => f) }
}
