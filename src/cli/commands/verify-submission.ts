// `crm-conformance verify-submission <dir>`: checks a certification submission (../verify-submission-command.ts):
// its files, its statement and signature against the signer the customer names (as cosign names it), and, with
// --spot-check, a sample of its rows against the vendor's server (../spot-check.ts).
import { type Command, Option } from 'commander'
import { integer } from './options.ts'

export function registerVerifySubmissionCommand(program: Command, setExit: (code: number) => void): void {
  program
    .command('verify-submission')
    .description(
      'check a certification submission: manifest, statement and signature, every certifying check present, verdict, no waiver or selection, no secret',
    )
    .argument('<dir>', 'the submission folder')
    .option('--json', 'print the result as JSON')
    .option('--key <pem>', "the vendor's public key (PEM): the statement must be signed with it")
    .option(
      '--certificate-identity <identity>',
      "keyless: the signer certificate's identity (e.g. the workflow https://github.com/OWNER/REPO/.github/workflows/certify.yml@refs/tags/vX)",
    )
    .option('--certificate-identity-regexp <regexp>', 'keyless: a regular expression the identity must match (as cosign: anchor it with ^…$)')
    .option('--certificate-oidc-issuer <issuer>', 'keyless: the OIDC issuer (GitHub Actions: https://token.actions.githubusercontent.com)')
    .option('--trusted-root <file>', 'a private Sigstore: its trusted_root.json (default: the public-good root, by TUF)')
    .option('--require-signature', 'refuse an unsigned submission')
    .option(
      '--spot-check',
      "re-run a seeded random sample of the certifying checks against --base-url with your own key (CRM_API_KEY) and compare each with the submission's row",
    )
    .option('--base-url <url>', "--spot-check: the vendor's sandbox, including /v1 (overrides CRM_BASE_URL)")
    .option('--sample <n>', '--spot-check: how many checks to re-run (default 20)', integer('--sample', 1, 100_000))
    .option('--seed <n>', '--spot-check: the seed that picks the sample (default: random, printed)', integer('--seed', 0, 2 ** 31 - 1))
    .addOption(new Option('--profile <profile>', '--spot-check: what it may send (default safe)').choices(['safe', 'read-only']))
    .action(async (dir: string, opts) => {
      const { verifyCommand } = await import('../verify-submission-command.ts')
      const outcome = await verifyCommand(dir, {
        json: opts.json,
        key: opts.key,
        certificateIdentity: opts.certificateIdentity,
        certificateIdentityRegexp: opts.certificateIdentityRegexp,
        certificateOidcIssuer: opts.certificateOidcIssuer,
        trustedRoot: opts.trustedRoot,
        requireSignature: opts.requireSignature,
        spotCheck: opts.spotCheck ? { baseUrl: opts.baseUrl, sample: opts.sample, seed: opts.seed, profile: opts.profile } : undefined,
      })
      setExit(outcome.exitCode)
    })
}
