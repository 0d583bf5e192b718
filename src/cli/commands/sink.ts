// `crm-conformance sink`: the webhook sink as a command (src/webhooks/sink-command.ts).
import { type Command, Option } from 'commander'
import { CrmConfError } from '../../errors.ts'
import { collect, integer } from './options.ts'

export function registerSinkCommand(program: Command): void {
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
      'answer chosen deliveries non-2xx to observe retries: <type>=<status>[:<first n attempts>], * for any type (repeatable); a byte-identical copy of an attempt gets the answer that attempt got',
      collect,
    )
    .action(async (opts) => {
      const { loadConfig } = await import('../../config/config.ts')
      const { runSinkCommand } = await import('../../webhooks/sink-command.ts')
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
}
