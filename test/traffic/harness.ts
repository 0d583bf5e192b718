// The reference server (a legal variant, or with a fault) behind the validating proxy, driven by the scripted
// client: the traffic verifier's proof, shared by the tests and scripts/traffic-mutation.ts.
import { startReferenceServer, type VariantName } from '../../src/reference/index.ts'
import { startProxy } from '../../src/traffic/proxy.ts'
import { TrafficSession } from '../../src/traffic/session.ts'
import type { TrafficExchange } from '../../src/traffic/types.ts'
import type { SeenViolation, TrafficRow } from '../../src/traffic/verifier.ts'
import { driveScriptedTraffic } from './scripted-client.ts'

export interface ProxiedRun {
  rows: TrafficRow[]
  /** Every exchange as recorded (secrets masked), in the order judged. */
  exchanges: TrafficExchange[]
  seen: SeenViolation[]
  basePath: string
  keys: Record<string, string>
  webhookSecret: string
  session: TrafficSession
}

export async function runProxied(options: { variant?: VariantName; faults?: string[] } = {}): Promise<ProxiedRun> {
  const server = await startReferenceServer({ port: 0, ...(options.variant ? { variant: options.variant } : {}), faults: options.faults ?? [] })
  const basePath = new URL(server.baseUrl).pathname
  const config = {
    keys: {
      main: server.keys.main,
      rateLimited: server.keys.rateLimited,
      restricted: server.keys.restricted,
      revoked: server.keys.revoked,
      foreign: server.keys.foreign,
    },
    webhookSecret: server.webhookSecret,
    extraHeaders: {},
  }
  const session = new TrafficSession({ basePath, failOn: 'must', config })
  const exchanges: TrafficExchange[] = []
  const seen: SeenViolation[] = []
  const proxy = await startProxy({
    target: server.baseUrl,
    host: '127.0.0.1',
    port: 0,
    onExchange(raw) {
      const exchange = session.redact(raw)
      exchanges.push(exchange)
      seen.push(...session.judge(exchange))
    },
  })
  try {
    await driveScriptedTraffic({
      baseUrl: proxy.url,
      keys: { ...config.keys, revoked: server.keys.revoked, foreign: server.keys.foreign },
      fixtures: server.fixtures,
    })
  } finally {
    await proxy.close()
    await server.close()
  }
  return { rows: session.finish(), exchanges, seen, basePath, keys: server.keys, webhookSecret: server.webhookSecret, session }
}

/** The rows a server broke: a traffic report's rows (report.json's checks) or the verifier's own. */
export const serverFailures = <R extends { status: string; side?: string }>(rows: readonly R[]) =>
  rows.filter((r) => r.status === 'failed' && r.side === 'server')
export const statusById = (rows: readonly TrafficRow[]) => Object.fromEntries(rows.map((r) => [r.id, `${r.status}${r.side ? `:${r.side}` : ''}`]))
