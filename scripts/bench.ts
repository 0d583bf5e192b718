// npm run bench: what a full run costs. Prints per run and as medians the wall time, requests (total and
// per area), checks per second and peak memory of the CLI against the embedded reference server; the
// same run against a main key limited to 600 requests a minute (wall time and 429s on the main key, which
// must be 0); and, from the self-validation catalogue, faults caught per 100 requests. Writes
// reports/bench.json. Nothing here is asserted: these are figures to read.
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { ALL_FAULTS, judgeFault } from '../src/selfcheck/matrix.ts'
import { PROJECT_ROOT, TOOL_VERSION } from '../src/version.ts'
import { catalogue } from '../suites/index.ts'

const RUNS = Number(process.env.BENCH_RUNS ?? 3)
const CLI = join(PROJECT_ROOT, 'bin', 'crm-conformance.mjs')

interface RunFigures {
  wallMs: number
  requests: number
  byArea: Record<string, number>
  checks: number
  checksPerSecond: number
  peakRssMb: number
  rateLimitedMain: number
  verdict: string
}

function runCli(extra: string[]): RunFigures {
  const dir = mkdtempSync(join(tmpdir(), 'crmconf-bench-'))
  const started = performance.now()
  // GNU time reports the peak resident set of the whole process (the vitest worker is a thread of it).
  const child = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, CLI, 'run', '--quiet', '--seed', '42', '--report-dir', dir, ...extra], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
    env: { ...process.env, CRM_BASE_URL: '' },
  })
  const wallMs = performance.now() - started
  const peakKb = Number(child.stderr.trim().split('\n').at(-1))
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'))
  return {
    wallMs: Math.round(wallMs),
    requests: report.requests.total,
    byArea: report.requests.byArea,
    checks: report.checks.length,
    checksPerSecond: Math.round((report.checks.length / wallMs) * 1000 * 10) / 10,
    peakRssMb: Number.isFinite(peakKb) ? Math.round(peakKb / 1024) : NaN,
    rateLimitedMain: report.requests.rateLimited?.main ?? 0,
    verdict: report.verdict,
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

const print = (label: string, f: RunFigures) =>
  console.log(
    `${label.padEnd(10)} ${String(f.wallMs).padStart(6)} ms  ${String(f.requests).padStart(5)} requests  ${String(f.checks).padStart(4)} checks  ${String(f.checksPerSecond).padStart(5)} checks/s  ${String(f.peakRssMb).padStart(4)} MB  ${f.verdict}`,
  )

console.log(
  `crm-conformance ${TOOL_VERSION} bench on ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}`,
)
console.log('\nfull profile against the embedded reference server')
const runs: RunFigures[] = []
for (let i = 0; i < RUNS; i++) {
  const figures = runCli([])
  runs.push(figures)
  print(`run ${i + 1}`, figures)
}
const medians = {
  wallMs: median(runs.map((r) => r.wallMs)),
  requests: median(runs.map((r) => r.requests)),
  checksPerSecond: median(runs.map((r) => r.checksPerSecond)),
  peakRssMb: median(runs.map((r) => r.peakRssMb)),
}
console.log(`median     ${medians.wallMs} ms, ${medians.requests} requests, ${medians.checksPerSecond} checks/s, ${medians.peakRssMb} MB`)
console.log('requests per area (run 1):')
for (const [area, n] of Object.entries(runs[0]!.byArea).sort((a, b) => b[1] - a[1])) console.log(`  ${area.padEnd(14)} ${n}`)

console.log('\nfull profile, main key limited to 600 requests per minute')
const limited = runCli(['--rate-limit', '600'])
print('600/min', limited)
console.log(`429s on the main key: ${limited.rateLimitedMain}`)

let faultFigures: { faults: number; caught: number; requestsPerFullRun: number; caughtPer100Requests: number } | undefined
if (process.env.BENCH_SKIP_FAULTS !== '1') {
  console.log(`\nself-validation: the whole suite against each of ${ALL_FAULTS.length} faults (BENCH_SKIP_FAULTS=1 skips)`)
  let caught = 0
  let requests = 0
  const missed: string[] = []
  const partly: string[] = []
  // Several at once: a fault run mostly waits (Retry-After, webhook deliveries).
  const queue = [...ALL_FAULTS]
  const worker = async () => {
    for (let fault = queue.shift(); fault; fault = queue.shift()) {
      const row = await judgeFault(fault, catalogue, 'catalogue')
      // Caught means the run fails on it. Whether every named check fails is the self-validation's question (judged
      // there on the named checks' areas): in a whole run, records other areas make can move which record a fault hits.
      if (row.outcome === 'caught' || row.outcome === 'partly-caught') caught++
      else missed.push(`${row.fault} (${row.outcome})`)
      if (row.outcome === 'partly-caught') partly.push(`${row.fault} (missed by ${row.missed.map((m) => m.id).join(', ')})`)
      requests += row.requests
    }
  }
  await Promise.all(Array.from({ length: 6 }, worker))
  const perRun = Math.round(requests / ALL_FAULTS.length)
  faultFigures = { faults: ALL_FAULTS.length, caught, requestsPerFullRun: perRun, caughtPer100Requests: Math.round((caught / perRun) * 100 * 100) / 100 }
  if (missed.length) console.log(`not caught by the whole suite: ${missed.sort().join(', ')}`)
  if (partly.length) console.log(`caught, but not by every check the fault names: ${partly.sort().join('; ')}`)
  console.log(
    `${caught}/${ALL_FAULTS.length} faults caught; a full run sends ${perRun} requests: ${faultFigures.caughtPer100Requests} faults caught per 100 requests`,
  )
}

mkdirSync(join(PROJECT_ROOT, 'reports'), { recursive: true })
const out = join(PROJECT_ROOT, 'reports', 'bench.json')
writeFileSync(
  out,
  JSON.stringify(
    {
      date: new Date().toISOString(),
      suiteVersion: TOOL_VERSION,
      machine: { cpus: cpus().length, model: cpus()[0]?.model, memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version, git: safeGit() },
      runs,
      medians,
      limited600: limited,
      faults: faultFigures,
    },
    null,
    2,
  ),
)
console.log(`\nwrote ${out}`)

function safeGit(): string | undefined {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: PROJECT_ROOT, encoding: 'utf8' }).trim()
  } catch {
    return undefined
  }
}
