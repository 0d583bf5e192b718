// `crm-conformance serve`: the embedded reference server on a port (src/reference/serve-command.ts), with the deployment
// conditions as flags (src/reference/conditions-options.ts).
import { type Command, Option } from 'commander'
import { addConditionOptions, conditionsFromFlags } from '../../reference/conditions-options.ts'
import { printableLine } from '../../text/printable.ts'
import { collect, integer } from './options.ts'

export function registerServeCommand(program: Command, setExit: (code: number) => void): void {
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
      const { embeddedOptionProblem } = await import('../embedded-options.ts')
      const problem = await embeddedOptionProblem(opts.variant, opts.fault)
      if (problem) {
        process.stderr.write(`${problem}\n`)
        return setExit(2)
      }
      if (opts.webhookUrl !== undefined && !/^https?:\/\/[^/]/.test(opts.webhookUrl)) {
        process.stderr.write(`--webhook-url ${printableLine(opts.webhookUrl)} is not an http(s) URL\n`)
        return setExit(2)
      }
      const { runServeCommand } = await import('../../reference/serve-command.ts')
      try {
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
      } catch (error) {
        const { listenProblem } = await import('../listen-problem.ts')
        const problem = listenProblem('serve', error, opts.host, opts.port)
        if (!problem) throw error
        process.stderr.write(`${problem}\n`)
        return setExit(2)
      }
    })
  addConditionOptions(program.commands.find((c) => c.name() === 'serve')!)
}
