// `crm-conformance certify`: the certifying profile (every MUST and SHOULD check, full profile, no selection,
// no waiver), then a submission folder a reviewer can check with verify-submission.
// Exit codes: 0 a compliant submission that verifies; 1 a submission was written but is not compliant (or
// does not verify); 2 nothing was written (bad configuration or product information, the run could not start).
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline/promises'
import { loadConfig, type ResolvedConfig } from '../config/config.ts'
import { newRunId, runCommand } from './run-command.ts'
import { namedSecrets } from '../http/for-config.ts'
import { specDigest } from '../spec/spec-text.ts'
import { printable } from '../text/printable.ts'
import { TOOL_VERSION } from '../version.ts'
import { MANIFEST_FILE } from '../certify/manifest.ts'
import {
  embeddedProduct,
  mergeProduct,
  PRODUCT_PROMPTS,
  readProductFile,
  REQUIRED_PRODUCT_FIELDS,
  validateProduct,
  type ProductInfo,
} from '../certify/product.ts'
import { CERTIFYING_PROFILE } from '../certify/profile.ts'
import { assembleSubmission } from '../certify/submission.ts'
import { verifySubmission } from '../certify/verify.ts'
import { BUNDLE_FILE, ciRunUrl } from '../certify/attestation.ts'
import { suiteCodeDigest } from '../certify/code-digest.ts'
import type { SignerPolicy } from '../certify/signature.ts'
import { ciIdentity, DEFAULT_FULCIO_URL, DEFAULT_REKOR_URL, KeySigner, signStatement, type SigningMethod } from '../certify/signing.ts'
import { readFile, writeFile } from 'node:fs/promises'
import { quotedPath } from '../text/quoted-path.ts'

export interface CertifyCommandOptions {
  baseUrl?: string
  seed?: number
  /** The submission folder; must be missing or empty. Default `submissions/<run id>`. */
  out?: string
  /** PRODUCT.json fields from flags; they win over productFile. */
  product?: Partial<ProductInfo>
  productFile?: string
  /** Embedded reference server only (self-tests of the certification path). */
  variant?: string
  faults?: string[]
  rateLimit?: number
  quiet?: boolean
  /** `--embedded`: certify the embedded reference server on purpose (passed to runCommand). */
  embedded?: boolean
  /** Ask for missing product fields on a terminal (default: when stdin and stdout are terminals). */
  prompt?: boolean
  env?: NodeJS.ProcessEnv
  write?: (text: string) => void
  /** `--sign`: keyless (Sigstore: Fulcio and Rekor) with the CI's OIDC token. */
  sign?: boolean
  /** `--sign-key <PEM>`: an ECDSA P-256 or Ed25519 private key of the vendor's. */
  signKey?: string
  /** A private Sigstore instance (or the tests' mocks): Fulcio, Rekor and its trusted_root.json. */
  fulcioUrl?: string
  rekorUrl?: string
  trustedRoot?: string
  rekorEntryType?: 'dsse' | 'intoto'
}

export interface CertifyOutcome {
  exitCode: number
  dir?: string
  manifestDigest?: string
}

async function promptMissing(known: Record<string, unknown>, write: (text: string) => void): Promise<Record<string, unknown>> {
  const missing = REQUIRED_PRODUCT_FIELDS.filter((f) => typeof known[f] !== 'string' || (known[f] as string).trim() === '')
  if (missing.length === 0) return known
  write('PRODUCT.json: a few facts about the product this run certifies (saved in the submission).\n')
  const rl = createInterface({ input: process.stdin, output: process.stdout })
  try {
    const answers: Record<string, string> = {}
    for (const field of missing) answers[field] = (await rl.question(`  ${PRODUCT_PROMPTS[field]}: `)).trim()
    return mergeProduct(known, answers)
  } finally {
    rl.close()
  }
}

export async function certifyCommand(options: CertifyCommandOptions): Promise<CertifyOutcome> {
  // What it prints may quote outside text (a server's answers, a file's contents): printed inert (src/text/printable.ts).
  const rawWrite = options.write ?? ((text: string) => process.stdout.write(text))
  const write = (text: string) => rawWrite(printable(text))
  const env = options.env ?? process.env
  let config: ResolvedConfig
  try {
    config = loadConfig(env, { baseUrl: options.baseUrl, profile: CERTIFYING_PROFILE, seed: options.seed })
  } catch (error) {
    write(`${(error as Error).message}\n`)
    return { exitCode: 2 }
  }
  const embedded = config.baseUrl === undefined

  // PRODUCT.json first: a run of several minutes must not end on a missing vendor name.
  let fields: Record<string, unknown>
  try {
    fields = mergeProduct(
      embedded ? embeddedProduct(TOOL_VERSION) : undefined,
      options.productFile ? readProductFile(options.productFile) : undefined,
      options.product,
    )
  } catch (error) {
    write(`${(error as Error).message}\n`)
    return { exitCode: 2 }
  }
  if (options.prompt ?? (process.stdin.isTTY && process.stdout.isTTY)) fields = await promptMissing(fields, write)
  const checked = validateProduct(fields, 'product information')
  if (!checked.product) {
    write(`certify needs the product's facts for PRODUCT.json:\n${checked.problems.map((p) => `  - ${p}`).join('\n')}\n`)
    return { exitCode: 2 }
  }
  const product = checked.product

  // How it will be signed, before a run of several minutes: no token or an unusable key is said now.
  const signing = await signingMethod(options, env)
  if (typeof signing === 'string') {
    write(`${signing}\n`)
    return { exitCode: 2 }
  }

  const outDir = resolve(options.out ?? join('submissions', newRunId()))
  const existing = await readdir(outDir).catch(() => [] as string[])
  if (existing.length > 0) {
    write(`${outDir} is not empty: certify writes a submission into a new folder\n`)
    return { exitCode: 2 }
  }

  const runDir = await mkdtemp(join(tmpdir(), 'crm-certify-'))
  try {
    write(
      `certify: ${product.product} ${product.version} (${product.vendor}), every MUST and SHOULD check of crm-conformance ${TOOL_VERSION}, profile ${CERTIFYING_PROFILE}\n`,
    )
    const run = await runCommand({
      baseUrl: options.baseUrl,
      profile: CERTIFYING_PROFILE,
      seed: options.seed,
      reportDir: runDir,
      variant: options.variant,
      faults: options.faults,
      rateLimit: options.rateLimit,
      quiet: options.quiet,
      embedded: options.embedded,
      env,
      // The run's report folder is temporary: the submission folder is printed instead.
      write: (text) => (text.startsWith('reports: ') ? undefined : write(text)),
      certification: true,
    })
    if (!run.report) return { exitCode: 2 }
    const secrets = Object.fromEntries(namedSecrets(config).map((s) => [s.name, s.value]))
    const { catalogue } = await import('../../suites/index.ts')
    const submission = await assembleSubmission(runDir, outDir, product, { code: await suiteCodeDigest(), catalogue, runUrl: ciRunUrl(env) }, secrets)
    const cert = submission.report.certification
    let signerPolicy: SignerPolicy = {}
    if (signing) {
      const signed = await signStatement(submission.statement, signing.method)
      await writeFile(join(outDir, BUNDLE_FILE), `${JSON.stringify(signed.bundle, null, 2)}\n`, 'utf8')
      submission.files.push(BUNDLE_FILE)
      write(`signed: ${BUNDLE_FILE}, ${signed.signer}\n`)
      // A key is known before signing; a keyless identity is what the certificate says (printed by the check).
      signerPolicy = { ...signing.policy, requireSignature: signing.method.kind === 'key' }
    }

    write(
      `\nCERTIFICATION ${cert.verdict.toUpperCase()}: ${product.product} ${product.version}, crm-conformance ${cert.suiteVersion}, spec sha256 ${cert.specDigest}\n`,
    )
    for (const reason of cert.verdictReasons) write(`  ${reason}\n`)
    const notRunShould = cert.notRun.filter((n) => n.level === 'SHOULD')
    for (const n of notRunShould) write(`  SHOULD ${n.id} (${n.clause}) did not run (${n.status}): ${n.reason}\n`)

    // The same checks a reviewer will run: a vendor sees every problem before publishing.
    const verified = await verifySubmission(outDir, { catalogue, toolVersion: TOOL_VERSION, specDigest: specDigest(), signer: signerPolicy })
    for (const problem of verified.problems) write(`  verify-submission: ${problem}\n`)

    write(`submission: ${quotedPath(outDir)}\n`)
    for (const file of submission.files) write(`  ${file}\n`)
    write(`${MANIFEST_FILE} sha256: ${submission.manifestDigest}\n`)
    write(
      'Publish this digest with the submission; a customer checks it with `sha256sum MANIFEST.sha256` and runs `crm-conformance verify-submission <folder>`.\n',
    )
    if (signing?.method.kind === 'key')
      write(`A customer checks the signature: crm-conformance verify-submission <folder> --key <your public key> --require-signature\n`)
    else if (signing && verified.signer)
      write(
        `A customer checks the signature: crm-conformance verify-submission <folder> --certificate-identity <the identity: ${verified.signer}> --certificate-oidc-issuer <its issuer>\n`,
      )
    const exitCode = cert.verdict === 'compliant' && verified.problems.length === 0 ? 0 : 1
    return { exitCode, dir: outDir, manifestDigest: submission.manifestDigest }
  } finally {
    await rm(runDir, { recursive: true, force: true })
  }
}

/**
 * `--sign` / `--sign-key`: the method, and what certify's own verification of the folder names as the signer;
 * undefined when unsigned; a sentence when it cannot sign (no OIDC token, a key that is not P-256 or Ed25519).
 */
async function signingMethod(
  options: CertifyCommandOptions,
  env: NodeJS.ProcessEnv,
): Promise<{ method: SigningMethod; policy: SignerPolicy } | undefined | string> {
  let trustedRoot: unknown
  try {
    if (options.trustedRoot) trustedRoot = JSON.parse(await readFile(options.trustedRoot, 'utf8'))
  } catch (error) {
    return `--trusted-root ${options.trustedRoot}: ${(error as Error).message}`
  }
  if (options.signKey) {
    let pem: string
    try {
      pem = await readFile(options.signKey, 'utf8')
    } catch (error) {
      return `--sign-key ${options.signKey}: ${(error as Error).message}`
    }
    try {
      const signer = new KeySigner(pem)
      return {
        method: { kind: 'key', privateKeyPem: pem, source: options.signKey },
        policy: { key: { pem: signer.publicKeyPem, source: `the public key of ${options.signKey}` } },
      }
    } catch (error) {
      return `--sign-key ${options.signKey} cannot sign: ${(error as Error).message.replace(/^error:[^:]*:/, '')}`
    }
  }
  if (!options.sign) return undefined
  const identity = await ciIdentity(env)
  if (!identity)
    return "certify --sign signs keylessly with the CI's OIDC token: none is available (GitHub Actions: `permissions: id-token: write`; elsewhere SIGSTORE_ID_TOKEN), or sign with --sign-key <PEM>"
  return {
    method: {
      kind: 'keyless',
      fulcioUrl: options.fulcioUrl ?? DEFAULT_FULCIO_URL,
      rekorUrl: options.rekorUrl ?? DEFAULT_REKOR_URL,
      identity,
      rekorEntryType: options.rekorEntryType,
    },
    policy: { trustedRoot },
  }
}
