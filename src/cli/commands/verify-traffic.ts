// `crm-conformance verify-traffic`: the contract verifier on recorded traffic, HAR or NDJSON (src/traffic/verify-command.ts),
// in --jobs threads or one --shard of N; `merge-reports`: the shards' reports as the whole's (src/traffic/merge-reports.ts).
import { type Command, InvalidArgumentError, Option } from 'commander'
import { parseShard, type ShardSpec } from '../../traffic/shard-spec.ts'

export function registerVerifyTrafficCommand(program: Command, setExit: (code: number) => void): void {
  program
    .command('verify-traffic')
    .description('judge recorded traffic: HAR 1.2 files (devtools, Playwright, mitmproxy, Charles) and NDJSON exchanges (proxy --record)')
    .argument('<file...>', 'HAR or NDJSON files, judged as one stream in the order given')
    .option('--report-dir <dir>', 'where to write the reports (default reports/<run id>/, copied to reports/latest/)')
    .option('--base-path <path>', "the API's base path in the URLs (default: read from the traffic, else /v1)")
    .addOption(new Option('--fail-on <level>', 'exit 1 when a rule of this level (or above) was broken').choices(['must', 'should']).default('must'))
    .option('--jobs <n>', 'worker threads judging (default 1: see docs/traffic.md for when more pay)', positiveInteger('--jobs'))
    .option('--shard <K/N>', 'judge the K-th of N shards only (a key, a collection: always in one shard); merge-reports merges the shards', shardOf)
    .action(async (files: string[], opts) => {
      const { verifyTrafficCommand } = await import('../../traffic/verify-command.ts')
      const outcome = await verifyTrafficCommand({
        files,
        reportDir: opts.reportDir,
        basePath: opts.basePath,
        failOn: opts.failOn,
        ...(opts.jobs !== undefined ? { jobs: opts.jobs } : {}),
        ...(opts.shard !== undefined ? { shard: opts.shard } : {}),
      })
      setExit(outcome.exitCode)
    })

  program
    .command('merge-reports')
    .description('merge the reports of verify-traffic --shard 1/N … N/N into the report of the whole traffic')
    .argument('<dirs...>', "the shards' report folders (each holding report.json)")
    // Checked in the action, not by requiredOption: commander would name it before an unknown option.
    .option('--report-dir <dir>', 'where to write the merged reports (required)')
    .action(async function (this: Command, dirs: string[], opts) {
      if (opts.reportDir === undefined) this.error('error: merge-reports needs --report-dir <dir>: where to write the merged reports', { exitCode: 2 })
      const { mergeReportsCommand } = await import('../../traffic/merge-reports.ts')
      const outcome = await mergeReportsCommand({ dirs, reportDir: opts.reportDir })
      setExit(outcome.exitCode)
    })
}

function positiveInteger(name: string) {
  return (value: string): number => {
    const n = Number(value)
    if (!/^\d+$/.test(value.trim()) || n < 1 || n > 256) throw new InvalidArgumentError(`${name} takes a whole number from 1 to 256`)
    return n
  }
}

function shardOf(value: string): ShardSpec {
  const shard = parseShard(value)
  if (!shard) throw new InvalidArgumentError('--shard takes K/N with 1 ≤ K ≤ N (e.g. 2/3)')
  return shard
}
