// verify-submission's checks of the attestation: the statement's subjects against the folder's files, and,
// when attestation.sigstore.json is there, its signature (@sigstore/verify) and its signer against what the
// customer names: `--key <PEM>`, or `--certificate-identity[-regexp]` with `--certificate-oidc-issuer` as cosign
// names them. Each refusal is one line saying which file or which signer.
import { createPublicKey, type KeyObject } from 'node:crypto'
import type { CheckDefinition } from '../checks/types.ts'
import { BUNDLE_FILE, INTOTO_PAYLOAD_TYPE, STATEMENT_FILE, statementProblems } from './attestation.ts'
import type { CertifiedReport } from './profile.ts'
import { keyId } from './signing.ts'

/** Who must have signed, as the customer names it. */
export interface SignerPolicy {
  /** `--key`: the vendor's public key (PEM text) and where it came from. */
  key?: { pem: string; source: string }
  certificateIdentity?: string
  certificateIdentityRegexp?: string
  certificateOidcIssuer?: string
  /** `--trusted-root`: a Sigstore trusted_root.json (a private Sigstore, or tests); default: the public-good root by TUF. */
  trustedRoot?: unknown
  /** `--require-signature`: an unsigned submission is refused. */
  requireSignature?: boolean
}

export function namesASigner(policy: SignerPolicy): boolean {
  return Boolean(policy.key || policy.certificateIdentity || policy.certificateIdentityRegexp)
}

/** A policy that cannot be applied, whatever the folder holds (cosign's rules: an identity needs its issuer). */
export function policyProblem(policy: SignerPolicy): string | undefined {
  const identity = policy.certificateIdentity !== undefined || policy.certificateIdentityRegexp !== undefined
  if (policy.key && (identity || policy.certificateOidcIssuer))
    return '--key and --certificate-identity/--certificate-oidc-issuer name two different signers: give one'
  if (identity && !policy.certificateOidcIssuer)
    return '--certificate-identity needs --certificate-oidc-issuer (the issuer of the OIDC token, e.g. https://token.actions.githubusercontent.com)'
  if (!identity && policy.certificateOidcIssuer) return '--certificate-oidc-issuer needs --certificate-identity or --certificate-identity-regexp'
  if (policy.certificateIdentityRegexp !== undefined) {
    try {
      new RegExp(policy.certificateIdentityRegexp)
    } catch (error) {
      return `--certificate-identity-regexp is not a regular expression: ${(error as Error).message}`
    }
  }
  if (policy.key) {
    try {
      createPublicKey(policy.key.pem)
    } catch {
      return `${policy.key.source} is not a PEM public key`
    }
  }
  return undefined
}

export interface AttestationCheck {
  problems: string[]
  confirmed: string[]
  /** Who signed, once verified: `key <id>` or the certificate's identity and issuer. */
  signer?: string
}

type ParsedBundle = Awaited<ReturnType<typeof import('@sigstore/bundle').bundleFromJSON>>

/** The folder's attestation: the statement covers exactly its files, and the bundle (if any) signs that statement, by the signer named. */
export async function checkAttestation(
  texts: ReadonlyMap<string, string>,
  digests: ReadonlyMap<string, string>,
  report: CertifiedReport | undefined,
  catalogue: readonly CheckDefinition[],
  policy: SignerPolicy,
): Promise<AttestationCheck> {
  const out: AttestationCheck = { problems: [], confirmed: [] }
  const statementText = texts.get(STATEMENT_FILE)
  const bundleText = texts.get(BUNDLE_FILE)
  if (statementText === undefined) {
    out.problems.push(`${STATEMENT_FILE} is missing: nothing states which files the run wrote`)
  } else {
    let statement: unknown
    try {
      statement = JSON.parse(statementText)
    } catch (error) {
      out.problems.push(`${STATEMENT_FILE} is not JSON: ${(error as Error).message}`)
    }
    if (statement !== undefined) {
      const found = statementProblems(statement, digests, report, catalogue).map((p) => `${STATEMENT_FILE}: ${p}`)
      out.problems.push(...found)
      if (found.length === 0) out.confirmed.push(`${STATEMENT_FILE}: an in-toto test-result statement covering the ${digests.size} files, each digest matches`)
    }
  }
  if (bundleText === undefined) {
    if (policy.requireSignature || namesASigner(policy))
      out.problems.push(
        `${BUNDLE_FILE} is missing: the submission is unsigned, and a signature was required${policy.requireSignature ? ' (--require-signature)' : ''}`,
      )
    else out.confirmed.push(`unsigned: no ${BUNDLE_FILE} (nothing proves who ran it; --require-signature refuses unsigned submissions)`)
    return out
  }
  const { bundleFromJSON } = await import('@sigstore/bundle')
  let bundle: ParsedBundle
  try {
    bundle = bundleFromJSON(JSON.parse(bundleText))
  } catch (error) {
    out.problems.push(`${BUNDLE_FILE} is not a Sigstore bundle: ${(error as Error).message}`)
    return out
  }
  if (bundle.content.$case !== 'dsseEnvelope') {
    out.problems.push(`${BUNDLE_FILE} holds a message signature, not a DSSE envelope of the statement`)
    return out
  }
  const envelope = bundle.content.dsseEnvelope
  if (envelope.payloadType !== INTOTO_PAYLOAD_TYPE)
    out.problems.push(`${BUNDLE_FILE} signs a payload of type ${envelope.payloadType}, not an in-toto statement`)
  if (statementText !== undefined && Buffer.from(envelope.payload).toString('utf8') !== statementText)
    out.problems.push(`${BUNDLE_FILE} signs another statement than ${STATEMENT_FILE}: the statement was changed after it was signed`)
  const signed = await verifySignature(bundle, policy)
  out.problems.push(...signed.problems)
  out.confirmed.push(...signed.confirmed)
  out.signer = signed.signer
  return out
}

async function verifySignature(bundle: ParsedBundle, policy: SignerPolicy): Promise<AttestationCheck> {
  const out: AttestationCheck = { problems: [], confirmed: [] }
  const { Verifier, toSignedEntity, toTrustMaterial } = await import('@sigstore/verify')
  const { TrustedRoot } = await import('@sigstore/protobuf-specs')
  const material = bundle.verificationMaterial.content
  if (material.$case === 'publicKey') {
    const hint = material.publicKey.hint
    if (!policy.key) {
      if (namesASigner(policy) || policy.requireSignature)
        out.problems.push(`${BUNDLE_FILE} is signed with key ${hint}, not by a certificate identity: verify it with --key <the vendor's public key>`)
      else out.confirmed.push(`${BUNDLE_FILE}: signed with key ${hint}; not verified (name the vendor's public key with --key)`)
      return out
    }
    const key: KeyObject = createPublicKey(policy.key.pem)
    const id = keyId(key)
    const empty = TrustedRoot.fromJSON({
      mediaType: 'application/vnd.dev.sigstore.trustedroot+json;version=0.1',
      tlogs: [],
      certificateAuthorities: [],
      ctlogs: [],
      timestampAuthorities: [],
    })
    const trust = toTrustMaterial(empty, () => ({ publicKey: key, validFor: () => true }))
    try {
      new Verifier(trust, { tlogThreshold: 0, ctlogThreshold: 0, timestampThreshold: 0 }).verify(toSignedEntity(bundle))
    } catch {
      out.problems.push(`${BUNDLE_FILE} is not signed by the key in ${policy.key.source} (key ${id}): its signer is key ${hint}`)
      return out
    }
    out.signer = `key ${id}`
    out.confirmed.push(`${BUNDLE_FILE}: the statement is signed by the key in ${policy.key.source} (key ${id})`)
    return out
  }
  // Keyless: the certificate chains to the trusted root, its SCT and the Rekor entry verify, then the identity.
  let root: import('@sigstore/protobuf-specs').TrustedRoot
  try {
    root = policy.trustedRoot ? TrustedRoot.fromJSON(policy.trustedRoot) : await (await import('@sigstore/tuf')).getTrustedRoot()
  } catch (error) {
    out.problems.push(`${BUNDLE_FILE} cannot be verified: no Sigstore trusted root (${(error as Error).message})`)
    return out
  }
  let identity: { san?: string; issuer?: string }
  try {
    const signer = new Verifier(toTrustMaterial(root)).verify(toSignedEntity(bundle))
    identity = { san: signer.identity?.subjectAlternativeName, issuer: signer.identity?.extensions?.issuer }
  } catch (error) {
    out.problems.push(`${BUNDLE_FILE}: the keyless signature does not verify against the Sigstore trusted root (${(error as Error).message})`)
    return out
  }
  const who = `${identity.san ?? '(no identity)'} (issuer ${identity.issuer ?? 'none'})`
  out.signer = who
  if (policy.key) {
    out.problems.push(`${BUNDLE_FILE} is signed keylessly by ${who}, not by the key in ${policy.key.source}`)
    return out
  }
  if (!policy.certificateIdentity && !policy.certificateIdentityRegexp) {
    if (policy.requireSignature)
      out.problems.push(`${BUNDLE_FILE} is signed by ${who}: name the signer you trust with --certificate-identity and --certificate-oidc-issuer`)
    else out.confirmed.push(`${BUNDLE_FILE}: signed keylessly by ${who}; not matched against a signer you named`)
    return out
  }
  const sanMatches =
    policy.certificateIdentity !== undefined
      ? identity.san === policy.certificateIdentity
      : new RegExp(policy.certificateIdentityRegexp!).test(identity.san ?? '')
  const wanted = policy.certificateIdentity ?? `/${policy.certificateIdentityRegexp}/`
  if (!sanMatches) out.problems.push(`${BUNDLE_FILE} is signed by ${who}, not by ${wanted}`)
  else if (identity.issuer !== policy.certificateOidcIssuer)
    out.problems.push(`${BUNDLE_FILE} is signed by ${who}, whose issuer is not ${policy.certificateOidcIssuer}`)
  else out.confirmed.push(`${BUNDLE_FILE}: the statement is signed by ${who}, the signer named`)
  return out
}
