// `crm-conformance run` (the default command): its options, handed to runCommand (../run-command.ts), loaded only when it runs.
import { type Command, Option } from 'commander'
import { PROFILE_WORDS, type ProfileWord } from '../../vocabulary.ts'
import { collect, integer } from './options.ts'

export function registerRunCommand(program: Command, setExit: (code: number) => void): void {
  program
    .command('run', { isDefault: true })
    .description('run the conformance suites against CRM_BASE_URL, or against the embedded reference server when it is unset')
    .option('--base-url <url>', 'base address including /v1 (overrides CRM_BASE_URL)')
    .addOption(
      new Option(
        '--profile <profile>',
        "full | safe | read-only | deep (full, with the explorer's nightly budget) (default: full embedded, safe against CRM_BASE_URL)",
      ).choices(PROFILE_WORDS),
    )
    .option('--only <ids>', 'run only these checks: id, id prefix, area or clause (repeatable, comma-separated)', collect)
    .option('--skip <ids>', 'skip these checks: id, id prefix, area or clause (repeatable, comma-separated)', collect)
    .option('--seed <n>', 'seed of the generated data; replays a run exactly', integer('--seed', 0, 2 ** 31 - 1))
    .option('--report-dir <dir>', 'where to write the reports (default reports/<run id>/, copied to reports/latest/)')
    .option('--strict', 'SHOULD failures also fail the run')
    .option('--embedded', 'test the embedded reference server (required in CI, or when CRM_ keys are set, without CRM_BASE_URL)')
    .option('--variant <name>', 'embedded server only: a legal variant where the spec says "not shown"')
    .option('--fault <id>', 'embedded server only: inject a named fault (repeatable)', collect)
    .option('--rate-limit <n>', "embedded server only: the main key's per-minute limit", integer('--rate-limit', 1, 10_000_000))
    .option(
      '--explore-requests <n>',
      "the explorer's requests to the target, shrinking included (overrides CRM_EXPLORE_REQUESTS; 0 skips its checks)",
      integer('--explore-requests', 0, 1_000_000),
    )
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
    .option(
      '--history <file>',
      'append one JSON line for this run to that file (created if missing); report.html charts the last 30 runs and shows the share the explorer explored over all of them',
    )
    .action(async (opts) => {
      const { runCommand } = await import('../run-command.ts')
      const outcome = await runCommand({
        baseUrl: opts.baseUrl,
        profile: opts.profile as ProfileWord | undefined,
        exploreRequests: opts.exploreRequests,
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
}
