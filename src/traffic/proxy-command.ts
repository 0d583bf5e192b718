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
import { JudgeThread } from './judge-thread.ts'
import { TrafficSession } from './session.ts'
import type { TrafficRule } from './types.ts'
import { quotedPath } from '../text/quoted-path.ts'

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
  /** A test hook: a module URL whose exported `rules` replace the catalogue's in the judging thread (e.g. a rule slow on purpose). */
  rulesModule?: string
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
  // Created (or refused) here, so a bad path fails at start; the judging thread appends to it.
  if (options.record) {
    const recorder = new NdjsonWriter(options.record)
    await recorder.ready()
    await recorder.close()
  }
  let unanswered = 0
  const tallied = { exchanges: 0, server: 0, client: 0, must: 0 }
  // Rules run on a thread of their own: a slow rule or a hostile body never delays forwarding (issue 28).
  const judge = new JudgeThread({
    basePath,
    failOn,
    config: { keys: config.keys, webhookSecret: config.webhookSecret, extraHeaders: config.extraHeaders },
    ...(options.record ? { record: options.record } : {}),
    ...(options.rules ? { inlineRules: options.rules } : {}),
    ...(options.rulesModule ? { rulesModule: options.rulesModule } : {}),
    onJudged(judged) {
      tallied.exchanges += judged.exchanges
      tallied.server += judged.server
      tallied.client += judged.client
      tallied.must += judged.must
      for (const line of judged.lines) write(`${line}\n`)
    },
    onProblem: (line) => write(`${line}\n`),
  })

  let proxy: RunningProxy
  try {
    await judge.ready()
    proxy = await startProxy({
      target: target.href.replace(/\/+$/, ''),
      host: options.host ?? PROXY_DEFAULTS.host,
      port: options.port ?? PROXY_DEFAULTS.port,
      upstreamProxy: config.proxy,
      onCapture: (captured) => judge.post(captured),
      onUnanswered(error) {
        // As a suite run does: the first time at once, then in the tally; nothing of the server is judged meanwhile.
        if (unanswered++ === 0) write(`proxy: the target ${target.origin} did not answer (${error.message}); clients get 502 and nothing is verified\n`)
      },
      onJudgeError(error) {
        write(`proxy: an exchange could not be handed to judging (${error.message}); forwarding goes on\n`)
      },
    })
  } catch (error) {
    await judge.dispose()
    throw error
  }
  write(`proxy listening on ${proxy.url}\n`)
  let unjudged = 0
  const tally = () =>
    `proxy: ${tallied.exchanges} exchange${tallied.exchanges === 1 ? '' : 's'} judged, ${tallied.server} server and ${tallied.client} client violations (${tallied.must} MUST)${unanswered ? `; ${unanswered} request${unanswered === 1 ? '' : 's'} the target did not answer` : ''}${unjudged ? `; ${unjudged} not in the report (not judged, or judged by a thread that crashed)` : ''}\n`
  let last = -1
  const timer = setInterval(() => {
    // A tally only when something happened since the last one.
    if (tallied.exchanges === last) return
    last = tallied.exchanges
    write(tally())
  }, PROXY_DEFAULTS.tallyEveryMs)
  timer.unref()

  const reason = await (options.until ? options.until(proxy) : untilSignal())
  clearInterval(timer)
  await proxy.close()
  const judged = await judge.finish()
  unjudged = judged.unjudged + judged.lost + judged.judgeErrors
  if (judged.recordError) write(`proxy: the --record file ${options.record} is incomplete (${judged.recordError})\n`)
  const rows = judged.rows
  const files = options.record ? [options.record] : []
  const { report, reportDir, exitCode } = await session.writeReport(rows, {
    source: 'proxy',
    files,
    targetUrl: target.href.replace(/\/+$/, ''),
    replay: options.record
      ? `crm-conformance verify-traffic ${options.record} --base-path ${basePath}${failOn === 'should' ? ' --fail-on should' : ''}`
      : `crm-conformance proxy --target ${target.href.replace(/\/+$/, '')} (the traffic was not recorded: add --record FILE.ndjson to judge it again)`,
    ...(options.reportDir ? { reportDir: options.reportDir } : {}),
    counts: { exchanges: judged.exchanges, answered: judged.answered },
    notJudged: {
      count: unjudged,
      why: 'judging fell behind the traffic, a judging thread crashed, or the drain time at stop ran out (the proxy printed which)',
    },
  })
  write(`proxy stopped (${reason}): ${tally()}${report.verdictLabel}\nreports: ${quotedPath(reportDir)}\n`)
  return { exitCode, reportDir }
}
