// npm run bench:traffic [-- --exchanges 20000 --seconds 10 --rate 200 --baseline DIR]: what the traffic verifier costs
// on realistic traffic. Figures only; nothing is asserted. npm run bench:traffic-jobs [-- --jobs N --repeat R]: only
// verify-traffic --jobs N (default: the cores) against --jobs 1 on the same 20,000-exchange HAR, in one run.
// 1. Realistic traffic: the reference server grown to ~120 records of each resource it can create, then read as a
//    client reads it (list pages of 25, 50 and 100 walked by cursor, every record read on its own, the scripted
//    client's writes, errors and mistakes) through the proxy; those exchanges repeated to --exchanges as a HAR
//    (~64 MB for 20,000) and as NDJSON.
// 2. verify-traffic on them, each in a child process of its own (its peak RSS its own): exchanges/s, peak memory at a
//    quarter of the traffic and at all of it (flat memory: the two alike), the cost per rule (each rule's share of the
//    time in rules), and with --baseline DIR (a checkout of another commit, its node_modules installed) the same HAR
//    verified by that commit's sources in the same run: before/after as ratios.
// 3. The proxy's added latency at --rate requests/s for --seconds: the same realistic requests sent directly and
//    through `crm-conformance proxy` (a child process), each pair back to back; median and p99 of each, and of
//    (proxied - direct) per pair. Beside it the forwarding alone (nothing judged: what the hop costs), then with a slow rule injected (2 ms of CPU per exchange, and a request body of JSON
//    nested 100,000 deep now and then) judged on the proxy's judging thread, and the same judged on the forwarding
//    thread (what the thread buys).
import { spawn } from 'node:child_process'
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { Pool } from 'undici'
import { startReferenceServer, type ReferenceServer } from '../src/reference/index.ts'
import { RESOURCE_LIST } from '../src/spec/resources.ts'
import { harOf } from '../src/traffic/har.ts'
import { ndjsonLine } from '../src/traffic/ndjson.ts'
import { startProxy } from '../src/traffic/proxy.ts'
import { TrafficRedactor } from '../src/traffic/redaction.ts'
import type { TrafficExchange } from '../src/traffic/types.ts'
import { driveScriptedTraffic } from '../test/traffic/scripted-client.ts'
import { threadSplit } from './bench-thread-split.ts'

const ROOT = resolve(import.meta.dirname, '..')
const { values } = parseArgs({
  options: {
    exchanges: { type: 'string', default: '20000' },
    seconds: { type: 'string', default: '10' },
    rate: { type: 'string', default: '200' },
    baseline: { type: 'string' },
    repeat: { type: 'string', default: '3' },
    'skip-latency': { type: 'boolean', default: false },
    'skip-verify': { type: 'boolean', default: false },
    /** Keep the generated files in this folder (to profile: node --cpu-prof bin/run-ts.mjs scripts/bench-traffic.ts --verify-child FILE). */
    keep: { type: 'string' },
    // Child modes.
    'verify-child': { type: 'string' },
    root: { type: 'string' },
    'rule-times': { type: 'boolean', default: false },
    'proxy-child': { type: 'string' },
    slow: { type: 'boolean', default: false },
    inline: { type: 'boolean', default: false },
    'forward-only': { type: 'boolean', default: false },
    /** npm run bench:traffic-jobs: only verify-traffic --jobs N against --jobs 1 on the same HAR, alternated. */
    'jobs-only': { type: 'boolean', default: false },
    jobs: { type: 'string' },
    dist: { type: 'boolean', default: false },
  },
})

// Child mode: verify one file in this process (with the sources of --root, default this checkout) and print its figures as JSON.
if (values['verify-child']) {
  const root = values.root ?? ROOT
  // --dist: the compiled build, as an installed package runs (its --jobs workers load JavaScript, not TypeScript through tsx).
  const { verifyTrafficCommand } = (await import(
    pathToFileURL(values.dist ? join(root, 'dist', 'src', 'traffic', 'verify-command.js') : join(root, 'src', 'traffic', 'verify-command.ts')).href
  )) as typeof import('../src/traffic/verify-command.ts')
  const ruleTimes = values['rule-times'] ? new Map<string, number>() : undefined
  // rss() alone: memoryUsage() also walks the heap, on the thread that reads the traffic.
  let peak = process.memoryUsage.rss()
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 50)
  const reportDir = join(tmpdir(), `bench-traffic-report-${process.pid}`)
  const started = performance.now()
  const failed: string[] = []
  const write = (text: string) => void failed.push(...[...text.matchAll(/^(?:MUST|SHOULD) (\S+) \(.*$/gm)].map((m) => m[0].slice(0, 160)))
  const cpuBefore = process.cpuUsage()
  const outcome = await verifyTrafficCommand({
    files: [values['verify-child']],
    reportDir,
    write,
    env: {},
    ...(ruleTimes ? { ruleTimes } : {}),
    ...(values.jobs ? { jobs: Number(values.jobs) } : {}),
  })
  const ms = performance.now() - started
  const cpu = process.cpuUsage(cpuBefore)
  clearInterval(sampler)
  rmSync(reportDir, { recursive: true, force: true })
  const figures = {
    ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    exchanges: outcome.exchanges,
    exitCode: outcome.exitCode,
    peakRssSampled: peak,
    maxRss: process.resourceUsage().maxRSS * 1024,
    failed,
    ...(outcome.threadCpuMs ? { threadCpuMs: outcome.threadCpuMs } : {}),
    ...(ruleTimes ? { ruleTimes: Object.fromEntries(ruleTimes) } : {}),
  }
  process.stdout.write(`${JSON.stringify(figures)}\n`)
  process.exit(0)
}

// Child mode: the proxy's forwarding alone (nothing captured is judged): the floor the other setups compare with.
if (values['proxy-child'] && values['forward-only']) {
  const proxy = await startProxy({ target: values['proxy-child'], host: '127.0.0.1', port: 0 })
  process.stdout.write(`proxy listening on ${proxy.url}\n`)
  await new Promise<void>((resolveStop) => {
    process.stdin.on('end', () => resolveStop())
    process.stdin.resume()
  })
  await proxy.close()
  process.exit(0)
}

// Child mode: the proxy in front of --proxy-child, until its stdin ends.
if (values['proxy-child']) {
  const { proxyCommand } = await import('../src/traffic/proxy-command.ts')
  const { TRAFFIC_RULES } = await import('../src/traffic/rules/index.ts')
  const slowRules = `${pathToFileURL(join(ROOT, 'scripts', 'bench-slow-rule.ts')).href}`
  const outcome = await proxyCommand({
    target: values['proxy-child'],
    port: 0,
    reportDir: join(tmpdir(), `bench-traffic-proxy-${process.pid}`),
    env: process.env,
    ...(values.inline ? { rules: values.slow ? (await import(slowRules)).rules : TRAFFIC_RULES } : values.slow ? { rulesModule: slowRules } : {}),
    until: () =>
      new Promise((resolveStop) => {
        process.stdin.on('end', () => resolveStop('stdin closed'))
        process.stdin.resume()
      }),
  })
  rmSync(outcome.reportDir, { recursive: true, force: true })
  process.exit(0)
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`
const count = (n: number) => Math.round(n).toLocaleString('en-US')
const dir = values.keep ? resolve(values.keep) : mkdtempSync(join(tmpdir(), 'bench-traffic-'))
mkdirSync(dir, { recursive: true })

async function writeLines(path: string, lines: Iterable<string>): Promise<void> {
  const out = createWriteStream(path)
  for (const line of lines) if (!out.write(line)) await new Promise<void>((r) => out.once('drain', () => r()))
  await new Promise<void>((r) => out.end(r))
}

interface VerifyFigures {
  ms: number
  /** CPU time of the verification (every thread): steadier than wall time on a shared machine. */
  cpuMs: number
  exchanges: number
  exitCode: number
  peakRssSampled: number
  maxRss: number
  failed: string[]
  /** CPU time per thread (Linux): the reading thread, and each --jobs worker. */
  threadCpuMs?: { reader?: number; workers: (number | undefined)[] }
  ruleTimes?: Record<string, number>
}

function child(args: string[], stdio: 'ignore' | 'pipe' = 'ignore') {
  return spawn(process.execPath, [join(ROOT, 'bin', 'run-ts.mjs'), join(ROOT, 'scripts', 'bench-traffic.ts'), ...args], {
    stdio: [stdio, 'pipe', 'inherit'],
    cwd: ROOT,
  })
}

function verifyInChild(file: string, extra: string[] = []): Promise<VerifyFigures> {
  return new Promise((resolvePromise, reject) => {
    const run = child(['--verify-child', file, ...extra])
    let out = ''
    run.stdout!.on('data', (c: Buffer) => (out += c.toString()))
    run.on('close', (code) => (code === 0 ? resolvePromise(JSON.parse(out.trim().split('\n').at(-1)!)) : reject(new Error(`verify child exited ${code}`))))
  })
}

const headersOf = (server: ReferenceServer) => ({ authorization: `Bearer ${server.keys.main}`, accept: 'application/json' })

/** Grows each resource the API lets a client create to about `target` records, by copying the fields of its seeded ones. */
async function grow(server: ReferenceServer, target: number): Promise<void> {
  const headers = { ...headersOf(server), 'content-type': 'application/json' }
  for (const resource of RESOURCE_LIST) {
    if (!resource.create) continue
    const page = (await (await fetch(`${server.baseUrl}${resource.path}?limit=100`, { headers })).json()) as { data: Record<string, unknown>[] }
    const fields = Object.keys(resource.create.fields)
    let created = page.data.length
    for (let i = 0; created < target && i < target * 2; i++) {
      const from = page.data[i % page.data.length]!
      const body = Object.fromEntries(fields.filter((f) => from[f] !== undefined && from[f] !== null).map((f) => [f, from[f]]))
      const response = await fetch(`${server.baseUrl}${resource.path}`, { method: 'POST', headers, body: JSON.stringify(body) })
      await response.arrayBuffer()
      if (response.status === 201) created++
      else if (i > 3 && created === page.data.length) break // This resource's records cannot be copied (a state, a parent): its seeded ones stay.
    }
  }
}

/** The requests a client reading the API sends: every list walked in pages of 25, 50 and 100, every record read. */
async function realisticPaths(server: ReferenceServer): Promise<string[]> {
  const paths: string[] = []
  const base = new URL(server.baseUrl).pathname
  for (const resource of RESOURCE_LIST) {
    for (const limit of [25, 50, 100]) {
      let cursor: string | undefined
      do {
        const path = `${base}${resource.path}?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`
        const page = (await (await fetch(`${new URL(server.baseUrl).origin}${path}`, { headers: headersOf(server) })).json()) as {
          data?: { id: string }[]
          nextCursor?: string
        }
        paths.push(path)
        if (limit !== 100) for (const record of page.data ?? []) paths.push(`${base}${resource.path}/${record.id}`)
        cursor = page.nextCursor && (page.data?.length ?? 0) > 0 ? page.nextCursor : undefined
      } while (cursor)
    }
  }
  return paths
}

interface Sample {
  reads: TrafficExchange[]
  writes: TrafficExchange[]
}

async function realisticTraffic(): Promise<Sample & { paths: string[] }> {
  const server = await startReferenceServer({ port: 0, rateLimitPerMinute: 10_000_000 })
  try {
    await grow(server, 120)
    const paths = await realisticPaths(server)
    const redactor = new TrafficRedactor(Object.entries(server.keys).map(([name, value]) => ({ name: `CRM_API_KEY_${name.toUpperCase()}`, value })))
    const exchanges: TrafficExchange[] = []
    const reads: TrafficExchange[] = []
    const proxy = await startProxy({ target: server.baseUrl, host: '127.0.0.1', port: 0, onExchange: (raw) => exchanges.push(redactor.exchange(raw)) })
    try {
      const origin = new URL(proxy.url).origin
      for (const path of paths) await (await fetch(`${origin}${path}`, { headers: headersOf(server) })).arrayBuffer()
      await new Promise((r) => setImmediate(r))
      reads.push(...exchanges.splice(0))
      await driveScriptedTraffic({ baseUrl: proxy.url, keys: server.keys, fixtures: server.fixtures })
    } finally {
      await proxy.close()
    }
    return { reads, writes: exchanges, paths }
  } finally {
    await server.close()
  }
}

/**
 * The reads repeated to n exchanges, then the scripted client's writes once (repeated, an earlier read would follow
 * a later write), times moved on, as NDJSON lines.
 */
function* repeated(sample: Sample, n: number): Generator<string> {
  const reads = n - sample.writes.length
  for (let i = 0; i < n; i++) {
    const ex = i < reads ? sample.reads[i % sample.reads.length]! : sample.writes[i - reads]!
    const at = new Date(Date.UTC(2026, 0, 1) + i * 10).toISOString()
    yield ndjsonLine({ ...ex, startedAt: at, endedAt: at })
  }
}

async function writeHar(file: string, sample: Sample, n: number, style: 'text' | 'base64' = 'text'): Promise<void> {
  // Written entry by entry: harOf of one exchange, its entry taken out, its bodies as text the way Chromium's and
  // Playwright's HAR writers keep a JSON body (harOf writes base64, as mitmproxy does).
  const entryOf = (line: string) => {
    const entry = (JSON.parse(harOf([{ seq: 0, source: '', ...JSON.parse(line) }])) as { log: { entries: HarBodies[] } }).log.entries[0]!
    if (style === 'text')
      for (const holder of [entry.request.postData, entry.response.content])
        if (holder?.encoding === 'base64' && typeof holder.text === 'string') {
          holder.text = Buffer.from(holder.text, 'base64').toString('utf8')
          delete holder.encoding
        }
    return JSON.stringify(entry)
  }
  await writeLines(
    file,
    (function* () {
      yield '{"log":{"version":"1.2","creator":{"name":"bench","version":"0"},"entries":['
      let i = 0
      for (const line of repeated(sample, n)) yield `${i++ === 0 ? '' : ','}${entryOf(line)}`
      yield ']}}'
    })(),
  )
}

interface HarBodies {
  request: { postData?: { text?: string; encoding?: string } }
  response: { content?: { text?: string; encoding?: string } }
}

const quantile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!
const ms2 = (ms: number) => `${ms.toFixed(2)} ms`

interface LatencySetup {
  label: string
  slow: boolean
  proxy: ReturnType<typeof child>
  via: Pool
  printed: { text: string }
  directMs: number[]
  viaMs: number[]
  added: number[]
  sent: number
  seconds: number
}

async function startSetup(label: string, server: ReferenceServer, proxyArgs: string[]): Promise<LatencySetup> {
  const proxy = child(['--proxy-child', server.baseUrl, ...proxyArgs], 'pipe')
  const printed = { text: '' }
  const proxyUrl = await new Promise<string>((resolvePromise) => {
    proxy.stdout!.on('data', (c: Buffer) => {
      printed.text += c.toString()
      const found = /proxy listening on (\S+)/.exec(printed.text)
      if (found) resolvePromise(found[1]!)
    })
  })
  const via = new Pool(new URL(proxyUrl).origin, { connections: 16 })
  return { label, slow: proxyArgs.includes('--slow'), proxy, via, printed, directMs: [], viaMs: [], added: [], sent: 0, seconds: 0 }
}

/**
 * The proxy's added latency for each setup: requests at --rate per second, each sent directly and then through that
 * setup's proxy. The setups take turns in short rounds, so whatever else the machine does weighs on each alike.
 */
async function latencies(server: ReferenceServer, paths: string[], setups: LatencySetup[]): Promise<void> {
  const direct = new Pool(new URL(server.baseUrl).origin, { connections: 16 })
  const headers = headersOf(server)
  const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`
  const time = async (pool: Pool, path: string, hostile: boolean) => {
    const started = performance.now()
    const res = await pool.request(
      hostile
        ? // To a path the server refuses unread: the bench's own process (the server's) is not what the body slows.
          { method: 'POST', path: `${new URL(server.baseUrl).pathname}/bench-hostile`, headers: { ...headers, 'content-type': 'application/json' }, body: deep }
        : { method: 'GET', path, headers },
    )
    await res.body.arrayBuffer()
    return performance.now() - started
  }
  const rate = Number(values.rate)
  const rounds = 5
  const perRound = Math.round((rate * Number(values.seconds)) / rounds)
  // Warm-up: connections open, code compiled.
  for (const setup of setups)
    for (let i = 0; i < 100; i++) (await time(direct, paths[i % paths.length]!, false), await time(setup.via, paths[i % paths.length]!, false))
  for (let round = 0; round < rounds; round++)
    for (const setup of setups) {
      const started = performance.now()
      const pairs: Promise<void>[] = []
      for (let j = 0; j < perRound; j++) {
        const i = setup.sent++
        // Open loop: request j leaves at j/rate seconds into the round, whatever the earlier ones are doing.
        const wait = started + (j * 1000) / rate - performance.now()
        if (wait > 0) await new Promise((r) => setTimeout(r, wait))
        const path = paths[i % paths.length]!
        const hostile = setup.slow && i % 50 === 25
        pairs.push(
          (async () => {
            const d = await time(direct, path, hostile)
            const v = await time(setup.via, path, hostile)
            if (hostile) return
            setup.directMs.push(d)
            setup.viaMs.push(v)
            setup.added.push(v - d)
          })(),
        )
      }
      await Promise.all(pairs)
      setup.seconds += (performance.now() - started) / 1000
    }
  await direct.close()
  for (const setup of setups) {
    setup.proxy.stdin!.end()
    await new Promise((r) => setup.proxy.on('close', r))
    await setup.via.close()
    const tally = /proxy stopped[^\n]*: (proxy: [^\n]*)/.exec(setup.printed.text)?.[1] ?? '(no tally)'
    const { directMs, viaMs, added } = setup
    console.log(
      `proxy latency, ${setup.label}: ${count(setup.sent)} requests in ${setup.seconds.toFixed(1)} s (${count(setup.sent / setup.seconds)}/s, ${rounds} rounds taking turns with the other setups; GET records and list pages of 25-100${setup.slow ? ', 1 in 50 a POST of JSON nested 100,000 deep, not counted' : ''}): direct median ${ms2(quantile(directMs, 0.5))} p99 ${ms2(quantile(directMs, 0.99))}; proxied median ${ms2(quantile(viaMs, 0.5))} p99 ${ms2(quantile(viaMs, 0.99))}; added (proxied - direct, per pair) median ${ms2(quantile(added, 0.5))} p99 ${ms2(quantile(added, 0.99))}`,
    )
    console.log(`  the proxy's own tally: ${tally.trim()}`)
  }
  console.log(`  load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`)
}

/**
 * verify-traffic --jobs N against --jobs 1 on the same HAR, each in a child process, alternated --repeat times (other
 * work on the machine slows either alike), the best wall time of each kept: the speed-up, and each one's memory.
 */
async function compareJobs(harFile: string, jobs: number): Promise<void> {
  const load = loadavg()[0]!
  const runs: Record<'one' | 'many', VerifyFigures[]> = { one: [], many: [] }
  for (let i = 0; i < Number(values.repeat); i++) {
    runs.one.push(await verifyInChild(harFile, ['--jobs', '1', '--dist']))
    runs.many.push(await verifyInChild(harFile, ['--jobs', String(jobs), '--dist']))
  }
  const fastest = (xs: VerifyFigures[]) => xs.reduce((a, b) => (b.ms < a.ms ? b : a))
  const [one, many] = [fastest(runs.one), fastest(runs.many)]
  const figures = (r: VerifyFigures) =>
    `${count(r.exchanges)} exchanges in ${(r.ms / 1000).toFixed(2)} s (${count(r.exchanges / (r.ms / 1000))}/s), CPU ${(r.cpuMs / 1000).toFixed(2)} s, maxRSS ${mb(r.maxRss)}`
  console.log(`HAR ${mb(statSync(harFile).size)}; the compiled build (dist/); best of ${runs.one.length} each, alternated`)
  console.log(`verify-traffic --jobs 1: ${figures(one)}`)
  console.log(`verify-traffic --jobs ${jobs}: ${figures(many)}`)
  console.log(
    `speed-up --jobs ${jobs} / --jobs 1: ${(one.ms / many.ms).toFixed(2)}x wall time (every run: ${runs.one.map((r, i) => (r.ms / runs.many[i]!.ms).toFixed(2)).join(', ')})`,
  )
  for (const line of threadSplit(runs.one, runs.many, jobs)) console.log(line)
  const same = JSON.stringify(one.failed) === JSON.stringify(many.failed) && one.exitCode === many.exitCode
  console.log(`same failed rules and exit code: ${same ? 'yes' : `NO (--jobs 1: ${one.failed.join('; ')}; --jobs ${jobs}: ${many.failed.join('; ')})`}`)
  console.log(`load average ${load.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after, on ${availableParallelism()} cores (${new Date().toISOString()})`)
}

try {
  const target = Number(values.exchanges)
  const { paths, ...sample } = await realisticTraffic()
  const bytes = [...sample.reads, ...sample.writes].reduce((sum, ex) => sum + ndjsonLine(ex).length, 0)
  console.log(
    `realistic traffic: ${count(sample.reads.length)} reads of the reference server (list pages of 25, 50 and 100 and single records, ${RESOURCE_LIST.length} resources) and the scripted client's ${count(sample.writes.length)} exchanges, ${mb(bytes)}`,
  )

  if (values['jobs-only']) {
    const harFile = join(dir, 'traffic.har')
    await writeHar(harFile, sample, target)
    await compareJobs(harFile, Number(values.jobs ?? availableParallelism()))
  } else if (!values['skip-verify']) {
    const harFile = join(dir, 'traffic.har')
    const quarterFile = join(dir, 'quarter.har')
    const ndjsonFile = join(dir, 'traffic.ndjson')
    await writeHar(harFile, sample, target)
    await writeHar(quarterFile, sample, Math.round(target / 4))
    await writeLines(ndjsonFile, repeated(sample, target))
    console.log(`repeated to ${count(target)} exchanges: HAR ${mb(statSync(harFile).size)}, NDJSON ${mb(statSync(ndjsonFile).size)}`)
    const line = (name: string, r: VerifyFigures) =>
      `verify-traffic ${name}: ${count(r.exchanges)} exchanges in ${(r.ms / 1000).toFixed(2)} s = ${count(r.exchanges / (r.ms / 1000))} exchanges/s (${count(r.exchanges / (r.cpuMs / 1000))} per CPU-second); peak RSS ${mb(r.peakRssSampled)} sampled, maxRSS ${mb(r.maxRss)}${r.exitCode === 0 ? '' : ` (exit ${r.exitCode})`}`
    const quarter = await verifyInChild(quarterFile)
    console.log(line('HAR, a quarter', quarter))
    // As mitmproxy and Charles write bodies: base64.
    const base64File = join(dir, 'traffic-base64.har')
    await writeHar(base64File, sample, target, 'base64')
    console.log(`  the same as a HAR with base64 bodies (mitmproxy, Charles): ${mb(statSync(base64File).size)}`)
    console.log(line('NDJSON', await verifyInChild(ndjsonFile)))
    // Alternated and repeated, the best of each kept: other work on the machine only ever slows a run down.
    const best = (runs: VerifyFigures[]) => runs.reduce((a, b) => (b.cpuMs < a.cpuMs ? b : a))
    let har: VerifyFigures | undefined
    for (const [name, file] of [
      ['HAR', harFile],
      ['HAR base64', base64File],
    ] as const) {
      const runs: VerifyFigures[] = []
      const baselineRuns: VerifyFigures[] = []
      for (let i = 0; i < Number(values.repeat); i++) {
        runs.push(await verifyInChild(file))
        if (values.baseline) baselineRuns.push(await verifyInChild(file, ['--root', resolve(values.baseline)]))
      }
      const now = best(runs)
      har ??= now
      console.log(line(`${name} (best of ${runs.length})`, now))
      if (values.baseline) {
        const before = best(baselineRuns)
        console.log(line(`${name} by ${values.baseline} (best of ${baselineRuns.length})`, before))
        console.log(
          `  this checkout / baseline, same file, same run: ${(before.cpuMs / now.cpuMs).toFixed(2)}x the exchanges per CPU-second, ${(before.ms / now.ms).toFixed(2)}x per second of wall time, ${(now.maxRss / before.maxRss).toFixed(2)}x the maxRSS`,
        )
      }
    }
    for (const failed of har!.failed) console.log(`  broken on this traffic (the scripted client's mistakes on purpose): ${failed}`)
    const timed = await verifyInChild(harFile, ['--rule-times'])
    const times = Object.entries(timed.ruleTimes ?? {}).sort((a, b) => b[1] - a[1])
    const inRules = times.reduce((sum, [, ms]) => sum + ms, 0)
    console.log(
      `cost per rule (HAR, timed run: ${(timed.ms / 1000).toFixed(2)} s in all, ${(inRules / 1000).toFixed(2)} s = ${((100 * inRules) / timed.ms).toFixed(0)}% in rules, the rest reading, parsing and masking):`,
    )
    for (const [id, ms] of times) console.log(`  ${((100 * ms) / inRules).toFixed(1).padStart(5)}%  ${(ms / 1000).toFixed(3)} s  ${id}`)
  }

  if (!values['skip-latency']) {
    const server = await startReferenceServer({ port: 0, rateLimitPerMinute: 10_000_000 })
    try {
      await grow(server, 120)
      const paths = await realisticPaths(server)
      const setups = [
        await startSetup('forwarding alone, nothing judged (the floor)', server, ['--forward-only']),
        await startSetup('rules on the judging thread', server, []),
        await startSetup('a slow rule (2 ms each) and hostile bodies, on the judging thread', server, ['--slow']),
        await startSetup('the same slow rule judged on the forwarding thread (as before the judging thread)', server, ['--slow', '--inline']),
      ]
      await latencies(server, paths, setups)
    } finally {
      await server.close()
    }
  }
} finally {
  if (!values.keep) rmSync(dir, { recursive: true, force: true })
}
