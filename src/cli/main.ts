// The crm-conformance command line. Each command is a thin shell over a module that does the work.
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander'
import type { Profile } from '../checks/types.ts'
import { CrmConfError } from '../errors.ts'
import { printable, printableLine } from '../text/printable.ts'
import { addConditionOptions, conditionsFromFlags } from '../reference/conditions-options.ts'
import { TOOL_VERSION } from '../version.ts'
import { registerCoverageCommand } from './coverage-command.ts'
import { PROFILES } from '../vocabulary.ts'

const collect = (value: string, previous: string[] = []) => [
  ...previous,
  ...value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean),
]

function integer(name: string, min: number, max: number) {
  return (value: string) => {
    const n = Number(value)
    if (!Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`${name} must be an integer from ${min} to ${max}`)
    return n
  }
}

export function buildProgram(setExit: (code: number) => void): Command {
  const program = new Command()
    .name('crm-conformance')
    .description('Conformance test suite for the CRM REST API (spec/crm-api-spec.md)')
    .version(TOOL_VERSION)
    .showHelpAfterError()
    .exitOverride()

  program
    .command('run', { isDefault: true })
    .description('run the conformance suites against CRM_BASE_URL, or against the embedded reference server when it is unset')
    .option('--base-url <url>', 'base address including /v1 (overrides CRM_BASE_URL)')
    .addOption(new Option('--profile <profile>', 'full | safe | read-only (default: full embedded, safe against CRM_BASE_URL)').choices(PROFILES))
    .option('--only <ids>', 'run only these checks: id, id prefix, area or clause (repeatable, comma-separated)', collect)
    .option('--skip <ids>', 'skip these checks: id, id prefix, area or clause (repeatable, comma-separated)', collect)
    .option('--seed <n>', 'seed of the generated data; replays a run exactly', integer('--seed', 0, 2 ** 31 - 1))
    .option('--report-dir <dir>', 'where to write the reports (default reports/<run id>/, copied to reports/latest/)')
    .option('--strict', 'SHOULD failures also fail the run')
    .option('--embedded', 'test the embedded reference server (required in CI, or when CRM_ keys are set, without CRM_BASE_URL)')
    .option('--variant <name>', 'embedded server only: a legal variant where the spec says "not shown"')
    .option('--fault <id>', 'embedded server only: inject a named fault (repeatable)', collect)
    .option('--rate-limit <n>', "embedded server only: the main key's per-minute limit", integer('--rate-limit', 1, 10_000_000))
    .option('--quiet', 'print only the failed checks and the summary')
    .option('--no-sweep', 'do not remove records that crashed earlier runs left behind before starting')
    .option('--waivers <file>', 'known failures: a waivers.json of { check, reason, expires? }; a waived failure does not fail the run, a stale waiver does')
    .option(
      '--rerun-failed <report>',
      'run exactly the checks that failed or errored in that report folder or report.json; each is labelled fixed or still failing',
    )
    .option(
      '--repeat <n>',
      'run each selected check n times (seeds seed, seed+1, …); one that passed and failed is labelled flaky',
      integer('--repeat', 1, 100),
    )
    .action(async (opts) => {
      const { runCommand } = await import('./run-command.ts')
      const outcome = await runCommand({
        baseUrl: opts.baseUrl,
        profile: opts.profile as Profile | undefined,
        only: opts.only,
        skip: opts.skip,
        seed: opts.seed,
        reportDir: opts.reportDir,
        strict: opts.strict,
        variant: opts.variant,
        faults: opts.fault,
        rateLimit: opts.rateLimit,
        quiet: opts.quiet,
        sweepOlderThanMs: opts.sweep === false ? false : undefined,
        waiversFile: opts.waivers,
        embedded: opts.embedded,
        rerunFailed: opts.rerunFailed,
        repeat: opts.repeat,
        history: opts.history,
      })
      setExit(outcome.exitCode)
    })

  // Certification (src/certify/): certify writes a submission folder, verify-submission checks one.
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
    // Accepted only to be refused with a reason: a certification runs everything, as it is.
    .addOption(new Option('--only <ids>').hideHelp())
    .addOption(new Option('--skip <ids>').hideHelp())
    .addOption(new Option('--waivers <file>').hideHelp())
    .addOption(new Option('--profile <profile>').hideHelp())
    .action(async (opts) => {
      const refused = (['only', 'skip', 'waivers', 'profile'] as const).filter(
        (name) => opts[name] !== undefined && !(name === 'profile' && opts.profile === 'full'),
      )
      if (refused.length > 0) {
        process.stderr.write(
          `certify runs every MUST and SHOULD check with the full profile and no waiver: ${refused.map((n) => `--${n}`).join(', ')} is not allowed (use \`run\` for everyday runs)\n`,
        )
        return setExit(2)
      }
      const { certifyCommand } = await import('./certify-command.ts')
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
      })
      setExit(outcome.exitCode)
    })

  program
    .command('verify-submission')
    .description('check a certification submission: manifest, every certifying check present, verdict, no waiver or selection, no secret')
    .argument('<dir>', 'the submission folder')
    .option('--json', 'print the result as JSON')
    .action(async (dir: string, opts) => {
      const { verifyCommand } = await import('./verify-submission-command.ts')
      const outcome = await verifyCommand(dir, { json: opts.json })
      setExit(outcome.exitCode)
    })

  program
    .command('list')
    .description('list every check: id, level, clauses, title')
    .option('--json', 'as JSON')
    .option(
      '--where <id|clause>',
      'where each check this selects is declared: file and line (id, id prefix, area or clause; repeatable, comma-separated)',
      collect,
    )
    .action(async (opts) => {
      const { catalogue } = await import('../../suites/index.ts')
      if (opts.where) {
        const { whereChecks } = await import('./where.ts')
        const answer = whereChecks(catalogue, opts.where)
        if (answer.problem) {
          process.stderr.write(`${printable(answer.problem)}\n`)
          return setExit(2)
        }
        if (opts.json)
          process.stdout.write(
            `${JSON.stringify(
              answer.checks.map(({ run: _run, ...c }) => c),
              null,
              2,
            )}\n`,
          )
        else process.stdout.write(answer.lines.map((line) => `${line}\n`).join(''))
        return
      }
      if (opts.json)
        process.stdout.write(
          `${JSON.stringify(
            catalogue.map(({ run: _run, declaredAt: _declaredAt, ...c }) => c),
            null,
            2,
          )}\n`,
        )
      else for (const c of catalogue) process.stdout.write(`${c.id.padEnd(48)} ${c.level.padEnd(6)} ${c.clauses.join(',').padEnd(14)} ${c.title}\n`)
    })

  program
    .command('serve')
    .description('run the embedded reference server; prints its base URL and a ready-to-paste .env block')
    .option('--port <n>', 'port (0: any free port)', integer('--port', 0, 65535), 8080)
    .option('--host <host>', 'host', '127.0.0.1')
    .addOption(new Option('--base-path <path>', 'advertised base path (default /v1; the alt-b variant: /api/v1)').choices(['/v1', '/api/v1']))
    .option('--variant <name>', 'a legal variant where the spec says "not shown"')
    .option('--fault <id>', 'inject a named fault (repeatable)', collect)
    .option('--webhook-url <url>', 'where the server sends webhook events (default: the sink, http://127.0.0.1:8787/)')
    .option('--cors [origin]', 'answer CORS preflights and allow a browser page on another origin to call the API (default origin: any)')
    .action(async (opts) => {
      const { embeddedOptionProblem } = await import('./embedded-options.ts')
      const problem = await embeddedOptionProblem(opts.variant, opts.fault)
      if (problem) {
        process.stderr.write(`${problem}\n`)
        return setExit(2)
      }
      if (opts.webhookUrl !== undefined && !/^https?:\/\/[^/]/.test(opts.webhookUrl)) {
        process.stderr.write(`--webhook-url ${printableLine(opts.webhookUrl)} is not an http(s) URL\n`)
        return setExit(2)
      }
      const { runServeCommand } = await import('../reference/serve-command.ts')
      await runServeCommand({
        webhookUrl: opts.webhookUrl,
        cors: opts.cors === undefined ? undefined : opts.cors === true ? '*' : opts.cors,
        port: opts.port,
        host: opts.host,
        basePath: opts.basePath,
        variant: opts.variant,
        faults: opts.fault,
        rateLimitPerMinute: opts.rateLimit,
        conditions: conditionsFromFlags(opts),
        listLagMs: opts.listLag,
      })
    })
  addConditionOptions(program.commands.find((c) => c.name() === 'serve')!)

  program
    .command('sink')
    .description('receive and verify webhook deliveries (§6); prints each one and appends it to a JSON Lines log')
    .option('--host <host>', 'host (default CRM_WEBHOOK_SINK_HOST or 127.0.0.1)')
    .option('--port <n>', 'port (default CRM_WEBHOOK_SINK_PORT or 8787)', integer('--port', 0, 65535))
    .option('--secret <whsec>', "the endpoint's signing secret (default CRM_WEBHOOK_SECRET)")
    .addOption(new Option('--tls <mode>', 'serve HTTPS with a self-signed certificate').choices(['self-signed']))
    .option('--cert <file>', 'certificate (PEM) for HTTPS')
    .option('--key <file>', 'private key (PEM) for HTTPS')
    .option('--log <file>', 'JSON Lines log', 'webhook-deliveries.jsonl')
    .option(
      '--respond <rule>',
      'answer chosen deliveries non-2xx to observe retries: <type>=<status>[:<first n attempts>], * for any type (repeatable)',
      collect,
    )
    .action(async (opts) => {
      const { loadConfig } = await import('../config/config.ts')
      const { runSinkCommand } = await import('../webhooks/sink-command.ts')
      const config = loadConfig()
      const secret = opts.secret ?? config.webhookSecret
      if (!secret) throw new CrmConfError('CRMCONF_USAGE', 'sink: --secret or CRM_WEBHOOK_SECRET is required')
      await runSinkCommand({
        host: opts.host ?? config.sinkHost,
        port: opts.port ?? config.sinkPort,
        secret,
        tls: opts.tls,
        cert: opts.cert,
        key: opts.key,
        logFile: opts.log,
        respond: opts.respond,
      })
    })

  program
    .command('sweep')
    .description('remove records that earlier runs of this suite left behind (tagged crmconf-run-<run id>)')
    .option('--older-than <age>', 'only runs older than this: 30m, 6h, 2d', '6h')
    .option('--dry-run', 'list what would be removed, remove nothing')
    .option('--run <id>', 'only the records of this run, whatever its age (as an interrupted run prints it)')
    .option('--base-url <url>', 'base address including /v1 (overrides CRM_BASE_URL)')
    .action(async (opts) => {
      const { loadConfig } = await import('../config/config.ts')
      const { sweep, parseDuration } = await import('../engine/sweep.ts')
      const { transportFor } = await import('../http/for-config.ts')
      let olderThanMs: number
      try {
        olderThanMs = parseDuration(opts.olderThan)
      } catch (error) {
        throw new CrmConfError('CRMCONF_USAGE', `sweep: --older-than: ${(error as Error).message}`)
      }
      const config = loadConfig(process.env, { baseUrl: opts.baseUrl })
      if (!config.baseUrl) throw new CrmConfError('CRMCONF_USAGE', 'sweep needs CRM_BASE_URL (or --base-url) and CRM_API_KEY')
      const transport = transportFor(config)
      try {
        const result = await sweep(transport, opts.run ? { olderThanMs: 0, onlyRunId: opts.run, dryRun: opts.dryRun } : { olderThanMs, dryRun: opts.dryRun })
        for (const r of result.removed)
          process.stdout.write(printable(`${opts.dryRun ? 'would remove' : 'removed'} ${r.resource} ${printableLine(r.id)} (run ${r.runId})\n`))
        for (const f of result.failed) process.stdout.write(printable(`could not remove ${f.resource} ${printableLine(f.id)}: ${f.reason}\n`))
        process.stdout.write(
          `${result.scanned} records scanned, ${result.removed.length} ${opts.dryRun ? 'to remove' : 'removed'}, ${result.failed.length} failed\n`,
        )
        setExit(result.failed.length > 0 ? 1 : 0)
      } finally {
        await transport.close()
      }
    })

  // The contract verifier on real traffic (src/traffic/).
  program
    .command('proxy')
    .description('a validating proxy: forwards every request to --target unchanged and judges the traffic; on SIGINT/SIGTERM writes the report')
    .option('--target <url>', "required: the target's base URL, /v1 included (e.g. https://crm.example.com/v1)")
    // 8081: beside `serve` on 8080, so the README's serve-then-proxy sequence does not collide.
    .option('--port <n>', 'port (0: any free port)', integer('--port', 0, 65535), 8081)
    .option('--host <host>', 'host', '127.0.0.1')
    .option('--report-dir <dir>', 'where to write the reports (default reports/<run id>/, copied to reports/latest/)')
    .option('--record <file>', 'also write every exchange (secrets masked) to this NDJSON file, for verify-traffic')
    .addOption(new Option('--fail-on <level>', 'exit 1 when a rule of this level (or above) was broken').choices(['must', 'should']).default('must'))
    .action(async (opts) => {
      if (!opts.target) throw new CrmConfError('CRMCONF_USAGE', 'proxy: --target <url> is required: the base URL of the API to forward to, /v1 included')
      const { proxyCommand } = await import('../traffic/proxy-command.ts')
      const outcome = await proxyCommand({
        target: opts.target,
        host: opts.host,
        port: opts.port,
        reportDir: opts.reportDir,
        record: opts.record,
        failOn: opts.failOn,
      })
      setExit(outcome.exitCode)
    })

  program
    .command('verify-traffic')
    .description('judge recorded traffic: HAR 1.2 files (devtools, Playwright, mitmproxy, Charles) and NDJSON exchanges (proxy --record)')
    .argument('<file...>', 'HAR or NDJSON files, judged as one stream in the order given')
    .option('--report-dir <dir>', 'where to write the reports (default reports/<run id>/, copied to reports/latest/)')
    .option('--base-path <path>', "the API's base path in the URLs (default: read from the traffic, else /v1)")
    .addOption(new Option('--fail-on <level>', 'exit 1 when a rule of this level (or above) was broken').choices(['must', 'should']).default('must'))
    .action(async (files: string[], opts) => {
      const { verifyTrafficCommand } = await import('../traffic/verify-command.ts')
      const outcome = await verifyTrafficCommand({ files, reportDir: opts.reportDir, basePath: opts.basePath, failOn: opts.failOn })
      setExit(outcome.exitCode)
    })

  registerCoverageCommand(program)

  program
    .command('diff')
    .description('what changed between two runs: one line per changed check; exit 1 when a check that passed now fails or errors')
    .argument('<before>', 'the earlier report folder or report.json')
    .argument('<after>', 'the later report folder or report.json')
    .option('--json', 'print the changes as JSON')
    .option('--markdown', 'print the changes as Markdown for a pull-request comment')
    .action(async (before: string, after: string, opts) => {
      const { diffCommand } = await import('./diff-command.ts')
      setExit(diffCommand(before, after, { json: opts.json, markdown: opts.markdown }).exitCode)
    })

  program
    .command('openapi')
    .description('write an OpenAPI 3.1 document assembled from schemas/')
    .option('--out <file>', 'output file', 'crm-api.openapi.json')
    .action(async (opts) => {
      const { writeOpenApi } = await import('../openapi/build.ts')
      await writeOpenApi(opts.out)
      process.stdout.write(`wrote ${opts.out}\n`)
    })

  return program
}

export async function main(argv: string[]): Promise<number> {
  let exitCode = 0
  const program = buildProgram((code) => (exitCode = code))
  // `run` is the default command, so a mistyped command (`certfy`) would otherwise be refused as an extra argument of run.
  const first = argv[0]
  if (first !== undefined && !first.startsWith('-') && first !== 'help' && !program.commands.some((c) => c.name() === first || c.aliases().includes(first))) {
    process.stderr.write(
      `error: unknown command '${first}' (commands: ${program.commands.map((c) => c.name()).join(', ')}; crm-conformance --help lists them)\n`,
    )
    return 2
  }
  try {
    await program.parseAsync(argv, { from: 'user' })
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2
    // An unusable configuration (sweep, sink) is often a misspelt name (CRM_APIKEY): said with it.
    if (error instanceof CrmConfError && error.code === 'CRMCONF_CONFIG_INVALID') {
      const { environmentFacts, PUBLIC_VARIABLES } = await import('../config/config.ts')
      const { lookalikeWarnings } = await import('../config/env-names.ts')
      for (const line of lookalikeWarnings(environmentFacts(process.env).names, PUBLIC_VARIABLES)) process.stderr.write(`${printable(line)}\n`)
    }
    // A refusal may quote what a server or a file said.
    process.stderr.write(`${printable((error as Error).message)}\n`)
    return 2
  }
  return exitCode
}
