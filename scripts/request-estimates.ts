// Measures the requests each check sends, by key role, in a full-profile run against the reference server,
// and writes src/run/request-estimates.ts (what `run` prints its estimate from). Run after adding checks:
//   node bin/run-ts.mjs scripts/request-estimates.ts
import { writeFileSync } from 'node:fs'
import { runInProcess } from '../src/run/in-process.ts'
import { scopeOfRequest } from '../src/run/scope-needs.ts'
import type { RequestEstimates } from '../src/run/estimate.ts'
import { catalogue } from '../suites/index.ts'

const run = await runInProcess({ checks: catalogue, profile: 'full', seed: 1, config: { webhookTimeoutS: 8 } })
const table: RequestEstimates = { source: `full profile, seed 1, reference server, ${new Date().toISOString().slice(0, 10)}`, checks: {}, harness: {} }
// A check that sent nothing is measured too (0), not guessed.
for (const result of run.results) if (result.status !== 'skipped') table.checks[result.id] = {}
for (const exchange of run.session.exchanges) {
  const id = exchange.checkId
  const into = id && table.checks[id] !== undefined ? table.checks[id]! : id && catalogue.some((c) => c.id === id) ? (table.checks[id] = {}) : table.harness
  into[exchange.keyRole] = (into[exchange.keyRole] ?? 0) + 1
}
// The scopes the main key used, per area and write need (src/run/scope-needs.ts reads them): in the full run, and
// in a safe-profile run for the narrower profiles (a check may write less there).
const checkOf = new Map(catalogue.map((c) => [c.id, c]))
function scopesUsed(exchanges: typeof run.session.exchanges): Record<string, Record<string, string[]>> {
  const scopes: Record<string, Record<string, Set<string>>> = {}
  for (const exchange of exchanges) {
    const check = exchange.checkId ? checkOf.get(exchange.checkId) : undefined
    const scope = scopeOfRequest(exchange.request.method, exchange.request.url)
    if (!check || exchange.keyRole !== 'main' || !scope) continue
    const byNeed = (scopes[check.area] ??= {})
    ;(byNeed[check.writes ?? 'none'] ??= new Set()).add(scope)
  }
  return Object.fromEntries(
    Object.keys(scopes)
      .sort()
      .map((area) => [area, Object.fromEntries(Object.entries(scopes[area]!).map(([need, set]) => [need, [...set].sort()]))]),
  )
}
const safeRun = await runInProcess({ checks: catalogue, profile: 'safe', seed: 1, config: { webhookTimeoutS: 8 } })
// A subset pays fixed costs a full run shares out (reading the fixture pools, the shared fixtures of its area,
// clean-up): each area run alone, and one check alone for what any run pays.
const byRole = (exchanges: readonly { keyRole: string }[]) => {
  const roles: Record<string, number> = {}
  for (const e of exchanges) roles[e.keyRole] = (roles[e.keyRole] ?? 0) + 1
  return roles
}
const areaRuns: Record<string, Record<string, number>> = {}
for (const area of [...new Set(catalogue.map((c) => c.area))]) {
  const alone = await runInProcess({ checks: catalogue, only: [area], profile: 'full', seed: 1, config: { webhookTimeoutS: 8 } })
  areaRuns[area] = byRole(alone.session.exchanges)
}
// The explorer draws what it sends from its seed (one seed may never touch a collection another writes): its scopes
// are the union over many seeds in each profile, with the one full run's, so a key lacking one stops the run.
const EXPLORE_SEEDS = 16
async function exploreScopes(profile: 'full' | 'safe', first: typeof run.session.exchanges): Promise<Record<string, string[]>> {
  const exchanges = [...first]
  for (let seed = 2; seed <= EXPLORE_SEEDS; seed++)
    exchanges.push(...(await runInProcess({ checks: catalogue, only: ['explore'], profile, seed, config: { webhookSecret: '' } })).session.exchanges)
  return scopesUsed(exchanges).explore ?? {}
}
const smallest = await runInProcess({ checks: catalogue, only: ['discovery.me.answers'], profile: 'full', seed: 1 })
const sorted: RequestEstimates = {
  ...table,
  areaRuns,
  anyRun: byRole(smallest.session.exchanges.filter((e) => !e.checkId)),
  scopes: { ...scopesUsed(run.session.exchanges), explore: await exploreScopes('full', run.session.exchanges) },
  safeScopes: { ...scopesUsed(safeRun.session.exchanges), explore: await exploreScopes('safe', safeRun.session.exchanges) },
  checks: Object.fromEntries(
    Object.keys(table.checks)
      .sort()
      .map((id) => [id, table.checks[id]!]),
  ),
}
/** One line per check, so a regenerated table diffs by check. */
function compact(value: RequestEstimates): string {
  const rows = Object.entries(value.checks).map(([id, roles]) => `    ${JSON.stringify(id)}: ${JSON.stringify(roles)},`)
  const scopeRows = (table?: Record<string, Record<string, string[]>>) =>
    Object.entries(table ?? {}).map(([area, byNeed]) => `    ${JSON.stringify(area)}: ${JSON.stringify(byNeed)},`)
  const areaRows = Object.entries(value.areaRuns ?? {}).map(([area, roles]) => `    ${JSON.stringify(area)}: ${JSON.stringify(roles)},`)
  return `{\n  source: ${JSON.stringify(value.source)},\n  harness: ${JSON.stringify(value.harness)},\n  anyRun: ${JSON.stringify(value.anyRun ?? {})},\n  areaRuns: {\n${areaRows.join('\n')}\n  },\n  scopes: {\n${scopeRows(value.scopes).join('\n')}\n  },\n  safeScopes: {\n${scopeRows(value.safeScopes).join('\n')}\n  },\n  checks: {\n${rows.join('\n')}\n  },\n}`
}
const header = '// Generated by scripts/request-estimates.ts from a real run: requests per check and key role. Do not edit.\n'
writeFileSync(
  new URL('../src/run/request-estimates.ts', import.meta.url),
  `${header}import type { RequestEstimates } from './estimate-table.ts'\n\nexport const REQUEST_ESTIMATES: RequestEstimates = ${compact(sorted)}\n`,
)
process.stdout.write(`${Object.keys(sorted.checks).length} checks, ${run.session.exchanges.length} requests\n`)
