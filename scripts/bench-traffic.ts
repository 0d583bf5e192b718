// npm run bench:traffic [-- --exchanges 200000]: what the traffic verifier costs.
// 1. verify-traffic throughput (exchanges/s) and peak memory on a generated NDJSON file of ≥200,000 exchanges
//    (the scripted client's traffic against the reference server, repeated), and on the same traffic as HAR;
//    each read in a child process of its own so its peak RSS is its own.
// 2. The proxy's added latency: GET /me to the reference server directly and through `crm-conformance proxy`
//    (a child process), alternating, median and p99 of each. Figures only; nothing is asserted.
import { spawn } from 'node:child_process'
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { Pool } from 'undici'
import { startReferenceServer } from '../src/reference/index.ts'
import { harOf } from '../src/traffic/har.ts'
import { ndjsonLine } from '../src/traffic/ndjson.ts'
import { verifyTrafficCommand } from '../src/traffic/verify-command.ts'
import { runProxied } from '../test/traffic/harness.ts'

const ROOT = resolve(import.meta.dirname, '..')
const { values } = parseArgs({
  options: { exchanges: { type: 'string', default: '200000' }, requests: { type: 'string', default: '2000' }, 'verify-child': { type: 'string' } },
})

// Child mode: verify one file in this process and print its figures as JSON.
if (values['verify-child']) {
  let peak = process.memoryUsage().rss
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50)
  const started = performance.now()
  const outcome = await verifyTrafficCommand({
    files: [values['verify-child']],
    reportDir: join(tmpdir(), `bench-traffic-report-${process.pid}`),
    write: () => {},
    env: {},
  })
  const ms = performance.now() - started
  clearInterval(sampler)
  rmSync(join(tmpdir(), `bench-traffic-report-${process.pid}`), { recursive: true, force: true })
  process.stdout.write(
    `${JSON.stringify({ ms, exchanges: outcome.exchanges, exitCode: outcome.exitCode, peakRssSampled: peak, maxRss: process.resourceUsage().maxRSS * 1024 })}\n`,
  )
  process.exit(0)
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`
const target = Number(values.exchanges)
const dir = mkdtempSync(join(tmpdir(), 'bench-traffic-'))

async function writeLines(path: string, lines: Iterable<string>): Promise<void> {
  const out = createWriteStream(path)
  for (const line of lines) if (!out.write(line)) await new Promise<void>((r) => out.once('drain', () => r()))
  await new Promise<void>((r) => out.end(r))
}

function verifyInChild(file: string): Promise<{ ms: number; exchanges: number; peakRssSampled: number; maxRss: number }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'run-ts.mjs'), join(ROOT, 'scripts', 'bench-traffic.ts'), '--verify-child', file], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let out = ''
    child.stdout.on('data', (c: Buffer) => (out += c.toString()))
    child.on('close', (code) => (code === 0 ? resolvePromise(JSON.parse(out.trim().split('\n').at(-1)!)) : reject(new Error(`verify child exited ${code}`))))
  })
}

try {
  // 1. Throughput and memory.
  const sample = (await runProxied()).exchanges
  const repeated = function* (wrap: (i: number, line: string) => string) {
    for (let i = 0; i < target; i++) {
      const ex = sample[i % sample.length]!
      const at = new Date(Date.UTC(2026, 0, 1) + i * 10).toISOString()
      yield wrap(i, ndjsonLine({ ...ex, startedAt: at, endedAt: at }))
    }
  }
  const ndjsonFile = join(dir, 'traffic.ndjson')
  await writeLines(
    ndjsonFile,
    repeated((_, line) => line),
  )
  // The same traffic as HAR, written entry by entry (harOf of one exchange, its entry cut out).
  const harFile = join(dir, 'traffic.har')
  const entryOf = (line: string) => {
    const har = harOf([{ seq: 0, source: '', ...JSON.parse(line) }])
    return har.slice(har.indexOf('"entries":[') + '"entries":['.length, har.lastIndexOf(']}}'))
  }
  await writeLines(
    harFile,
    (function* () {
      yield '{"log":{"version":"1.2","creator":{"name":"bench","version":"0"},"entries":['
      let i = 0
      for (const line of repeated((_, l) => l)) yield `${i++ === 0 ? '' : ','}${entryOf(line)}`
      yield ']}}'
    })(),
  )
  console.log(
    `generated ${target.toLocaleString('en-US')} exchanges (the scripted client's ${sample.length}, repeated): NDJSON ${mb(statSync(ndjsonFile).size)}, HAR ${mb(statSync(harFile).size)}`,
  )
  for (const [name, file] of [
    ['NDJSON', ndjsonFile],
    ['HAR', harFile],
  ] as const) {
    const r = await verifyInChild(file)
    console.log(
      `verify-traffic ${name}: ${r.exchanges.toLocaleString('en-US')} exchanges in ${(r.ms / 1000).toFixed(1)} s = ${Math.round(r.exchanges / (r.ms / 1000)).toLocaleString('en-US')} exchanges/s; peak RSS ${mb(r.peakRssSampled)} sampled, maxRSS ${mb(r.maxRss)}`,
    )
  }

  // 2. The proxy's added latency.
  const server = await startReferenceServer({ port: 0, rateLimitPerMinute: 10_000_000 })
  const proxy = spawn(
    process.execPath,
    [join(ROOT, 'bin', 'crm-conformance-ts.mjs'), 'proxy', '--target', server.baseUrl, '--port', '0', '--report-dir', join(dir, 'proxy-report')],
    { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, CRM_API_KEY: server.keys.main } },
  )
  const proxyUrl = await new Promise<string>((resolvePromise) => {
    let out = ''
    proxy.stdout.on('data', (c: Buffer) => {
      out += c.toString()
      const found = /proxy listening on (\S+)/.exec(out)
      if (found) resolvePromise(found[1]!)
    })
  })
  const direct = new Pool(new URL(server.baseUrl).origin, { connections: 1 })
  const via = new Pool(new URL(proxyUrl).origin, { connections: 1 })
  const headers = { authorization: `Bearer ${server.keys.main}` }
  const time = async (pool: Pool, path: string) => {
    const started = performance.now()
    const res = await pool.request({ method: 'GET', path, headers })
    await res.body.text()
    return performance.now() - started
  }
  const path = `${new URL(server.baseUrl).pathname}/accounts?limit=25`
  for (let i = 0; i < 200; i++) (await time(direct, path), await time(via, path))
  const n = Number(values.requests)
  const directMs: number[] = []
  const viaMs: number[] = []
  for (let i = 0; i < n; i++) {
    directMs.push(await time(direct, path))
    viaMs.push(await time(via, path))
  }
  const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!
  const f = (ms: number) => `${ms.toFixed(2)} ms`
  console.log(
    `proxy latency (GET ${path}, ${n} each, alternating, one connection each): direct median ${f(q(directMs, 0.5))} p99 ${f(q(directMs, 0.99))}; through the proxy median ${f(q(viaMs, 0.5))} p99 ${f(q(viaMs, 0.99))}; added median ${f(q(viaMs, 0.5) - q(directMs, 0.5))}, p99 ${f(q(viaMs, 0.99) - q(directMs, 0.99))}`,
  )
  await direct.close()
  await via.close()
  proxy.kill('SIGTERM')
  await new Promise((r) => proxy.on('close', r))
  await server.close()
} finally {
  rmSync(dir, { recursive: true, force: true })
}
