// npm run traffic:mutation [-- --shard 1/2] [--only <fault id>…]: the traffic verifier's own mutation score.
// The scripted client (test/traffic/scripted-client.ts) goes through the validating proxy in front of the
// reference server, once per legal variant (every one must give 0 server violations) and once per fault of the
// catalogue (src/reference/faults.ts). A fault is *observable passively* when the traffic it produces differs
// from the clean server's beyond what differs between two clean runs (ids, times, cursors and rate-limit
// values aside): a fault the scripted traffic cannot show (webhooks, IP allowlists, keys it does not hold) is
// no fault a passive verifier could catch. It is *caught* when a server-side rule failed. Score: caught of
// observable. Writes reports/traffic-mutation-report.md (or, with --shard, a JSON part the last shard merges).
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { FAULTS, VARIANT_NAMES } from '../src/reference/index.ts'
import type { TrafficExchange } from '../src/traffic/types.ts'
import { runProxied, serverFailures } from '../test/traffic/harness.ts'

const ROOT = resolve(import.meta.dirname, '..')
const REPORT = join(ROOT, 'reports', 'traffic-mutation-report.md')
const PARTS = join(ROOT, 'reports', '.traffic-mutation-parts')
const { values } = parseArgs({ options: { shard: { type: 'string' }, only: { type: 'string', multiple: true } } })

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T/
/** Values that change from run to run on the same server: ids, times, cursors, the rate limiter's arithmetic. */
function normal(value: unknown): unknown {
  if (typeof value === 'string') {
    if (UUID.test(value)) return '<uuid>'
    // The form of a time is kept (zone or none, precision): only its value changes from run to run.
    if (DATE_TIME.test(value)) return `<time ${value.replace(/\d/g, '9')}>`
    if (/^[A-Za-z0-9_-]{24,}={0,2}$/.test(value)) return '<opaque>'
    return value.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>')
  }
  if (Array.isArray(value)) return value.map(normal)
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, normal(v)]),
    )
  return value
}
const VOLATILE_HEADERS = new Set([
  'date',
  'ratelimit-remaining',
  'ratelimit-reset',
  'retry-after',
  'location',
  'etag',
  'content-length',
  'keep-alive',
  'connection',
])
/** The form of a volatile header value: digits count (seconds vs milliseconds), an HTTP date, an ISO time. */
function shapeOf(name: string, value: string): string {
  // Remaining and reset follow the clock; Retry-After's size tells seconds from milliseconds.
  if (/^\d+$/.test(value)) return name === 'retry-after' ? `<int ${value.length} digits>` : '<int>'
  if (Number.isFinite(Date.parse(value))) return DATE_TIME.test(value) ? '<iso time>' : '<http date>'
  return '<text>'
}
function signature(exchange: TrafficExchange): string {
  const response = exchange.response
  const headers = response
    ? Object.entries(response.headers)
        .map(([k, v]) => (VOLATILE_HEADERS.has(k) ? `${k}:${shapeOf(k, v)}` : `${k}:${v}`))
        .sort()
    : []
  // A page's records as a set: records created in the same millisecond come in either order from run to run.
  let body = normal(response?.body) as { data?: unknown } | undefined
  if (body && typeof body === 'object' && Array.isArray(body.data)) body = { ...body, data: body.data.map((r) => JSON.stringify(r)).sort() }
  return JSON.stringify([exchange.request.method, normal(exchange.request.url.replace(/^https?:\/\/[^/]+/, '')), response?.status, headers, body])
}
const signatures = (exchanges: TrafficExchange[]) => exchanges.map(signature)

interface FaultResult {
  id: string
  area: string
  description: string
  observable: boolean
  /** The first exchange whose answer differed from the clean server's. */
  firstDifference?: string
  caught: boolean
  rules: string[]
  exchanges: number
}

function differences(a: string[], b: string[], noise: Set<number>): number[] {
  const out: number[] = []
  for (let i = 0; i < Math.max(a.length, b.length); i++) if (!noise.has(i) && a[i] !== b[i]) out.push(i)
  return out
}

async function main(): Promise<void> {
  const [shardIndex, shardCount] = values.shard ? (values.shard.split('/').map(Number) as [number, number]) : [1, 1]
  const faults = FAULTS.filter((f) => !values.only || values.only.includes(f.id)).filter((_, i) => i % shardCount === shardIndex - 1)
  // Two clean runs: what differs between them is noise, never a fault's trace.
  const clean = [await runProxied(), await runProxied()]
  const base = signatures(clean[0]!.exchanges)
  const noise = new Set(differences(base, signatures(clean[1]!.exchanges), new Set()))
  const variants: { name: string; exchanges: number; serverViolations: string[] }[] = []
  if (shardIndex === 1) {
    for (const name of VARIANT_NAMES) {
      const run = name === 'default' ? clean[0]! : await runProxied({ variant: name })
      variants.push({ name, exchanges: run.exchanges.length, serverViolations: serverFailures(run.rows).map((r) => `${r.id}: ${r.message}`) })
    }
  }
  const results: FaultResult[] = []
  for (const fault of faults) {
    const run = await runProxied({ faults: [fault.id] })
    const diff = differences(base, signatures(run.exchanges), noise)
    const first = diff[0] !== undefined ? run.exchanges[diff[0]] : undefined
    const caught = serverFailures(run.rows).map((r) => r.id)
    results.push({
      id: fault.id,
      area: fault.area,
      description: fault.description,
      observable: diff.length > 0,
      ...(first
        ? { firstDifference: `${first.request.method} ${first.request.url.replace(/^https?:\/\/[^/]+/, '')} → ${first.response?.status ?? 'no response'}` }
        : {}),
      caught: caught.length > 0,
      rules: caught,
      exchanges: run.exchanges.length,
    })
    process.stderr.write(
      `${fault.id}: ${diff.length > 0 ? 'observable' : 'not observable'}, ${caught.length > 0 ? `caught (${caught.join(', ')})` : 'not caught'}\n`,
    )
  }
  const part = { shard: shardIndex, of: shardCount, noise: noise.size, exchanges: base.length, variants, results }
  if (shardCount > 1) {
    mkdirSync(PARTS, { recursive: true })
    writeFileSync(join(PARTS, `${shardIndex}.json`), JSON.stringify(part))
    const parts = readdirSync(PARTS).filter((f) => f.endsWith('.json'))
    if (parts.length < shardCount) return
    const all = parts.map((f) => JSON.parse(readFileSync(join(PARTS, f), 'utf8')) as typeof part)
    writeReport({ ...part, variants: all.flatMap((p) => p.variants), results: all.flatMap((p) => p.results) })
    rmSync(PARTS, { recursive: true, force: true })
  } else {
    writeReport(part)
  }
}

function writeReport(part: {
  noise: number
  exchanges: number
  variants: { name: string; exchanges: number; serverViolations: string[] }[]
  results: FaultResult[]
}): void {
  const order = new Map<string, number>(FAULTS.map((f, i) => [f.id, i]))
  const results = [...part.results].sort((a, b) => order.get(a.id)! - order.get(b.id)!)
  const observable = results.filter((r) => r.observable)
  const caught = observable.filter((r) => r.caught)
  const score = observable.length ? ((100 * caught.length) / observable.length).toFixed(1) : '0'
  const cell = (s: string) => s.replace(/\|/g, '\\|')
  const lines = [
    '# Traffic verifier: mutation report',
    '',
    `Generated by \`npm run traffic:mutation\` (scripts/traffic-mutation.ts) on ${new Date().toISOString().slice(0, 10)}: the scripted client (test/traffic/scripted-client.ts, ${part.exchanges} exchanges) through \`crm-conformance proxy\` in front of the reference server, once per legal variant and once per fault of src/reference/faults.ts.`,
    '',
    '- **Observable passively**: the fault changed what the server answered to this traffic, beyond what differs between two clean runs (ids, times, cursors and rate-limit values are compared as placeholders; ' +
      `${part.noise} exchanges differed between two clean runs and are ignored).`,
    '- **Caught**: a server-side traffic rule failed. The score is caught of observable.',
    '',
    `**Mutation score: ${caught.length} of ${observable.length} observable faults caught (${score} %).** ${results.length} faults in the catalogue, ${results.length - observable.length} not observable by this traffic; caught and not observable: ${results.filter((r) => r.caught && !r.observable).length}.`,
    '',
    '## Legal variants (must give 0 server violations)',
    '',
    '| Variant | Exchanges | Server violations |',
    '|---|---:|---|',
    ...part.variants.map((v) => `| ${v.name} | ${v.exchanges} | ${v.serverViolations.length === 0 ? '0' : cell(v.serverViolations.join('; '))} |`),
    '',
    '## Observable and not caught (what the rules miss)',
    '',
    ...(observable.length === caught.length
      ? ['None.']
      : [
          '| Fault | Area | First differing exchange |',
          '|---|---|---|',
          ...observable.filter((r) => !r.caught).map((r) => `| \`${r.id}\` | ${r.area} | ${cell(r.firstDifference ?? '')} |`),
        ]),
    '',
    '## Every fault',
    '',
    '| Fault | Area | Observable | Caught by |',
    '|---|---|---|---|',
    ...results.map(
      (r) =>
        `| \`${r.id}\` | ${r.area} | ${r.observable ? `yes (${cell(r.firstDifference ?? '')})` : 'no'} | ${r.caught ? r.rules.map((id) => `\`${id}\``).join(', ') : '—'} |`,
    ),
    '',
  ]
  mkdirSync(join(ROOT, 'reports'), { recursive: true })
  writeFileSync(REPORT, lines.join('\n'))
  process.stdout.write(`wrote ${REPORT}: ${caught.length} of ${observable.length} observable faults caught (${score} %)\n`)
  if (part.variants.some((v) => v.serverViolations.length > 0)) process.exitCode = 1
}

if (!existsSync(ROOT)) throw new Error('no project root')
await main()
