// Issue 41's proof, through the CLI as a vendor and a customer type it: certify signs the submission's in-toto
// statement with a key (ECDSA P-256, Ed25519) or keylessly against a private Sigstore (@sigstore/mock's Fulcio
// and Rekor on a local port), verify-submission accepts it with the vendor's key or identity and refuses, one
// line naming the file or the signer, a changed byte, another key, another identity, another folder's statement
// or no signature where one is required; --spot-check re-runs a sample against a reference server.
import { execFile } from 'node:child_process'
import { generateKeyPairSync } from 'node:crypto'
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BUNDLE_FILE, STATEMENT_FILE, TEST_RESULT_PREDICATE, type Statement } from '../src/certify/attestation.ts'
import { MANIFEST_FILE } from '../src/certify/manifest.ts'
import { certifyingChecks, type CertifiedReport } from '../src/certify/profile.ts'
import { SUBMISSION_FILES } from '../src/certify/readme.ts'
import { signStatement } from '../src/certify/signing.ts'
import { verifySubmission } from '../src/certify/verify.ts'
import { sampleOf, spotCandidates } from '../src/cli/spot-check.ts'
import { startReferenceServer, type ReferenceServer } from '../src/reference/index.ts'
import { FAULT_CATCHES } from '../src/selfcheck/fault-catches.ts'
import { specDigest } from '../src/spec/spec-text.ts'
import { PROJECT_ROOT, TOOL_VERSION } from '../src/version.ts'
import { catalogue } from '../suites/index.ts'
import { GITHUB_ISSUER, startMockSigstore, type MockSigstore } from './sigstore-mocks.ts'

const BIN = join(PROJECT_ROOT, 'bin', 'crm-conformance-ts.mjs')
// Three certify runs side by side (one alone: 30 to 40 s here), beside the rest of CI on two cores.
const RUN_TIMEOUT_MS = 600_000
/** A fault a MUST check of the safe profile catches: a request without a key answered 403 instead of 401 (§5.5). */
const FAULT = 'auth.missing-key-403'
/** The identity the certificate carries when our reusable workflow signs (job_workflow_ref). */
const IDENTITY = 'https://github.com/crm-conformance/crm-conformance/.github/workflows/certify.yml@refs/tags/v0.1.0'
const SAMPLE = 12
/** A case that runs the CLI several times (a few seconds each, more on a loaded CI machine). */
const CLI_CASES = { timeout: 180_000 }

interface CliResult {
  code: number
  stdout: string
  stderr: string
}

/** The CLI as a vendor or customer runs it: a child process, no CRM_* or SIGSTORE_* variable but those given. */
function cli(args: string[], extraEnv: Record<string, string> = {}): Promise<CliResult> {
  const env = {
    ...Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !name.startsWith('CRM_') && !name.startsWith('SIGSTORE_') && !name.startsWith('ACTIONS_')),
    ),
    ...extraEnv,
  }
  return new Promise((resolvePromise) => {
    execFile(process.execPath, [BIN, ...args], { cwd: root, env, maxBuffer: 64 * 1024 * 1024, timeout: RUN_TIMEOUT_MS }, (error, stdout, stderr) => {
      resolvePromise({ code: error ? (typeof error.code === 'number' ? error.code : 99) : 0, stdout, stderr })
    })
  })
}

let root: string
let sigstore: MockSigstore
let keyed: { dir: string; run: CliResult }
let keyless: { dir: string; run: CliResult }
let faulty: { dir: string; run: CliResult }
const key = (name: string) => join(root, name)
let copies = 0

async function copyOf(dir: string): Promise<string> {
  const copy = join(root, `copy-${++copies}`)
  await cp(dir, copy, { recursive: true })
  return copy
}

const readJson = async <T>(dir: string, name: string) => JSON.parse(await readFile(join(dir, name), 'utf8')) as T

async function writeKeys(): Promise<void> {
  const pems = (pair: { publicKey: { export: Function }; privateKey: { export: Function } }) => ({
    private: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    public: pair.publicKey.export({ type: 'spki', format: 'pem' }) as string,
  })
  const ec = pems(generateKeyPairSync('ec', { namedCurve: 'prime256v1' }))
  const ed = pems(generateKeyPairSync('ed25519'))
  const rsa = pems(generateKeyPairSync('rsa', { modulusLength: 2048 }))
  await writeFile(key('vendor.pem'), ec.private)
  await writeFile(key('vendor.pub'), ec.public)
  await writeFile(key('other.pem'), ed.private)
  await writeFile(key('other.pub'), ed.public)
  await writeFile(key('rsa.pem'), rsa.private)
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'crm-attest-e2e-'))
  await writeKeys()
  sigstore = await startMockSigstore(join(root, 'trusted_root.json'))
  await writeFile(
    join(root, 'product.json'),
    JSON.stringify({
      product: 'Reference CRM',
      version: '1.0.0-test',
      vendor: 'crm-conformance tests',
      contact: 'tests@example.com',
      description: 'The embedded reference server.',
    }),
  )
  const certify = (name: string, extra: string[], env: Record<string, string> = {}) =>
    cli(['certify', '--embedded', '--out', join(root, name), '--product-file', join(root, 'product.json'), '--seed', '20260101', '--quiet', ...extra], env)
  const keylessFlags = [
    '--sign',
    '--fulcio-url',
    sigstore.url,
    '--rekor-url',
    sigstore.url,
    '--trusted-root',
    sigstore.trustedRoot,
    '--rekor-entry-type',
    'intoto',
  ]
  const [k, kl, f] = await Promise.all([
    certify('keyed', ['--sign-key', key('vendor.pem')]),
    certify('keyless', keylessFlags, { SIGSTORE_ID_TOKEN: sigstore.token(IDENTITY) }),
    certify('faulty', ['--fault', FAULT, '--sign-key', key('other.pem')]),
  ])
  keyed = { dir: join(root, 'keyed'), run: k }
  keyless = { dir: join(root, 'keyless'), run: kl }
  faulty = { dir: join(root, 'faulty'), run: f }
}, RUN_TIMEOUT_MS)

afterAll(async () => {
  await sigstore?.close()
  if (root) await rm(root, { recursive: true, force: true })
})

describe('the statement in every submission', () => {
  it('covers every file by SHA-256, report.json first, with the test-result predicate and our configuration', async () => {
    expect(keyed.run.code, keyed.run.stdout + keyed.run.stderr).toBe(0)
    expect((await readdir(keyed.dir)).sort()).toEqual([...Object.keys(SUBMISSION_FILES), MANIFEST_FILE, STATEMENT_FILE, BUNDLE_FILE].sort())
    const statement = await readJson<Statement>(keyed.dir, STATEMENT_FILE)
    expect(statement._type).toBe('https://in-toto.io/Statement/v1')
    expect(statement.predicateType).toBe(TEST_RESULT_PREDICATE)
    expect(statement.subject.map((s) => s.name)).toEqual(['report.json', ...Object.keys(SUBMISSION_FILES).filter((f) => f !== 'report.json'), MANIFEST_FILE])
    const ids = certifyingChecks(catalogue).map((c) => c.id)
    expect(statement.predicate).toMatchObject({ result: 'PASSED', passedTests: ids, failedTests: [], warnedTests: [] })
    const config = Object.fromEntries(statement.predicate.configuration.map((d) => [d.name, d]))
    expect(config['crm-conformance']).toMatchObject({
      uri: `pkg:npm/crm-conformance@${TOOL_VERSION}`,
      digest: { sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
    })
    expect(config['crm-api-spec.md']).toEqual({ name: 'crm-api-spec.md', digest: { sha256: specDigest() } })
    const report = await readJson<CertifiedReport>(keyed.dir, 'report.json')
    expect(config['crm-conformance run']).toMatchObject({
      uri: report.target.baseUrl,
      annotations: { profile: 'full', startedAt: report.startedAt, finishedAt: report.finishedAt, keyRoles: expect.arrayContaining(['CRM_API_KEY']) },
    })
    expect(config['crm-conformance certification']!.annotations).toMatchObject({ verdict: 'compliant', scope: { complete: true } })
  })

  it('says FAILED for a non-compliant run, with the failed MUST checks named', async () => {
    expect(faulty.run.code, faulty.run.stdout).toBe(1)
    const statement = await readJson<Statement>(faulty.dir, STATEMENT_FILE)
    expect(statement.predicate.result).toBe('FAILED')
    expect(statement.predicate.failedTests.length).toBeGreaterThan(0)
    for (const id of statement.predicate.failedTests) expect(FAULT_CATCHES[FAULT]).toContain(id)
  })
})

describe('signed with a key', CLI_CASES, () => {
  it('certify --sign-key signs; verify-submission --key accepts, naming the key', async () => {
    expect(keyed.run.stdout).toMatch(/signed: attestation\.sigstore\.json, key [0-9a-f]{64}/)
    const bundle = await readJson<{ mediaType: string; dsseEnvelope: { payloadType: string } }>(keyed.dir, BUNDLE_FILE)
    expect(bundle.mediaType).toBe('application/vnd.dev.sigstore.bundle.v0.3+json')
    expect(bundle.dsseEnvelope.payloadType).toBe('application/vnd.in-toto+json')
    const verified = await cli(['verify-submission', keyed.dir, '--key', key('vendor.pub'), '--require-signature'])
    expect(verified.code, verified.stdout).toBe(0)
    expect(verified.stdout).toMatch(/✓ attestation\.sigstore\.json: the statement is signed by the key in .*vendor\.pub/)
    expect(verified.stdout).toContain('ACCEPTED: compliant')
  })

  it('an Ed25519 key signs too (the faulty run: signature good, verdict refused)', async () => {
    const verified = await cli(['verify-submission', faulty.dir, '--key', key('other.pub')])
    expect(verified.code).toBe(1)
    expect(verified.stdout).toMatch(/✓ attestation\.sigstore\.json: the statement is signed by the key in .*other\.pub/)
    expect(verified.stdout).toContain('its verdict is non-compliant')
  })

  it('one byte changed in any file: refused, naming the file', async () => {
    const files = await readdir(keyed.dir)
    for (const name of files) {
      const dir = await copyOf(keyed.dir)
      const bytes = await readFile(join(dir, name))
      // A byte in the middle, where every file has content (a space becomes a tab, anything else a space).
      const at = Math.floor(bytes.length / 2)
      bytes[at] = bytes[at] === 0x20 ? 0x09 : 0x20
      await writeFile(join(dir, name), bytes)
      const result = await verifySubmission(dir, {
        catalogue,
        toolVersion: TOOL_VERSION,
        specDigest: specDigest(),
        signer: { key: { pem: await readFile(key('vendor.pub'), 'utf8'), source: 'vendor.pub' } },
      })
      expect(result.accepted, name).toBe(false)
      expect(result.problems.join('\n'), name).toContain(name)
    }
    const dir = await copyOf(keyed.dir)
    await writeFile(join(dir, 'PRODUCT.json'), (await readFile(join(dir, 'PRODUCT.json'), 'utf8')).replace('Reference CRM', 'Reference CRN'))
    const verified = await cli(['verify-submission', dir, '--key', key('vendor.pub')])
    expect(verified.code).toBe(1)
    expect(verified.stdout).toContain('✗ PRODUCT.json was modified after the run')
  })

  it('a vendor who rewrites the files, the manifest and the statement cannot re-sign it: refused', async () => {
    const dir = await copyOf(keyed.dir)
    // The statement of another run put in place of this one (as a forger would write a fresh one): the signature no longer covers it.
    await cp(join(faulty.dir, STATEMENT_FILE), join(dir, STATEMENT_FILE))
    const verified = await cli(['verify-submission', dir, '--key', key('vendor.pub')])
    expect(verified.code).toBe(1)
    expect(verified.stdout).toContain(`✗ ${BUNDLE_FILE} signs another statement than ${STATEMENT_FILE}`)
  })

  it('re-signed with another key: refused, naming both signers', async () => {
    const dir = await copyOf(keyed.dir)
    const { bundle } = await signStatement(await readFile(join(dir, STATEMENT_FILE), 'utf8'), {
      kind: 'key',
      privateKeyPem: await readFile(key('other.pem'), 'utf8'),
      source: 'other.pem',
    })
    await writeFile(join(dir, BUNDLE_FILE), JSON.stringify(bundle))
    const verified = await cli(['verify-submission', dir, '--key', key('vendor.pub')])
    expect(verified.code).toBe(1)
    expect(verified.stdout).toMatch(
      /✗ attestation\.sigstore\.json is not signed by the key in .*vendor\.pub \(key [0-9a-f]{64}\): its signer is key [0-9a-f]{64}/,
    )
  })

  it("another folder's statement and signature: refused as made for another submission", async () => {
    const dir = await copyOf(keyed.dir)
    for (const name of [STATEMENT_FILE, BUNDLE_FILE]) await cp(join(faulty.dir, name), join(dir, name))
    const verified = await cli(['verify-submission', dir, '--key', key('other.pub')])
    expect(verified.code).toBe(1)
    expect(verified.stdout).toContain(`✗ ${STATEMENT_FILE}: report.json is not the report the statement covers: the statement was made for another submission`)
  })

  it('unsigned: accepted with a note, refused with --require-signature or a signer named', async () => {
    const dir = await copyOf(keyed.dir)
    await rm(join(dir, BUNDLE_FILE))
    const plain = await cli(['verify-submission', dir])
    expect(plain.code, plain.stdout).toBe(0)
    expect(plain.stdout).toContain('✓ unsigned: no attestation.sigstore.json')
    const required = await cli(['verify-submission', dir, '--require-signature'])
    expect(required.code).toBe(1)
    expect(required.stdout).toContain(`✗ ${BUNDLE_FILE} is missing: the submission is unsigned, and a signature was required (--require-signature)`)
  })
})

describe('signed keylessly (Sigstore mocks)', CLI_CASES, () => {
  const trust = () => ['--trusted-root', sigstore.trustedRoot]

  it('certify --sign signs with the OIDC identity; verify-submission accepts it with that identity', async () => {
    expect(keyless.run.code, keyless.run.stdout + keyless.run.stderr).toBe(0)
    expect(keyless.run.stdout).toContain(`signed: ${BUNDLE_FILE}, keyless`)
    expect(keyless.run.stdout).not.toContain('verify-submission:')
    const verified = await cli(['verify-submission', keyless.dir, '--certificate-identity', IDENTITY, '--certificate-oidc-issuer', GITHUB_ISSUER, ...trust()])
    expect(verified.code, verified.stdout).toBe(0)
    expect(verified.stdout).toContain(`signed by: ${IDENTITY} (issuer ${GITHUB_ISSUER})`)
    const regexp = await cli([
      'verify-submission',
      keyless.dir,
      '--certificate-identity-regexp',
      '^https://github\\.com/crm-conformance/crm-conformance/\\.github/workflows/certify\\.yml@refs/tags/v',
      '--certificate-oidc-issuer',
      GITHUB_ISSUER,
      ...trust(),
    ])
    expect(regexp.code, regexp.stdout).toBe(0)
  })

  it('refused with another identity, another issuer, or a key', async () => {
    const other = 'https://github.com/vendor/fork/.github/workflows/certify.yml@refs/heads/main'
    const wrong = await cli(['verify-submission', keyless.dir, '--certificate-identity', other, '--certificate-oidc-issuer', GITHUB_ISSUER, ...trust()])
    expect(wrong.code).toBe(1)
    expect(wrong.stdout).toContain(`✗ ${BUNDLE_FILE} is signed by ${IDENTITY} (issuer ${GITHUB_ISSUER}), not by ${other}`)
    const issuer = await cli([
      'verify-submission',
      keyless.dir,
      '--certificate-identity',
      IDENTITY,
      '--certificate-oidc-issuer',
      'https://accounts.google.com',
      ...trust(),
    ])
    expect(issuer.code).toBe(1)
    expect(issuer.stdout).toContain('whose issuer is not https://accounts.google.com')
    const withKey = await cli(['verify-submission', keyless.dir, '--key', key('vendor.pub'), ...trust()])
    expect(withKey.code).toBe(1)
    expect(withKey.stdout).toContain(`✗ ${BUNDLE_FILE} is signed keylessly by ${IDENTITY}`)
  })

  it('refused when the certificate does not chain to the trusted root, and a key signature is not an identity', async () => {
    const elsewhere = await startMockSigstore(join(root, 'other_root.json'))
    try {
      const untrusted = await cli([
        'verify-submission',
        keyless.dir,
        '--certificate-identity',
        IDENTITY,
        '--certificate-oidc-issuer',
        GITHUB_ISSUER,
        '--trusted-root',
        elsewhere.trustedRoot,
      ])
      expect(untrusted.code).toBe(1)
      expect(untrusted.stdout).toContain(`✗ ${BUNDLE_FILE}: the keyless signature does not verify against the Sigstore trusted root`)
    } finally {
      await elsewhere.close()
    }
    const keySigned = await cli(['verify-submission', keyed.dir, '--certificate-identity', IDENTITY, '--certificate-oidc-issuer', GITHUB_ISSUER])
    expect(keySigned.code).toBe(1)
    expect(keySigned.stdout).toMatch(/✗ attestation\.sigstore\.json is signed with key [0-9a-f]{64}, not by a certificate identity/)
  })
})

describe('what cannot sign or verify is said before anything runs (exit 2)', CLI_CASES, () => {
  it('certify --sign without an OIDC token, an RSA key, both ways at once', async () => {
    const out = (name: string) => ['--out', join(root, name), '--embedded', '--product-file', join(root, 'product.json')]
    const noToken = await cli(['certify', '--sign', ...out('never-1')])
    expect(noToken.code).toBe(2)
    expect(noToken.stdout).toContain("certify --sign signs keylessly with the CI's OIDC token: none is available")
    const rsa = await cli(['certify', '--sign-key', key('rsa.pem'), ...out('never-2')])
    expect(rsa.code).toBe(2)
    expect(rsa.stdout).toContain('only ECDSA P-256 and Ed25519 keys sign a Sigstore bundle')
    const both = await cli(['certify', '--sign', '--sign-key', key('vendor.pem'), ...out('never-3')])
    expect(both.code).toBe(2)
    expect(both.stderr).toContain('give one')
  })

  it('verify-submission: an identity without its issuer, a key and an identity, a file that is no key', async () => {
    const noIssuer = await cli(['verify-submission', keyed.dir, '--certificate-identity', IDENTITY])
    expect(noIssuer.code).toBe(2)
    expect(noIssuer.stdout).toContain('--certificate-identity needs --certificate-oidc-issuer')
    const both = await cli([
      'verify-submission',
      keyed.dir,
      '--key',
      key('vendor.pub'),
      '--certificate-identity',
      IDENTITY,
      '--certificate-oidc-issuer',
      GITHUB_ISSUER,
    ])
    expect(both.code).toBe(2)
    const notAKey = await cli(['verify-submission', keyed.dir, '--key', join(root, 'product.json')])
    expect(notAKey.code).toBe(2)
    expect(notAKey.stdout).toContain('is not a PEM public key')
  })
})

describe('--spot-check against a reference server', () => {
  let honest: ReferenceServer
  let broken: ReferenceServer
  beforeAll(async () => {
    ;[honest, broken] = await Promise.all([
      startReferenceServer({ rateLimitPerMinute: 1_000_000 }),
      startReferenceServer({ rateLimitPerMinute: 1_000_000, faults: [FAULT] }),
    ])
  })
  afterAll(async () => {
    await Promise.all([honest?.close(), broken?.close()])
  })

  /** A seed whose sample includes one of `ids` (the customer would not know; the test must be sure the fault is drawn). */
  async function seedDrawing(dir: string, ids: readonly string[]): Promise<number> {
    const candidates = spotCandidates(catalogue, await readJson<CertifiedReport>(dir, 'report.json'), 'safe')
    for (let seed = 1; ; seed++) if (sampleOf(candidates, SAMPLE, seed).some((id) => ids.includes(id))) return seed
  }
  const spot = (dir: string, server: ReferenceServer, seed: number) =>
    cli(['verify-submission', dir, '--spot-check', '--base-url', server.baseUrl, '--sample', String(SAMPLE), '--seed', String(seed)], {
      CRM_API_KEY: server.keys.main,
    })

  it(
    'accepts an honest submission, saying how many were sampled and compared',
    async () => {
      const run = await spot(keyed.dir, honest, 7)
      expect(run.code, run.stdout + run.stderr).toBe(0)
      expect(run.stdout).toMatch(
        new RegExp(`spot check \\(seed 7, safe profile\\): sampled ${SAMPLE} of \\d+ checks, \\d+ compared, 0 differ from the submission`),
      )
      expect(run.stdout).toContain('ACCEPTED: compliant')
    },
    RUN_TIMEOUT_MS,
  )

  it(
    'names a check that passed in the submission and fails on the server now',
    async () => {
      const seed = await seedDrawing(keyed.dir, FAULT_CATCHES[FAULT])
      const run = await spot(keyed.dir, broken, seed)
      expect(run.code).toBe(1)
      expect(run.stdout).toMatch(/✗ spot check: MUST (\S+) passed in the submission and fails now: /)
      const named = [...run.stdout.matchAll(/✗ spot check: MUST (\S+) passed in the submission and fails now/g)].map((m) => m[1]!)
      for (const id of named) expect(FAULT_CATCHES[FAULT]).toContain(id)
    },
    RUN_TIMEOUT_MS,
  )

  it(
    'names the checks when the submission came from a server with a fault',
    async () => {
      const failed = (await readJson<Statement>(faulty.dir, STATEMENT_FILE)).predicate.failedTests
      const seed = await seedDrawing(faulty.dir, failed)
      const run = await spot(faulty.dir, honest, seed)
      expect(run.code).toBe(1)
      expect(run.stdout).toMatch(/✗ spot check: MUST \S+ failed in the submission and passed now: the submission does not describe this server/)
    },
    RUN_TIMEOUT_MS,
  )

  it('says what it needs without a target', async () => {
    const run = await cli(['verify-submission', keyed.dir, '--spot-check'])
    expect(run.code).toBe(1)
    expect(run.stdout).toContain("✗ spot check: --spot-check runs against the vendor's server: give --base-url")
  })
})
