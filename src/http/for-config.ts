// The one way to build the redactor and the transport from a resolved configuration.
import { KEY_VARIABLES, type KeyRole, type ResolvedConfig } from '../config/config.ts'
import type { Exchange } from './exchange.ts'
import { Redactor, type NamedSecret } from './redact.ts'
import { Transport } from './transport.ts'

/**
 * Which CRM_EXTRA_HEADERS values are also masked wherever a server echoes them (bodies, URLs, other headers):
 * those of a header named like a credential, and any long enough to be one. A short plain value (`X-Env:
 * staging`) is masked only in the header that carries it: masking `staging` in every text would also mask a
 * base URL such as https://staging.crm.example/v1, and the report's leak guard would then refuse the report.
 */
const CREDENTIAL_HEADER = /key|token|secret|auth|pass|signature|credential|session|cookie/i
const MIN_EXTRA_HEADER_SECRET = 12

export function extraHeaderIsSecret(name: string, value: string): boolean {
  return value.length >= MIN_EXTRA_HEADER_SECRET || (CREDENTIAL_HEADER.test(name) && value.length >= 4)
}

/** Every secret of the configuration with the variable that holds it. */
export function namedSecrets(config: ResolvedConfig): NamedSecret[] {
  const secrets = (Object.entries(config.keys) as [KeyRole, string | undefined][])
    .filter((entry): entry is [KeyRole, string] => typeof entry[1] === 'string' && entry[1].length > 0)
    .map(([role, value]) => ({ name: KEY_VARIABLES[role], value }))
  if (config.webhookSecret) secrets.push({ name: 'CRM_WEBHOOK_SECRET', value: config.webhookSecret })
  // A gateway header may be a credential: masked like a key wherever a server echoes it.
  for (const [name, value] of Object.entries(config.extraHeaders ?? {})) {
    if (extraHeaderIsSecret(name, value)) secrets.push({ name: 'CRM_EXTRA_HEADERS', value })
  }
  // A proxy's password (http://user:password@proxy:3128) may surface in an error message.
  for (const [variable, url] of [
    ['HTTP_PROXY', config.proxy?.httpProxy],
    ['HTTPS_PROXY', config.proxy?.httpsProxy],
  ] as const) {
    const password = proxyPassword(url)
    if (password) secrets.push({ name: variable, value: password })
  }
  return secrets
}

function proxyPassword(url: string | undefined): string | undefined {
  if (!url) return undefined
  try {
    return decodeURIComponent(new URL(url).password) || undefined
  } catch {
    return undefined
  }
}

export function redactorFor(config: ResolvedConfig): Redactor {
  const redactor = new Redactor(namedSecrets(config))
  for (const name of Object.keys(config.extraHeaders ?? {})) redactor.maskHeader(name, 'CRM_EXTRA_HEADERS')
  return redactor
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
    extraHeaders: config.extraHeaders,
    proxy: config.proxy,
    onExchange: options.onExchange,
  })
}
