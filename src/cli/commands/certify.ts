// `crm-conformance certify`: the certifying run and its submission folder (../certify-command.ts, src/certify/); a selection,
// a waiver or another profile is refused with a reason, as a certification runs everything as it is.
import { type Command, Option } from 'commander'
import { collect, integer } from './options.ts'

export function registerCertifyCommand(program: Command, setExit: (code: number) => void): void {
  program
    .command('certify')
    .description('run the certifying profile (every MUST and SHOULD check, full profile, no selection, no waiver) and write a submission folder')
    .option('--out <dir>', 'the submission folder, missing or empty (default submissions/<run id>/)')
    .option('--product <name>', "PRODUCT.json: the product's name")
    .option('--product-version <version>', 'PRODUCT.json: the product version tested')
    .option('--vendor <name>', 'PRODUCT.json: the vendor')
    .option('--contact <contact>', 'PRODUCT.json: e-mail or URL for this claim')
    .option('--description <text>', 'PRODUCT.json: what was tested (deployment, edition, region)')
    .option('--website <url>', "PRODUCT.json: the product's web page (optional)")
    .option('--product-file <file>', 'a JSON file with those fields (flags win); missing ones are asked for on a terminal')
    .option('--base-url <url>', 'base address including /v1 (overrides CRM_BASE_URL)')
    .option('--seed <n>', 'seed of the generated data', integer('--seed', 0, 2 ** 31 - 1))
    .option('--embedded', 'certify the embedded reference server (required in CI, or when CRM_ keys are set, without CRM_BASE_URL)')
    .option('--variant <name>', 'embedded server only: a legal variant where the spec says "not shown"')
    .option('--fault <id>', 'embedded server only: inject a named fault (repeatable)', collect)
    .option('--rate-limit <n>', "embedded server only: the main key's per-minute limit", integer('--rate-limit', 1, 10_000_000))
    .option('--quiet', 'print only the failed checks and the summary')
    .option('--sign', "sign the submission's statement keylessly with Sigstore, with the CI's OIDC token (GitHub Actions: id-token: write)")
    .option('--sign-key <pem>', "sign the submission's statement with this ECDSA P-256 or Ed25519 private key (PEM)")
    .option('--fulcio-url <url>', 'a private Sigstore: its Fulcio (default https://fulcio.sigstore.dev)')
    .option('--rekor-url <url>', 'a private Sigstore: its Rekor (default https://rekor.sigstore.dev)')
    .option('--trusted-root <file>', "a private Sigstore: its trusted_root.json, for certify's own check of the signature")
    .addOption(new Option('--rekor-entry-type <kind>', "a private Sigstore: Rekor v1's entry kind (default dsse)").choices(['dsse', 'intoto']).hideHelp())
    // Accepted only to be refused with a reason: a certification runs everything, as it is.
    .addOption(new Option('--only <ids>').hideHelp())
    .addOption(new Option('--skip <ids>').hideHelp())
    .addOption(new Option('--waivers <file>').hideHelp())
    .addOption(new Option('--profile <profile>').hideHelp())
    .action(async (opts) => {
      if (opts.sign && opts.signKey) {
        process.stderr.write('--sign (keyless) and --sign-key <pem> are two ways to sign: give one\n')
        return setExit(2)
      }
      const refused = (['only', 'skip', 'waivers', 'profile'] as const).filter(
        (name) => opts[name] !== undefined && !(name === 'profile' && opts.profile === 'full'),
      )
      if (refused.length > 0) {
        process.stderr.write(
          `certify runs every MUST and SHOULD check with the full profile and no waiver: ${refused.map((n) => `--${n}`).join(', ')} is not allowed (use \`run\` for everyday runs)\n`,
        )
        return setExit(2)
      }
      const { certifyCommand } = await import('../certify-command.ts')
      const outcome = await certifyCommand({
        out: opts.out,
        product: {
          product: opts.product,
          version: opts.productVersion,
          vendor: opts.vendor,
          contact: opts.contact,
          description: opts.description,
          website: opts.website,
        },
        productFile: opts.productFile,
        baseUrl: opts.baseUrl,
        seed: opts.seed,
        variant: opts.variant,
        faults: opts.fault,
        rateLimit: opts.rateLimit,
        quiet: opts.quiet,
        embedded: opts.embedded,
        sign: opts.sign,
        signKey: opts.signKey,
        fulcioUrl: opts.fulcioUrl,
        rekorUrl: opts.rekorUrl,
        trustedRoot: opts.trustedRoot,
        rekorEntryType: opts.rekorEntryType,
      })
      setExit(outcome.exitCode)
    })
}
