// HTTP_PROXY / HTTPS_PROXY / NO_PROXY and CRM_EXTRA_HEADERS: a few checks run against a reference server that
// only a forward proxy on loopback may reach, and every connection that reached the target is shown to have
// come from the proxy. NO_PROXY sends the same requests direct. The gateway header reaches the target and is
// masked in the evidence.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { catalogue } from '../../suites/index.ts'
import { loadConfig } from '../../src/config/config.ts'
import { runInProcess } from '../../src/run/in-process.ts'
import { startReferenceServer, type ReferenceServer } from '../../src/reference/index.ts'
import { startRelay, type Relay } from '../../src/reference/conditions.ts'
import { startForwardProxy, type ForwardProxy } from '../../src/selfcheck/forward-proxy.ts'

let reference: ReferenceServer
let relay: Relay
let proxy: ForwardProxy
/** The target as the suite sees it: the relay in front of the reference server (it records who connected). */
let baseUrl: string

beforeAll(async () => {
  reference = await startReferenceServer({ rateLimitPerMinute: 1_000_000 })
  const origin = new URL(reference.baseUrl)
  relay = await startRelay({ host: origin.hostname, port: Number(origin.port) }, 0)
  baseUrl = `http://127.0.0.1:${relay.port}${origin.pathname}`
  proxy = await startForwardProxy()
})

afterAll(async () => {
  await proxy?.close()
  await relay?.close()
  await reference?.close()
})

// Reads and writes: writes that may not be repeated go out on connections of their own (connections.ts).
const records = catalogue.filter((c) => c.area === 'records')
const checks = [...records.slice(0, 3), ...records.filter((c) => c.writes === 'safe').slice(0, 3)]

function runThrough(proxySettings: { httpProxy?: string; noProxy?: string }, runId: string, extraHeaders: Record<string, string> = {}) {
  return runInProcess({
    checks,
    config: {
      baseUrl,
      keys: reference.keys,
      restrictedScopes: reference.restrictedScopes,
      fixtures: reference.fixtures,
      sinkPort: 0,
      webhookTimeoutS: 2,
      proxy: proxySettings,
      extraHeaders,
    },
    profile: 'full',
    concurrency: 4,
    runId,
  })
}

describe('proxies and gateways', () => {
  test('HTTP_PROXY: every request of a few checks goes through the proxy, with the gateway headers, masked in the evidence', async () => {
    const before = relay.clientPorts.length
    const run = await runThrough({ httpProxy: proxy.url }, 'proxy-on', { 'X-Gateway-Key': 'gw_live_0123456789abcdef', 'X-Env': 'staging' })
    expect(run.results.map((r) => `${r.id}: ${r.status} ${r.message}`).filter((line) => !/: passed/.test(line))).toEqual([])
    const connections = relay.clientPorts.slice(before)
    console.log(`proxy: ${run.session.transport.stats.total} requests, ${proxy.tunnels} tunnels, ${connections.length} connections to the target`)
    expect(run.session.exchanges.some((e) => e.request.method === 'POST')).toBe(true)
    expect(run.session.exchanges.some((e) => e.request.method === 'GET')).toBe(true)
    expect(connections.length).toBeGreaterThan(0)
    // Each connection the target accepted was opened by the proxy.
    expect(connections.filter((port) => !proxy.upstreamPorts.has(port))).toEqual([])
    const sent = run.session.exchanges.map((e) => e.request.headers)
    expect(sent.every((h) => h['X-Gateway-Key'] === '<redacted:CRM_EXTRA_HEADERS>' && h['X-Env'] === '<redacted:CRM_EXTRA_HEADERS>')).toBe(true)
    expect(JSON.stringify(run.results) + JSON.stringify(run.session.exchanges)).not.toContain('gw_live_0123456789abcdef')
  }, 120_000)

  test('NO_PROXY: the same checks go direct, and the proxy sees nothing', async () => {
    const tunnels = proxy.tunnels + proxy.requests
    const before = relay.clientPorts.length
    const run = await runThrough({ httpProxy: proxy.url, noProxy: 'localhost,127.0.0.1' }, 'proxy-bypassed')
    expect(run.results.every((r) => r.status === 'passed')).toBe(true)
    expect(proxy.tunnels + proxy.requests).toBe(tunnels)
    const connections = relay.clientPorts.slice(before)
    expect(connections.length).toBeGreaterThan(0)
    expect(connections.filter((port) => proxy.upstreamPorts.has(port))).toEqual([])
  }, 120_000)

  test('the loader reads the proxy variables, lower case first, and CRM_EXTRA_HEADERS', () => {
    const config = loadConfig(
      {
        HTTP_PROXY: 'http://upper:1',
        http_proxy: 'http://lower:2',
        HTTPS_PROXY: 'http://secure:3',
        NO_PROXY: 'localhost',
        CRM_EXTRA_HEADERS: 'X-Gateway-Key: abc=def; X-Env: staging',
      },
      { envFile: false },
    )
    expect(config.proxy).toEqual({ httpProxy: 'http://lower:2', httpsProxy: 'http://secure:3', noProxy: 'localhost' })
    expect(config.extraHeaders).toEqual({ 'X-Gateway-Key': 'abc=def', 'X-Env': 'staging' })
    expect(() => loadConfig({ CRM_EXTRA_HEADERS: 'no colon here' }, { envFile: false })).toThrow(/CRM_EXTRA_HEADERS must be/)
  })
})
