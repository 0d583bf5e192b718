// `crm-conformance proxy`: the contract verifier on live traffic, a validating proxy (src/traffic/proxy-command.ts).
import { type Command, Option } from 'commander'
import { CrmConfError } from '../../errors.ts'
import { integer } from './options.ts'

export function registerProxyCommand(program: Command, setExit: (code: number) => void): void {
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
      const { proxyCommand } = await import('../../traffic/proxy-command.ts')
      const outcome = await proxyCommand({
        target: opts.target,
        host: opts.host,
        port: opts.port,
        reportDir: opts.reportDir,
        record: opts.record,
        failOn: opts.failOn,
      }).catch(async (error: unknown) => {
        const { listenProblem } = await import('../listen-problem.ts')
        const problem = listenProblem('proxy', error, opts.host, opts.port)
        if (!problem) throw error
        process.stderr.write(`${problem}\n`)
        return { exitCode: 2 }
      })
      setExit(outcome.exitCode)
    })
}
