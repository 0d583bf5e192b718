// `crm-conformance sink`: runs the webhook sink from command-line options until SIGINT or SIGTERM, printing each
// delivery as it comes and a summary at the end.
import { readFileSync } from 'node:fs'
import { CrmConfError } from '../errors.ts'
import { printable } from '../text/printable.ts'
import { SINK_DEFAULTS, startSink } from './sink.ts'
import type { RespondRule, Sink, SinkCounts, SinkOptions } from './sink.ts'
import { TIMESTAMP_TOLERANCE_S } from './verify.ts'

export interface SinkCommandOptions {
  host?: string
  port?: number
  /** The endpoint's signing secret, `whsec_…` (§6.1). */
  secret: string
  /** `self-signed`: HTTPS with a certificate generated at start. Exclusive with cert/key. */
  tls?: string
  /** PEM files of a certificate and its key, for HTTPS with a certificate the sender trusts. */
  cert?: string
  key?: string
  /** JSON Lines log; none: no log. */
  logFile?: string
  /**
   * Non-2xx answers to chosen verified deliveries, to observe retries: `<type>=<status>` answers every attempt,
   * `<type>=<status>:<n>` only the first n attempts of each webhook-id; `*` matches every type. First match wins.
   */
  respond?: string[]
  maxBodyBytes?: number
  headerTimeoutMs?: number
  bodyTimeoutMs?: number
}

export interface SinkCommandDeps {
  /** Stops the sink like SIGINT does. */
  signal?: AbortSignal
  /** Default: stdout. */
  write?: (text: string) => void
  /** Called once the sink listens. */
  onStarted?: (sink: Sink) => void
}

/** What the command received, as the sink counted it (`deliveries`: every request recorded, noise included). */
export interface SinkSummary extends Omit<SinkCounts, 'received'> {
  url: string
  deliveries: number
}

interface ResponseRule {
  type: string
  status: number
  attempts?: number
}

export function parseRespondRule(text: string): ResponseRule {
  const m = /^([^=\s]+)=(\d{3})(?::(\d+))?$/.exec(text.trim())
  const status = m ? Number(m[2]) : NaN
  if (!m || status < 200 || status > 599 || (m[3] !== undefined && Number(m[3]) < 1)) {
    throw new CrmConfError(
      'CRMCONF_USAGE',
      `--respond ${JSON.stringify(text)}: expected <type>=<status>[:<attempts>], e.g. invoice.paid=503:1 (status 200–599)`,
    )
  }
  return { type: m[1], status, ...(m[3] !== undefined ? { attempts: Number(m[3]) } : {}) }
}

function respondRule(rules: ResponseRule[]): RespondRule | undefined {
  if (rules.length === 0) return undefined
  return (event, { attempt }) => rules.find((r) => (r.type === '*' || r.type === event.type) && (r.attempts === undefined || attempt <= r.attempts))?.status
}

function readPem(flag: string, path: string): string {
  try {
    return readFileSync(path, 'utf8')
  } catch (error) {
    throw new CrmConfError('CRMCONF_CONFIG_INVALID', `${flag} ${path}: ${(error as Error).message}`, { cause: error })
  }
}

function tlsOption(options: SinkCommandOptions): SinkOptions['tls'] {
  if (options.tls !== undefined && options.tls !== 'self-signed') throw new CrmConfError('CRMCONF_USAGE', `--tls ${options.tls}: the only mode is self-signed`)
  if (options.tls && (options.cert || options.key)) throw new CrmConfError('CRMCONF_USAGE', '--tls self-signed and --cert/--key exclude each other')
  if (Boolean(options.cert) !== Boolean(options.key)) throw new CrmConfError('CRMCONF_USAGE', '--cert and --key go together')
  if (options.cert && options.key) return { cert: readPem('--cert', options.cert), key: readPem('--key', options.key) }
  return options.tls === 'self-signed' ? 'self-signed' : undefined
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.')
}

/** Runs until SIGINT, SIGTERM or deps.signal; resolves with what the sink received. */
export async function runSinkCommand(options: SinkCommandOptions, deps: SinkCommandDeps = {}): Promise<SinkSummary> {
  // A sender's types, ids and bodies are printed inert (src/text/printable.ts).
  const rawWrite = deps.write ?? ((text: string) => void process.stdout.write(text))
  const write = (text: string) => rawWrite(printable(text))
  const tls = tlsOption(options)
  const rules = (options.respond ?? []).map(parseRespondRule)
  const sink = await startSink({
    host: options.host,
    port: options.port,
    secret: options.secret,
    tls,
    logFile: options.logFile,
    maxBodyBytes: options.maxBodyBytes,
    headerTimeoutMs: options.headerTimeoutMs,
    bodyTimeoutMs: options.bodyTimeoutMs,
    print: (line) => write(`${line}\n`),
  })
  sink.respondWith(respondRule(rules))

  const host = new URL(sink.url).hostname.replace(/^\[|\]$/g, '')
  write(`Webhook sink listening on ${sink.url}${tls ? '' : ' (plain HTTP)'}\n`)
  write(`  verifying Standard Webhooks signatures (§6.5) with the endpoint's secret; timestamps within ${TIMESTAMP_TOLERANCE_S} s (§6.6)\n`)
  if (sink.certificate)
    write(`  certificate: ${tls === 'self-signed' ? 'self-signed, generated now' : 'from --cert'}, SHA-256 ${sink.certificate.fingerprint256}\n`)
  if (!tls && !isLoopback(options.host ?? host)) {
    write(
      '  warning: plain HTTP on a non-loopback address; §6.1 delivers to HTTPS endpoints: use --tls self-signed or --cert/--key unless a TLS proxy is in front\n',
    )
  }
  write(`  ${options.logFile ? `appending to ${options.logFile}` : 'no log file'}\n`)
  write(
    `  limits: bodies up to ${options.maxBodyBytes ?? SINK_DEFAULTS.maxBodyBytes} bytes (413 past it), headers within ${options.headerTimeoutMs ?? SINK_DEFAULTS.headerTimeoutMs} ms and bodies within ${options.bodyTimeoutMs ?? SINK_DEFAULTS.bodyTimeoutMs} ms (408); ` +
      `keeps the latest ${SINK_DEFAULTS.maxDeliveries} signed and ${SINK_DEFAULTS.maxUnverified} unsigned deliveries, counts the rest\n`,
  )
  for (const r of rules)
    write(`  answering ${r.status} to ${r.type === '*' ? 'every event' : r.type}${r.attempts ? ` (first ${r.attempts} attempt(s) of each webhook-id)` : ''}\n`)
  write('Press Ctrl+C to stop.\n')
  deps.onStarted?.(sink)

  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      deps.signal?.removeEventListener('abort', stop)
      resolve()
    }
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
    deps.signal?.addEventListener('abort', stop)
    if (deps.signal?.aborted) stop()
  })
  await sink.close()

  const counts = sink.counts()
  const summary: SinkSummary = {
    url: sink.url,
    deliveries: counts.received,
    accepted: counts.accepted,
    duplicate: counts.duplicate,
    rejected: counts.rejected,
    reasons: counts.reasons,
    noise: counts.noise,
    dropped: counts.dropped,
    tlsFailures: counts.tlsFailures,
    logLinesDropped: counts.logLinesDropped,
  }
  const list = (counted: Record<string, number>) =>
    Object.entries(counted)
      .map(([reason, n]) => `${reason} ${n}`)
      .join(', ')
  const byReason = list(summary.reasons)
  const noise = Object.values(summary.noise).reduce((n, k) => n + k, 0)
  write(
    `Stopped: ${summary.deliveries} deliveries: ${summary.accepted} accepted, ${summary.duplicate} duplicate, ${summary.rejected} rejected${byReason ? ` (${byReason})` : ''}` +
      `${summary.tlsFailures ? `; ${summary.tlsFailures} failed TLS handshake(s)` : ''}\n` +
      (noise ? `  ${noise} of them could not have come from the server (${list(summary.noise)})\n` : '') +
      (summary.dropped
        ? `  ${summary.dropped} deliveries were dropped from memory past the caps (${SINK_DEFAULTS.maxDeliveries} signed, ${SINK_DEFAULTS.maxUnverified} unsigned; each was printed${options.logFile ? ' and logged' : ''})\n`
        : '') +
      (summary.logLinesDropped ? `  ${summary.logLinesDropped} log lines were not written: the disk fell behind\n` : ''),
  )
  return summary
}
