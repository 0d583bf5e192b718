// `crm-conformance diff <before> <after>`: two report folders (or report.json files) compared, one line per
// changed check (src/diff/diff.ts). Exit codes: 0 no regression, 1 a check that passed before now fails or
// errors, 2 an input is unreadable or the suite versions differ in their check ids.
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { diffExitCode, diffMarkdown, diffReports, diffText, type ComparedReport } from '../diff/diff.ts'

export interface DiffCommandOptions {
  json?: boolean
  markdown?: boolean
  write?: (text: string) => void
}

/** A report folder's report.json, or the file itself; throws a sentence naming the input when it cannot be read. */
export function readReport(input: string): ComparedReport {
  const file = existsSync(input) && statSync(input).isDirectory() ? join(input, 'report.json') : input
  let parsed: unknown
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    throw new Error(`cannot read ${file}: ${(error as Error).message.split('\n')[0]}`)
  }
  const checks = (parsed as { checks?: unknown })?.checks
  if (!Array.isArray(checks) || checks.some((c) => typeof c?.id !== 'string' || typeof c?.status !== 'string'))
    throw new Error(`${file} is not a crm-conformance report.json (no checks with an id and a status)`)
  return parsed as ComparedReport
}

export function diffCommand(before: string, after: string, options: DiffCommandOptions = {}): { exitCode: number } {
  const write = options.write ?? ((text: string) => process.stdout.write(text))
  let reports: [ComparedReport, ComparedReport]
  try {
    reports = [readReport(before), readReport(after)]
  } catch (error) {
    write(`${(error as Error).message}\n`)
    return { exitCode: 2 }
  }
  const diff = diffReports(...reports)
  const exitCode = diffExitCode(diff)
  if (options.json) write(`${JSON.stringify({ ...diff, exitCode }, null, 2)}\n`)
  else if (options.markdown) write(diffMarkdown(diff))
  else write(diffText(diff))
  return { exitCode }
}
