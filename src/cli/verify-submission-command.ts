// `crm-conformance verify-submission DIR`: prints what holds and what is wrong. Exit codes: 0 the submission
// is intact and compliant; 1 it is refused (a problem, or a verdict other than compliant); 2 DIR is not a folder.
import { readFile, stat } from 'node:fs/promises'
import { specDigest } from '../spec/spec-text.ts'
import { printable } from '../text/printable.ts'
import { TOOL_VERSION } from '../version.ts'
import { verifySubmission, type VerifyResult } from '../certify/verify.ts'
import { policyProblem, type SignerPolicy } from '../certify/signature.ts'
import type { CertifiedReport } from '../certify/profile.ts'
import { describeSpotCheck, spotCheck, type SpotCheckOptions, type SpotCheckResult } from './spot-check.ts'
import { join } from 'node:path'
import { counted } from '../text/counted.ts'

export interface VerifyCommandOptions {
  json?: boolean
  write?: (text: string) => void
  /** `--key <file>`: the vendor's public key. */
  key?: string
  certificateIdentity?: string
  certificateIdentityRegexp?: string
  certificateOidcIssuer?: string
  /** `--trusted-root <file>`: a Sigstore trusted_root.json (default: the public-good root by TUF). */
  trustedRoot?: string
  requireSignature?: boolean
  /** `--spot-check`: re-run a sample against the vendor's sandbox (./spot-check.ts). */
  spotCheck?: Omit<SpotCheckOptions, 'env'>
  env?: NodeJS.ProcessEnv
}

/** The signer the customer names, read from the files given; a sentence when a file or the combination is unusable. */
async function signerPolicy(options: VerifyCommandOptions): Promise<SignerPolicy | string> {
  const policy: SignerPolicy = {
    certificateIdentity: options.certificateIdentity,
    certificateIdentityRegexp: options.certificateIdentityRegexp,
    certificateOidcIssuer: options.certificateOidcIssuer,
    requireSignature: options.requireSignature,
  }
  try {
    if (options.key) policy.key = { pem: await readFile(options.key, 'utf8'), source: options.key }
  } catch (error) {
    return `--key ${options.key}: ${(error as Error).message}`
  }
  try {
    if (options.trustedRoot) policy.trustedRoot = JSON.parse(await readFile(options.trustedRoot, 'utf8'))
  } catch (error) {
    return `--trusted-root ${options.trustedRoot}: ${(error as Error).message}`
  }
  if (options.certificateIdentity !== undefined && options.certificateIdentityRegexp !== undefined)
    return '--certificate-identity and --certificate-identity-regexp: give one'
  return policyProblem(policy) ?? policy
}

export async function verifyCommand(dir: string, options: VerifyCommandOptions = {}): Promise<{ exitCode: number; result?: VerifyResult }> {
  // What it prints may quote outside text (a server's answers, a file's contents): printed inert (src/text/printable.ts).
  const rawWrite = options.write ?? ((text: string) => process.stdout.write(text))
  const write = (text: string) => rawWrite(printable(text))
  if (!(await stat(dir).catch(() => undefined))?.isDirectory()) {
    write(`${dir} is not a folder\n`)
    return { exitCode: 2 }
  }
  const signer = await signerPolicy(options)
  if (typeof signer === 'string') {
    write(`${signer}\n`)
    return { exitCode: 2 }
  }
  const { catalogue } = await import('../../suites/index.ts')
  const result = await verifySubmission(dir, { catalogue, toolVersion: TOOL_VERSION, specDigest: specDigest(), signer })
  // The spot check compares rows: only a report this suite version can judge (the steps above said why not).
  let spot: SpotCheckResult | undefined
  if (options.spotCheck && result.suiteVersion === TOOL_VERSION) {
    const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as CertifiedReport
    spot = await spotCheck(report, catalogue, { ...options.spotCheck, env: options.env })
    result.problems.push(...describeSpotCheck(spot).problems)
    result.accepted = result.accepted && result.problems.length === 0
  }
  const exitCode = result.accepted ? 0 : 1
  if (options.json) {
    write(`${JSON.stringify(spot ? { ...result, spotCheck: spot } : result, null, 2)}\n`)
    return { exitCode, result }
  }
  const p = result.product
  write(`${dir}: ${p ? `${p.product} ${p.version} by ${p.vendor}` : 'unknown product'}\n`)
  for (const line of result.confirmed) write(`  ✓ ${line}\n`)
  for (const line of spot ? describeSpotCheck(spot).lines : []) write(`  ${line}\n`)
  for (const line of result.problems) write(`  ✗ ${line}\n`)
  if (result.signer) write(`signed by: ${result.signer}\n`)
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
