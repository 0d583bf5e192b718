// npm run flake-check -- --runs 20: runs the full profile N times and prints every check that did not end with
// the same status each time (issue 16: no flaky verdicts). Against the embedded reference server by default
// (`--variant <name>`, `--condition <name>` from src/selfcheck/conditions.ts), or with `--base-url` against a
// server, with the keys and fixtures from the environment or .env as for `crm-conformance run`.
// Each run gets its own seed (the first one + run number, as a user's runs get different seeds) unless
// `--same-seed`. Exit 0 when every check was stable, 1 when one was not, 2 on a usage error.
import { parseArgs } from 'node:util'
import type { CheckResult, Profile } from '../src/checks/types.ts'
import { loadConfig, type ResolvedConfig } from '../src/config/config.ts'
import { runInProcess } from '../src/run/in-process.ts'
import { verdictOf } from '../src/report/build.ts'
import { VARIANT_NAMES, type VariantName } from '../src/reference/index.ts'
import { CONDITION_NAMES, conditionNamed, runUnderCondition } from '../src/selfcheck/conditions.ts'
import { catalogue } from '../suites/index.ts'

const USAGE = `usage: npm run flake-check -- [--runs N] [--variant NAME | --condition NAME | --base-url URL] [--profile full|safe|read-only] [--seed N] [--same-seed]
  variants:   ${VARIANT_NAMES.join(', ')}
  conditions: ${CONDITION_NAMES.join(', ')}`

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`)
  process.exit(2)
}

let args: ReturnType<typeof parse>
function parse() {
  return parseArgs({
    options: {
      runs: { type: 'string', default: '20' },
      variant: { type: 'string' },
      condition: { type: 'string' },
      'base-url': { type: 'string' },
      profile: { type: 'string', default: 'full' },
      seed: { type: 'string' },
      'same-seed': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  }).values
}
try {
  args = parse()
} catch (error) {
  fail((error as Error).message)
}
if (args.help) {
  process.stdout.write(`${USAGE}\n`)
  process.exit(0)
}
const runs = Number(args.runs)
if (!Number.isInteger(runs) || runs < 2) fail('--runs must be an integer of 2 or more')
if ([args.variant, args.condition, args['base-url']].filter((v) => v !== undefined).length > 1) fail('use one of --variant, --condition, --base-url')
if (args.variant !== undefined && !VARIANT_NAMES.includes(args.variant as VariantName)) fail(`unknown variant ${args.variant}`)
if (args.condition !== undefined && !CONDITION_NAMES.includes(args.condition)) fail(`unknown condition ${args.condition}`)
const profile = args.profile as Profile
if (!['full', 'safe', 'read-only'].includes(profile)) fail(`unknown profile ${profile}`)
const firstSeed = args.seed === undefined ? Math.floor(Math.random() * 2 ** 30) : Number(args.seed)
if (!Number.isInteger(firstSeed) || firstSeed < 0) fail('--seed must be a non-negative integer')

/** Against a server: the configuration as `crm-conformance run` resolves it (environment, then .env). */
const external: ResolvedConfig | undefined = args['base-url'] !== undefined ? loadConfig(process.env, { baseUrl: args['base-url'], profile }) : undefined
const target = external
  ? external.baseUrl!
  : args.condition
    ? `the reference server, condition ${args.condition}`
    : `the reference server, variant ${args.variant ?? 'default'}`

async function oneRun(i: number, seed: number): Promise<CheckResult[]> {
  const runId = `flake-${Date.now().toString(36)}-${i}`
  if (args.condition !== undefined) {
    const result = await runUnderCondition(conditionNamed(args.condition), catalogue, { runId, seed })
    return result.run.results
  }
  const run = await runInProcess({
    checks: catalogue,
    profile,
    seed,
    runId,
    config: external ? { ...external, seed, profile } : undefined,
    embedded: external ? undefined : { variant: args.variant },
  })
  return run.results
}

console.log(`flake-check: ${runs} runs of the ${profile} profile against ${target}`)
const statuses = new Map<string, { level: string; seen: { status: string; seed: number; message: string }[] }>()
for (let i = 0; i < runs; i++) {
  const seed = args['same-seed'] ? firstSeed : firstSeed + i
  const started = performance.now()
  const results = await oneRun(i, seed)
  for (const r of results) {
    const row = statuses.get(r.id) ?? { level: r.level, seen: [] }
    row.seen.push({ status: r.status, seed, message: r.message })
    statuses.set(r.id, row)
  }
  const count = (s: string) => results.filter((r) => r.status === s).length
  console.log(
    `run ${String(i + 1).padStart(2)}  seed ${seed}  ${verdictOf(results).verdict.padEnd(13)}  ${count('passed')} passed, ${count('failed')} failed, ${count('error')} error, ${count('skipped')} skipped  ${Math.round((performance.now() - started) / 1000)} s`,
  )
}

// A check missing from a run (it was not selected) counts as its own status, so a check that ran only sometimes shows.
const unstable = [...statuses.entries()].filter(([, row]) => row.seen.length !== runs || new Set(row.seen.map((s) => s.status)).size > 1)
console.log(`\n${unstable.length} of ${statuses.size} checks did not end with the same status in all ${runs} runs`)
for (const [id, row] of unstable.sort(([a], [b]) => a.localeCompare(b))) {
  const tally = new Map<string, number>()
  for (const s of row.seen) tally.set(s.status, (tally.get(s.status) ?? 0) + 1)
  if (row.seen.length < runs) tally.set('not run', runs - row.seen.length)
  console.log(`  ${row.level.padEnd(6)} ${id}: ${[...tally].map(([status, n]) => `${status} ×${n}`).join(', ')}`)
  // One example of each status other than passed, with the seed that replays it.
  for (const status of [...tally.keys()].filter((s) => s !== 'passed' && s !== 'not run')) {
    const example = row.seen.find((s) => s.status === status)!
    console.log(`         ${status} with seed ${example.seed}: ${example.message.replace(/\s+/g, ' ').slice(0, 240)}`)
  }
}
process.exit(unstable.length === 0 ? 0 : 1)
