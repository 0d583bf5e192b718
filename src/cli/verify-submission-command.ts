// `crm-conformance verify-submission DIR`: prints what holds and what is wrong. Exit codes: 0 the submission
// is intact and compliant; 1 it is refused (a problem, or a verdict other than compliant); 2 DIR is not a folder.
import { stat } from 'node:fs/promises'
import { specDigest } from '../spec/spec-text.ts'
import { printable } from '../text/printable.ts'
import { TOOL_VERSION } from '../version.ts'
import { verifySubmission, type VerifyResult } from '../certify/verify.ts'
import { counted } from '../text/counted.ts'

export interface VerifyCommandOptions {
  json?: boolean
  write?: (text: string) => void
}

export async function verifyCommand(dir: string, options: VerifyCommandOptions = {}): Promise<{ exitCode: number; result?: VerifyResult }> {
  // What it prints may quote outside text (a server's answers, a file's contents): printed inert (src/text/printable.ts).
  const rawWrite = options.write ?? ((text: string) => process.stdout.write(text))
  const write = (text: string) => rawWrite(printable(text))
  if (!(await stat(dir).catch(() => undefined))?.isDirectory()) {
    write(`${dir} is not a folder\n`)
    return { exitCode: 2 }
  }
  const { catalogue } = await import('../../suites/index.ts')
  const result = await verifySubmission(dir, { catalogue, toolVersion: TOOL_VERSION, specDigest: specDigest() })
  const exitCode = result.accepted ? 0 : 1
  if (options.json) {
    write(`${JSON.stringify(result, null, 2)}\n`)
    return { exitCode, result }
  }
  const p = result.product
  write(`${dir}: ${p ? `${p.product} ${p.version} by ${p.vendor}` : 'unknown product'}\n`)
  for (const line of result.confirmed) write(`  ✓ ${line}\n`)
  for (const line of result.problems) write(`  ✗ ${line}\n`)
  if (result.manifestDigest) write(`MANIFEST.sha256 sha256: ${result.manifestDigest} (compare with the digest the vendor published)\n`)
  if (result.accepted) {
    write(`ACCEPTED: compliant with the CRM API spec sha256 ${result.specDigest}, crm-conformance ${result.suiteVersion}\n`)
  } else if (result.problems.length > 0) {
    write(`REFUSED: ${counted(result.problems.length, 'problem')}${result.verdict ? `; the rows give ${result.verdict}` : ''}\n`)
  } else {
    write(`REFUSED: the submission is intact, but its verdict is ${result.verdict}, not compliant:\n`)
    for (const reason of result.verdictReasons) write(`  ${reason}\n`)
  }
  return { exitCode, result }
}
