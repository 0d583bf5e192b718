// `crm-conformance verify-traffic`: the contract verifier on recorded traffic, HAR or NDJSON (src/traffic/verify-command.ts).
import { type Command, Option } from 'commander'

export function registerVerifyTrafficCommand(program: Command, setExit: (code: number) => void): void {
  program
    .command('verify-traffic')
    .description('judge recorded traffic: HAR 1.2 files (devtools, Playwright, mitmproxy, Charles) and NDJSON exchanges (proxy --record)')
    .argument('<file...>', 'HAR or NDJSON files, judged as one stream in the order given')
    .option('--report-dir <dir>', 'where to write the reports (default reports/<run id>/, copied to reports/latest/)')
    .option('--base-path <path>', "the API's base path in the URLs (default: read from the traffic, else /v1)")
    .addOption(new Option('--fail-on <level>', 'exit 1 when a rule of this level (or above) was broken').choices(['must', 'should']).default('must'))
    .action(async (files: string[], opts) => {
      const { verifyTrafficCommand } = await import('../../traffic/verify-command.ts')
      const outcome = await verifyTrafficCommand({ files, reportDir: opts.reportDir, basePath: opts.basePath, failOn: opts.failOn })
      setExit(outcome.exitCode)
    })
}
