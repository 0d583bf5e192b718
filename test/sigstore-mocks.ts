// A private Sigstore for the tests, offline: @sigstore/mock's Fulcio (CA and CT log) and Rekor handlers served
// on a local port (so a certify child process reaches them by URL, as it would a private instance), the
// trusted_root.json that trusts them, and OIDC tokens as GitHub Actions would issue them (unsigned: the mock
// Fulcio reads the claims, as the real one does after checking the issuer's signature).
import { createHash, generateKeyPairSync } from 'node:crypto'
import { writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fulcioHandler, initializeCA, initializeCTLog, initializeTLog, rekorHandler, type HandlerFn } from '@sigstore/mock'
import { HashAlgorithm, PublicKeyDetails, TrustedRoot } from '@sigstore/protobuf-specs'

export const GITHUB_ISSUER = 'https://token.actions.githubusercontent.com'

export interface MockSigstore {
  url: string
  /** Where trusted_root.json was written. */
  trustedRoot: string
  /** An OIDC token whose subject (the certificate's identity) is `identity`. */
  token(identity: string, issuer?: string): string
  close(): Promise<void>
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

export async function startMockSigstore(trustedRootFile: string): Promise<MockSigstore> {
  const routes = new Map<string, HandlerFn>()
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', async () => {
      const handler = req.method === 'POST' ? routes.get(new URL(req.url ?? '/', 'http://x').pathname) : undefined
      if (!handler) {
        res.writeHead(404).end()
        return
      }
      const { statusCode, response, contentType } = await handler(Buffer.concat(chunks).toString('utf8'))
      res.writeHead(statusCode, { 'content-type': contentType ?? 'text/plain' }).end(response)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  const keyPair = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
  const ctlog = await initializeCTLog(keyPair)
  const ca = await initializeCA(keyPair, ctlog)
  const tlog = await initializeTLog(url, keyPair)
  for (const handler of [fulcioHandler(ca), rekorHandler(tlog)]) routes.set(handler.path, handler.fn)

  const since = { start: new Date(Date.now() - 3_600_000) }
  const root = TrustedRoot.toJSON({
    mediaType: 'application/vnd.dev.sigstore.trustedroot+json;version=0.1',
    certificateAuthorities: [
      {
        subject: { commonName: 'sigstore', organization: 'sigstore.mock' },
        uri: url,
        certChain: { certificates: [{ rawBytes: Buffer.from(ca.rootCertificate.buffer) }] },
        validFor: since,
        operator: 'sigstore.mock',
      },
    ],
    tlogs: [
      {
        baseUrl: url,
        hashAlgorithm: HashAlgorithm.SHA2_256,
        publicKey: { rawBytes: tlog.publicKey, keyDetails: PublicKeyDetails.PKIX_ECDSA_P256_SHA_256, validFor: since },
        logId: { keyId: createHash('sha256').update(tlog.publicKey).digest() },
        checkpointKeyId: undefined,
        operator: 'sigstore.mock',
      },
    ],
    ctlogs: [
      {
        baseUrl: url,
        hashAlgorithm: HashAlgorithm.SHA2_256,
        publicKey: { rawBytes: ctlog.publicKey, keyDetails: PublicKeyDetails.PKIX_ECDSA_P256_SHA_256, validFor: since },
        logId: { keyId: Buffer.from(ctlog.logID.buffer) },
        checkpointKeyId: undefined,
        operator: 'sigstore.mock',
      },
    ],
    timestampAuthorities: [],
  })
  await writeFile(trustedRootFile, JSON.stringify(root, null, 2))

  return {
    url,
    trustedRoot: trustedRootFile,
    token: (identity, issuer = GITHUB_ISSUER) =>
      `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url({ iss: issuer, sub: identity, aud: 'sigstore', iat: Math.floor(Date.now() / 1000) })}.`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
