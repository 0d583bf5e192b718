// `crm-conformance serve`: the reference server as a local stand-in for the real service.

import { DEFAULTS } from '../config/config.ts'
import { printable } from '../text/printable.ts'
import type { ServerConditions } from './conditions.ts'
import { describeConditions } from './conditions-options.ts'
import { REFERENCE_DEFAULTS, startReferenceServer, type BasePath, type VariantName } from './index.ts'

export interface ServeCommandOptions {
  port: number
  host: string
  basePath?: BasePath
  variant?: VariantName
  faults?: string[]
  /**
   * Where events go (§6). Default: the webhook sink's default address (`crm-conformance sink`, and the sink a
   * `crm-conformance run` starts against a CRM_BASE_URL), so serve + run exercise webhooks with no setup.
   */
  webhookUrl?: string
  seed?: number
  /** The main key's per-minute limit (default 600). */
  rateLimitPerMinute?: number
  /** Deployment conditions to play (limiter shape, response delay, idle close, relay). */
  conditions?: ServerConditions
  /** Lists show a write this long after it (a search index); reads by id at once. */
  listLagMs?: number
  /** `--cors`: the origin allowed to call the API from a browser (`*`: any); unset, no CORS headers. */
  cors?: string
  /** Where the banner goes (default stdout). */
  write?: (text: string) => void
}

/** Starts the server, prints its base URL and `.env` block, and runs until SIGINT or SIGTERM. */
export async function runServeCommand(options: ServeCommandOptions): Promise<void> {
  // Flags echo what was typed (a variant, a path): printed inert (src/text/printable.ts).
  const rawWrite = options.write ?? ((text: string) => void process.stdout.write(text))
  const write = (text: string) => rawWrite(printable(text))
  const webhookUrl = options.webhookUrl ?? `http://${DEFAULTS.sinkHost}:${DEFAULTS.sinkPort}/`
  const server = await startReferenceServer({
    port: options.port,
    host: options.host,
    basePath: options.basePath,
    variant: options.variant,
    faults: options.faults,
    seed: options.seed,
    webhook: { url: webhookUrl },
    rateLimitPerMinute: options.rateLimitPerMinute,
    conditions: options.conditions,
    listLagMs: options.listLagMs,
    cors: options.cors,
  })
  write(`CRM reference server listening at ${server.baseUrl} (also ${server.apiBaseUrl})\n`)
  write(
    `Conditions: ${describeConditions(options.conditions ?? {}, options.rateLimitPerMinute ?? REFERENCE_DEFAULTS.rateLimitPerMinute)}${options.listLagMs ? `; lists ${options.listLagMs} ms behind writes` : ''}\n`,
  )
  write(`Webhook events go to ${webhookUrl}${options.webhookUrl ? '' : ' (--webhook-url to change)'}\n`)
  if (options.cors) write(`CORS: browser pages from ${options.cors === '*' ? 'any origin' : options.cors} may call the API\n`)
  write('\n')
  write('Paste into .env:\n\n')
  write(server.envBlock())
  write('\nCtrl-C to stop.\n')

  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      resolve()
    }
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
  })
  await server.close()
}
