// `crm-conformance proxy --target <base URL>`: the validating proxy as a command. Prints one line
// `proxy listening on http://HOST:PORT<base path>` once it accepts, a tally every ~10 s and each MUST violation
// as it is seen; on SIGINT or SIGTERM writes the report (and closes the --record file) and ends with 0, or 1
// when a rule at the --fail-on level was broken (2 when the traffic exercised no rule: nothing was verified).
import { parseBaseUrl } from '../config/base-url.ts'
import { loadConfig } from '../config/config.ts'
import { CrmConfError } from '../errors.ts'
import { printable } from '../text/printable.ts'
import { NdjsonWriter } from './ndjson.ts'
import { startProxy, type RunningProxy } from './proxy.ts'
import type { FailOn } from './report.ts'
import { TrafficSession, violationLine } from './session.ts'
import type { TrafficRule } from './types.ts'

export const PROXY_DEFAULTS = { host: '127.0.0.1', port: 8080, tallyEveryMs: 10_000 } as const

export interface ProxyCommandOptions {
  target: string
  host?: string
  port?: number
  reportDir?: string
  record?: string
  failOn?: FailOn
  write?: (text: string) => void
  env?: NodeJS.ProcessEnv
  rules?: readonly TrafficRule[]
  /** Resolves when the proxy should stop (default: SIGINT or SIGTERM). */
  until?: (proxy: RunningProxy) => Promise<string>
}

/** The target as the proxy needs it: a base URL (src/config/base-url.ts), its path the API's base path. */
export function parseTarget(raw: string): URL {
  const { url, problems } = parseBaseUrl(raw, 'proxy: --target')
  if (!url || problems.length > 0) throw new CrmConfError('CRMCONF_USAGE', problems[0]!)
  return url
}

function untilSignal(): Promise<string> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      resolve(signal)
    }
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
  })
}

export async function proxyCommand(options: ProxyCommandOptions): Promise<{ exitCode: 0 | 1 | 2; reportDir: string }> {
  // A client's paths and decoded query values are printed inert (src/text/printable.ts).
  const rawWrite = options.write ?? ((text: string) => void process.stdout.write(text))
  const write = (text: string) => rawWrite(printable(text))
  const target = parseTarget(options.target)
  const basePath = target.pathname.replace(/\/+$/, '')
  const failOn = options.failOn ?? 'must'
  const config = loadConfig(options.env ?? process.env, {})
  const session = new TrafficSession({ basePath, failOn, config, ...(options.rules ? { rules: options.rules } : {}) })
  const recorder = options.record ? new NdjsonWriter(options.record) : undefined
  await recorder?.ready()
  let unanswered = 0
  let judgeErrors = 0

  const proxy = await startProxy({
    target: target.href.replace(/\/+$/, ''),
    host: options.host ?? PROXY_DEFAULTS.host,
    port: options.port ?? PROXY_DEFAULTS.port,
    upstreamProxy: config.proxy,
    onExchange(raw) {
      const exchange = session.redact(raw)
      recorder?.write(exchange)
      for (const seen of session.judge(exchange)) if (seen.rule.level === 'MUST') write(`${violationLine(seen, exchange)}\n`)
    },
    onUnanswered(error) {
      // As a suite run does: the first time at once, then in the tally; nothing of the server is judged meanwhile.
      if (unanswered++ === 0) write(`proxy: the target ${target.origin} did not answer (${error.message}); clients get 502 and nothing is verified\n`)
    },
    onJudgeError(error) {
      if (judgeErrors++ === 0) write(`proxy: an exchange could not be judged (${error.message}); forwarding goes on\n`)
    },
  })
  write(`proxy listening on ${proxy.url}\n`)
  const tally = () =>
    `proxy: ${session.exchanges} exchange${session.exchanges === 1 ? '' : 's'} judged, ${session.tally.server} server and ${session.tally.client} client violations (${session.tally.must} MUST)${unanswered ? `; ${unanswered} request${unanswered === 1 ? '' : 's'} the target did not answer` : ''}${judgeErrors ? `; ${judgeErrors} not judged (an error of ours)` : ''}\n`
  let last = -1
  const timer = setInterval(() => {
    // A tally only when something happened since the last one.
    if (session.exchanges === last) return
    last = session.exchanges
    write(tally())
  }, PROXY_DEFAULTS.tallyEveryMs)
  timer.unref()

  const reason = await (options.until ? options.until(proxy) : untilSignal())
  clearInterval(timer)
  await proxy.close()
  await recorder?.close()
  const rows = session.finish()
  const files = options.record ? [options.record] : []
  const { report, reportDir, exitCode } = await session.writeReport(rows, {
    source: 'proxy',
    files,
    targetUrl: target.href.replace(/\/+$/, ''),
    replay: options.record
      ? `crm-conformance verify-traffic ${options.record} --base-path ${basePath}${failOn === 'should' ? ' --fail-on should' : ''}`
      : `crm-conformance proxy --target ${target.href.replace(/\/+$/, '')} (the traffic was not recorded: add --record FILE.ndjson to judge it again)`,
    ...(options.reportDir ? { reportDir: options.reportDir } : {}),
  })
  write(`proxy stopped (${reason}): ${tally()}${report.verdictLabel}\nreports: ${reportDir}\n`)
  return { exitCode, reportDir }
}
