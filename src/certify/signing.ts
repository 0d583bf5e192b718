// Signs a submission's statement into a Sigstore bundle (attestation.sigstore.json) with the maintained
// sigstore-js libraries: @sigstore/sign's DSSEBundleBuilder writes the DSSE envelope and the bundle, with either
// a key the vendor holds (an ECDSA P-256 or Ed25519 PEM; no transparency log: the customer names the public
// key) or keyless (Fulcio certifies an ephemeral key for the CI's OIDC identity, Rekor logs the signature).
import { createHash, createPrivateKey, createPublicKey, sign as cryptoSign, type KeyObject } from 'node:crypto'
import type { IdentityProvider, Signature, Signer } from '@sigstore/sign'
import { INTOTO_PAYLOAD_TYPE } from './attestation.ts'

export const DEFAULT_FULCIO_URL = 'https://fulcio.sigstore.dev'
export const DEFAULT_REKOR_URL = 'https://rekor.sigstore.dev'

export type SigningMethod =
  | { kind: 'key'; privateKeyPem: string; source: string }
  | {
      kind: 'keyless'
      fulcioUrl: string
      rekorUrl: string
      /** The OIDC token: SIGSTORE_ID_TOKEN, or GitHub Actions' id-token (ACTIONS_ID_TOKEN_REQUEST_URL/TOKEN). */
      identity: IdentityProvider
      /**
       * Rekor v1's entry kind: `dsse` (the default, as the public-good instance stores it) or the older `intoto`
       * (a Rekor that stores the proposed entry as given, as @sigstore/mock's does, verifies only this one).
       */
      rekorEntryType?: 'dsse' | 'intoto'
    }

/** What a key is, for signing and for naming it: `ECDSA P-256` or `Ed25519`, or why it cannot sign a bundle. */
export function keyKind(key: KeyObject): { algorithm: 'ecdsa-p256' | 'ed25519'; label: string } | { problem: string } {
  if (key.asymmetricKeyType === 'ed25519') return { algorithm: 'ed25519', label: 'Ed25519' }
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return { algorithm: 'ecdsa-p256', label: 'ECDSA P-256' }
  const curve = key.asymmetricKeyDetails?.namedCurve
  return { problem: `a ${key.asymmetricKeyType}${curve ? ` ${curve}` : ''} key: only ECDSA P-256 and Ed25519 keys sign a Sigstore bundle` }
}

/** The key's id as the bundle's hint and as printed: SHA-256 of its SubjectPublicKeyInfo (DER), hex. */
export function keyId(publicKey: KeyObject): string {
  return createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex')
}

/** A Signer of @sigstore/sign over a private key of the vendor's (the library does DSSE's pre-authentication encoding). */
export class KeySigner implements Signer {
  private readonly privateKey: KeyObject
  private readonly algorithm: 'ecdsa-p256' | 'ed25519'
  readonly publicKeyPem: string
  readonly keyId: string

  constructor(privateKeyPem: string) {
    this.privateKey = createPrivateKey(privateKeyPem)
    const kind = keyKind(this.privateKey)
    if ('problem' in kind) throw new Error(kind.problem)
    this.algorithm = kind.algorithm
    const publicKey = createPublicKey(this.privateKey)
    this.publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString()
    this.keyId = keyId(publicKey)
  }

  async sign(data: Buffer): Promise<Signature> {
    const signature = cryptoSign(this.algorithm === 'ed25519' ? null : 'sha256', data, this.privateKey)
    return { signature, key: { $case: 'publicKey', publicKey: this.publicKeyPem, hint: this.keyId } }
  }
}

/** The token provider of a keyless signature: SIGSTORE_ID_TOKEN from `env`, else the CI's (GitHub Actions' id-token). */
export async function ciIdentity(env: NodeJS.ProcessEnv): Promise<IdentityProvider | undefined> {
  if (env.SIGSTORE_ID_TOKEN) return { getToken: async () => env.SIGSTORE_ID_TOKEN! }
  if (env.ACTIONS_ID_TOKEN_REQUEST_URL && env.ACTIONS_ID_TOKEN_REQUEST_TOKEN) {
    const { CIContextProvider } = await import('@sigstore/sign')
    return new CIContextProvider('sigstore')
  }
  return undefined
}

/** The Sigstore bundle (its JSON) of `payload`, an in-toto statement, signed by `method`. */
export async function signStatement(payload: string, method: SigningMethod): Promise<{ bundle: unknown; signer: string }> {
  const { DSSEBundleBuilder, FulcioSigner, RekorWitness } = await import('@sigstore/sign')
  const { bundleToJSON } = await import('@sigstore/bundle')
  let builder: InstanceType<typeof DSSEBundleBuilder>
  let signer: string
  if (method.kind === 'key') {
    const keySigner = new KeySigner(method.privateKeyPem)
    builder = new DSSEBundleBuilder({ signer: keySigner, witnesses: [] })
    signer = `key ${keySigner.keyId} (${method.source})`
  } else {
    builder = new DSSEBundleBuilder({
      signer: new FulcioSigner({ fulcioBaseURL: method.fulcioUrl, identityProvider: method.identity }),
      witnesses: [new RekorWitness({ rekorBaseURL: method.rekorUrl, entryType: method.rekorEntryType ?? 'dsse' })],
      certificateChain: false,
    })
    signer = `keyless (Fulcio ${method.fulcioUrl}, Rekor ${method.rekorUrl})`
  }
  const bundle = await builder.create({ data: Buffer.from(payload, 'utf8'), type: INTOTO_PAYLOAD_TYPE })
  return { bundle: bundleToJSON(bundle), signer }
}
