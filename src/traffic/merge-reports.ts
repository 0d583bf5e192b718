// `crm-conformance merge-reports <dirs…> --report-dir <dir>`: the reports of `verify-traffic --shard 1/N … N/N`
// merged into the report of the whole traffic (report.json, html, junit, summary by the suite's writers): each
// rule's tally merged (verifier.ts mergeTallies), so the verdict, failed rules, violation counts and evidence are
// those of the whole judged at once. Shards of another suite version, rule set, base path, --fail-on or shard
// count, and shard numbers repeated or missing, are refused in one line (exit 2).
import { readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { writeReportFiles } from '../report/write.ts'
import type { RunReport, TrafficShardSection } from '../report/types.ts'
import { printable } from '../text/printable.ts'
import { buildTrafficReport, markNotJudged, trafficExitCode } from './report.ts'
import { newTrafficRunId } from './session.ts'
import { mergeTallies, rowOf, type RuleTally, type TrafficRow } from './verifier.ts'

export interface MergeReportsOptions {
  dirs: string[]
  reportDir: string
  write?: (text: string) => void
}

class Refused extends Error {}

interface Shard {
  dir: string
  report: RunReport
  shard: TrafficShardSection
}

async function readShard(dir: string): Promise<Shard> {
  let report: RunReport
  try {
    report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as RunReport
  } catch (error) {
    throw new Refused(`${dir}: no readable report.json (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`)
  }
  const shard = report.traffic?.shard
  if (!shard || !Array.isArray(shard.tallies)) throw new Refused(`${dir}: not a shard's report (verify-traffic --shard K/N writes one)`)
  if (shard.tallies.length !== report.checks.length) throw new Refused(`${dir}: its report.json does not hold one tally per rule`)
  return { dir, report, shard }
}

/** Why these shards cannot make one whole, or undefined when they can. */
function refusal(shards: Shard[]): string | undefined {
  const [first] = shards
  if (!first) return 'no shard report given'
  const same = (what: string, of: (s: Shard) => unknown) => {
    const other = shards.find((s) => JSON.stringify(of(s)) !== JSON.stringify(of(first)))
    return other
      ? `${other.dir} and ${first.dir} differ in ${what} (${String(of(other))} and ${String(of(first))}): shards of one verification only`
      : undefined
  }
  const differs =
    same('suite version', (s) => s.report.tool.version) ??
    same('rule set', (s) => s.shard.ruleSet) ??
    same('shard count', (s) => s.shard.count) ??
    same('base path', (s) => s.report.traffic!.basePath) ??
    same('--fail-on', (s) => s.report.traffic!.failOn) ??
    same('traffic files', (s) => s.report.traffic!.files.join(' '))
  if (differs) return differs
  const seen = new Map<number, string>()
  for (const s of shards) {
    const also = seen.get(s.shard.index)
    if (also) return `${s.dir} and ${also} are both shard ${s.shard.index + 1}/${s.shard.count}: each shard once`
    seen.set(s.shard.index, s.dir)
  }
  const missing = [...Array(first.shard.count).keys()].filter((i) => !seen.has(i)).map((i) => `${i + 1}/${first.shard.count}`)
  return missing.length > 0
    ? `shard${missing.length === 1 ? '' : 's'} ${missing.join(', ')} missing: the merged report would speak for part of the traffic`
    : undefined
}

/** A shard's tally of row i, its evidence taken back from the row. */
function tallyOf(shard: Shard, i: number): RuleTally {
  const t = shard.shard.tallies[i]!
  const evidence = shard.report.checks[i]!.evidence
  return {
    id: t.id,
    judged: t.judged,
    violations: t.violations,
    ...(t.first ? { first: t.first } : {}),
    evidence: t.evidenceAt.map((at, j) => ({ at, item: evidence[j]! })).filter((e) => e.item !== undefined),
  }
}

export async function mergeReportsCommand(options: MergeReportsOptions): Promise<{ exitCode: 0 | 1 | 2; reportDir?: string }> {
  const write = (text: string) => (options.write ?? ((t: string) => process.stdout.write(t)))(printable(text))
  let shards: Shard[]
  try {
    shards = await Promise.all(options.dirs.map(readShard))
    const why = refusal(shards)
    if (why) throw new Refused(why)
  } catch (error) {
    if (!(error instanceof Refused)) throw error
    write(`merge-reports: refused: ${error.message}\n`)
    return { exitCode: 2 }
  }
  shards.sort((a, b) => a.shard.index - b.shard.index)
  const first = shards[0]!
  const traffic = first.report.traffic!
  const rows: TrafficRow[] = first.report.checks.map((row, i) => {
    const merged = mergeTallies(shards.map((s) => tallyOf(s, i)))
    return rowOf({ id: row.id, clauses: row.clauses, level: row.level, title: row.title, side: first.shard.tallies[i]!.side }, merged)
  })
  const exchanges = shards.reduce((sum, s) => sum + s.report.traffic!.exchanges, 0)
  const answered = shards.reduce((sum, s) => sum + (s.report.traffic!.answered ?? 0), 0)
  const interrupted = shards.find((s) => s.report.interrupted)?.report.interrupted
  const now = new Date()
  const report = buildTrafficReport({
    rows,
    exchanges,
    answered,
    source: traffic.source,
    files: traffic.files,
    basePath: traffic.basePath,
    failOn: traffic.failOn,
    targetUrl: first.report.target.baseUrl,
    spec: first.report.spec,
    runId: newTrafficRunId(now),
    startedAt: shards.map((s) => s.report.startedAt).sort()[0]!,
    finishedAt: shards
      .map((s) => s.report.finishedAt)
      .sort()
      .at(-1)!,
    replay: first.report.replay.replace(/ --shard \d+\/\d+/, ''),
    config: first.report.config,
    ...(interrupted ? { interrupted } : {}),
  })
  const lost = shards.filter((s) => s.shard.notJudged)
  if (lost.length > 0)
    markNotJudged(report, {
      count: lost.reduce((sum, s) => sum + s.shard.notJudged!.count, 0),
      why: lost.map((s) => `shard ${s.shard.index + 1}/${s.shard.count}: ${s.shard.notJudged!.why}`).join('; '),
      verb: 'read',
      always: true,
    })
  const reportDir = resolve(options.reportDir)
  const written = await writeReportFiles(report, reportDir)
  for (const row of written.report.checks)
    if (row.status === 'failed') write(`${row.level} ${row.id} (${row.clause}) ${(row as { side?: string }).side ?? ''}: ${row.message}\n`)
  write(`${written.report.verdictLabel}\nmerged ${shards.length} shard${shards.length === 1 ? '' : 's'}\nreports: ${reportDir}\n`)
  const exitCode = trafficExitCode(rows, traffic.failOn, answered)
  return { exitCode: interrupted || lost.length > 0 ? 2 : exitCode, reportDir }
}
