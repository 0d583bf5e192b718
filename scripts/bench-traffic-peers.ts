// npm run bench:traffic-peers [-- --only <fault id>…]: `crm-conformance verify-traffic` and Redocly CLI's
// `redocly drift` (experimental since 2.38; a devDependency) side by side on the same HAR files. Each HAR is the
// scripted client (test/traffic/scripted-client.ts) through the proxy in front of the reference server: once per
// legal variant (every server finding there is a false alarm) and once per fault that reports/traffic-mutation-
// report.md calls observable passively (a fault is caught when the tool reports a server-side finding the clean
// default server's HAR did not give). Redocly judges against the project's own OpenAPI export (src/openapi/);
// its findings on the request (a missing key, an invalid body: the scripted client's deliberate mistakes) are the
// client's and are counted apart, as ours are. drift 2.77 judges request parameters and bodies, response bodies
// against their schemas and the security scheme; it reads neither response statuses nor response headers, so the
// §8 rate headers and the statuses the export requires are invisible to it. Prints one table and writes
// reports/traffic-peers-report.md.
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { writeOpenApi } from '../src/openapi/build.ts'
import { FAULTS, VARIANT_NAMES, type VariantName } from '../src/reference/index.ts'
import { harOf } from '../src/traffic/har.ts'
import { verifyTrafficCommand } from '../src/traffic/verify-command.ts'
import { runProxied } from '../test/traffic/harness.ts'

const ROOT = resolve(import.meta.dirname, '..')
const REPORT = join(ROOT, 'reports', 'traffic-peers-report.md')
const MUTATION_REPORT = join(ROOT, 'reports', 'traffic-mutation-report.md')
const REDOCLY = join(ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js')
/** Every built-in rule of `redocly drift` 2.77, the opt-in OWASP heuristics included: its strongest setting. */
const DRIFT_RULES = 'undocumented-endpoint,schema-consistency,security-baseline,owasp-api-top10'
const { values } = parseArgs({ options: { only: { type: 'string', multiple: true } } })

interface Verdicts {
  /** Server-side findings, as comparable signatures (rule and operation, ids and times left out). */
  server: Set<string>
  client: number
  cpuMs: number
}

const work = mkdtempSync(join(tmpdir(), 'crm-traffic-peers-'))
const api = join(work, 'openapi.json')
writeOpenApi(api)

function redoclyVersion(): string {
  return (JSON.parse(readFileSync(join(ROOT, 'node_modules', '@redocly', 'cli', 'package.json'), 'utf8')) as { version: string }).version
}

interface DriftProblem {
  ruleId?: string
  severity?: string
  target?: string
  operationId?: string
  message?: string
  status?: number
}

function redocly(har: string, serverUrl: string): Verdicts {
  const out = join(work, 'drift.json')
  rmSync(out, { force: true })
  const started = process.hrtime.bigint()
  const run = spawnSync(
    process.execPath,
    [REDOCLY, 'drift', har, '--api', api, '--server', serverUrl, '--format', 'json', '-o', out, '--min-severity', 'warning', '--rules', DRIFT_RULES],
    { encoding: 'utf8', env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
  )
  const cpuMs = Number(process.hrtime.bigint() - started) / 1e6
  let problems: DriftProblem[] = []
  try {
    problems = (JSON.parse(readFileSync(out, 'utf8')) as { problems: DriftProblem[] }).problems
  } catch {
    throw new Error(`redocly drift wrote no report (exit ${run.status}): ${run.stderr.slice(-400)}`)
  }
  const server = new Set<string>()
  let client = 0
  for (const p of problems) {
    if (p.target === 'request') client++
    else server.add(`${p.ruleId} ${p.operationId ?? '?'} ${p.status ?? ''} ${(p.message ?? '').replace(/[0-9a-f-]{36}/gi, '<id>')}`)
  }
  return { server, client, cpuMs }
}

async function ours(har: string): Promise<Verdicts> {
  const reportDir = join(work, 'ours')
  rmSync(reportDir, { recursive: true, force: true })
  const started = process.cpuUsage()
  const outcome = await verifyTrafficCommand({ files: [har], reportDir, write: () => {}, env: {} })
  const used = process.cpuUsage(started)
  const rows = (JSON.parse(readFileSync(join(outcome.reportDir!, 'report.json'), 'utf8')) as { checks: { id: string; status: string; side?: string }[] }).checks
  const failed = rows.filter((r) => r.status === 'failed')
  return {
    server: new Set(failed.filter((r) => r.side === 'server').map((r) => r.id)),
    client: failed.filter((r) => r.side === 'client').length,
    cpuMs: (used.user + used.system) / 1000,
  }
}

async function harFor(options: { variant?: VariantName; faults?: string[] }): Promise<{ har: string; server: string }> {
  const run = await runProxied(options)
  const har = join(work, 'traffic.har')
  writeFileSync(har, harOf(run.exchanges))
  const first = run.exchanges[0]!.request.url
  return { har, server: `${new URL(first).origin}${run.basePath}` }
}

/** The faults the traffic mutation report calls observable passively (its "Every fault" table). */
function observableFaults(): string[] {
  const text = readFileSync(MUTATION_REPORT, 'utf8')
  return [...text.matchAll(/^\| `([^`]+)` \| [^|]+ \| yes /gm)].map((m) => m[1]!)
}

const tools = ['crm-conformance verify-traffic', `Redocly CLI redocly drift ${redoclyVersion()}`] as const
const judge = [ours, async (har: string, server: string) => redocly(har, server)] as const

async function main(): Promise<void> {
  const falseAlarms = tools.map(() => new Map<string, string[]>())
  const baselines: Set<string>[] = []
  const cpu = tools.map(() => [] as number[])
  for (const variant of VARIANT_NAMES) {
    const { har, server } = await harFor({ variant })
    for (const [t, run] of judge.entries()) {
      const v = await run(har, server)
      if (variant === 'default') baselines[t] = v.server
      cpu[t]!.push(v.cpuMs)
      falseAlarms[t]!.set(variant, [...v.server])
    }
    process.stderr.write(`${variant}: ${tools.map((_, t) => `${falseAlarms[t]!.get(variant)!.length}`).join(' / ')} server findings\n`)
  }
  const faults = observableFaults().filter((id) => !values.only || values.only.includes(id))
  const caught = tools.map(() => [] as string[])
  for (const id of faults) {
    if (!FAULTS.some((f) => f.id === id)) continue
    const { har, server } = await harFor({ faults: [id] })
    const marks: string[] = []
    for (const [t, run] of judge.entries()) {
      const v = await run(har, server)
      const fresh = [...v.server].filter((s) => !baselines[t]!.has(s))
      if (fresh.length > 0) caught[t]!.push(id)
      marks.push(fresh.length > 0 ? 'caught' : '-')
    }
    process.stderr.write(`${id}: ${marks.join(' / ')}\n`)
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0
  const lines = [
    '# Traffic verifiers side by side',
    '',
    `Generated by \`npm run bench:traffic-peers\` (scripts/bench-traffic-peers.ts) on ${new Date().toISOString().slice(0, 10)}: the same HAR files (the scripted client through the proxy in front of the reference server) judged by each tool, once per legal variant (${VARIANT_NAMES.length}) and once per fault the traffic mutation report calls observable passively (${faults.length}). Redocly judges against \`crm-conformance openapi\` (src/openapi/build.ts). A server-side finding on a legal variant is a false alarm; a fault is caught when the tool reports a server-side finding the clean default server did not give. Findings on the request (the scripted client's deliberate mistakes) are the client's and are not counted. drift runs with every built-in rule (\`${DRIFT_RULES}\`); it validates bodies and parameters against their schemas but reads neither response statuses nor response headers.`,
    '',
    `| verifier | false server findings on ${VARIANT_NAMES.length} legal variants | faults caught /${faults.length} | time per HAR (median) |`,
    '|---|---|---|---|',
    ...tools.map((name, t) => {
      const alarms = [...falseAlarms[t]!.values()].reduce((n, xs) => n + xs.length, 0)
      return `| ${name} | ${alarms} | ${caught[t]!.length} | ${median(cpu[t]!).toFixed(0)} ms${t === 0 ? ' CPU' : ' wall, process start included'} |`
    }),
    '',
    '## False alarms on the legal variants',
    '',
    ...tools.flatMap((name, t) => {
      const rows = [...falseAlarms[t]!.entries()].filter(([, xs]) => xs.length > 0)
      return rows.length === 0 ? [`- ${name}: none`] : rows.map(([variant, xs]) => `- ${name}, ${variant}: ${xs.join('; ')}`)
    }),
    '',
    '## Faults caught by one tool only',
    '',
    `- only crm-conformance: ${
      caught[0]!
        .filter((id) => !caught[1]!.includes(id))
        .map((id) => `\`${id}\``)
        .join(', ') || 'none'
    }`,
    `- only Redocly: ${
      caught[1]!
        .filter((id) => !caught[0]!.includes(id))
        .map((id) => `\`${id}\``)
        .join(', ') || 'none'
    }`,
    `- both: ${caught[0]!.filter((id) => caught[1]!.includes(id)).length}; neither: ${faults.filter((id) => !caught[0]!.includes(id) && !caught[1]!.includes(id)).length}`,
    '',
  ]
  const text = lines.join('\n')
  process.stdout.write(`${lines.slice(4, 4 + 2 + tools.length).join('\n')}\n`)
  if (!values.only) {
    mkdirSync(join(ROOT, 'reports'), { recursive: true })
    writeFileSync(REPORT, text)
    process.stdout.write(`wrote ${REPORT}\n`)
  }
}

try {
  await main()
} finally {
  rmSync(work, { recursive: true, force: true })
}
