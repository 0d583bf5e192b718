// The one way to build the redactor and the transport from a resolved configuration.
import { KEY_VARIABLES, type KeyRole, type ResolvedConfig } from '../config/config.ts'
import type { Exchange } from './exchange.ts'
import { Redactor, type NamedSecret } from './redact.ts'
import { Transport } from './transport.ts'

/** Every secret of the configuration with the variable that holds it. */
export function namedSecrets(config: ResolvedConfig): NamedSecret[] {
  const secrets = (Object.entries(config.keys) as [KeyRole, string | undefined][])
    .filter((entry): entry is [KeyRole, string] => typeof entry[1] === 'string' && entry[1].length > 0)
    .map(([role, value]) => ({ name: KEY_VARIABLES[role], value }))
  if (config.webhookSecret) secrets.push({ name: 'CRM_WEBHOOK_SECRET', value: config.webhookSecret })
  return secrets
}

export function redactorFor(config: ResolvedConfig): Redactor {
  return new Redactor(namedSecrets(config))
}

export function transportFor(config: ResolvedConfig, options: { redactor?: Redactor; onExchange?: (exchange: Exchange) => void } = {}): Transport {
  return new Transport({
    baseUrl: config.baseUrl!,
    keys: config.keys,
    redactor: options.redactor ?? redactorFor(config),
    timeoutMs: config.requestTimeoutMs,
    maxResponseBytes: config.maxResponseBytes,
    concurrency: config.concurrency,
    requestBudget: config.requestBudget,
    maxRetryAfterS: config.maxRetryAfterS,
    onExchange: options.onExchange,
  })
}
