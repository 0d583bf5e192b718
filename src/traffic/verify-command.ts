// `crm-conformance verify-traffic <file>...`: judges recorded traffic (HAR 1.2, or the NDJSON `proxy --record`
// writes) with the traffic rules, streaming each file, and writes the report files of a suite run.
// Exit 0: no rule at the --fail-on level broken; 1: one was; 2: a file could not be read, or the traffic
// exercised no rule (nothing of the API in it, or a wrong --base-path): nothing was verified.
import { constants } from 'node:fs'
import { access, open } from 'node:fs/promises'
import { basename } from 'node:path'
import { loadConfig, type ResolvedConfig } from '../config/config.ts'
import { printable } from '../text/printable.ts'
import { readHar, readHarUnits } from './har.ts'
import { isZip } from './har-zip.ts'
import { readNdjson, readNdjsonUnits, TrafficFileError } from './ndjson.ts'
import type { FailOn } from './report.ts'
import { judgeExchanges, type ReadUnit } from './jobs.ts'
import { ruleSetDigest, type ShardSpec } from './partition.ts'
import { TRAFFIC_RULES } from './rules/index.ts'
import { TrafficSession } from './session.ts'
import type { TrafficExchange, TrafficRule } from './types.ts'
import { quotedPath } from '../text/quoted-path.ts'
import { rowOf } from './verifier.ts'

export interface VerifyTrafficOptions {
  files: string[]
  reportDir?: string
  /** Default: read from the first exchange's URL (the path up to `/v1`), else `/v1`. */
  basePath?: string
  failOn?: FailOn
  write?: (text: string) => void
  env?: NodeJS.ProcessEnv
  rules?: readonly TrafficRule[]
  /** Given, each rule's time is added to it (ms by rule id): `npm run bench:traffic` prints the cost per rule. */
  ruleTimes?: Map<string, number>
  /** Worker threads judging (partition.ts); default 1 (and 1 when `rules`/`ruleTimes` are given). */
  jobs?: number
  /** Judge this shard only (--shard K/N), its report mergeable by merge-reports. */
  shard?: ShardSpec
  /** A module URL whose `rules` replace the catalogue's, in this thread and the workers (a test hook). */
  rulesModule?: string
}

export interface VerifyTrafficOutcome {
  exitCode: 0 | 1 | 2
  reportDir?: string
  exchanges: number
  /** How the CPU time split between the reading thread and the --jobs workers (jobs.ts JudgedFiles), when known. */
  threadCpuMs?: { reader?: number; workers: (number | undefined)[] }
}

export type TrafficFormat = 'har' | 'har-zip' | 'ndjson'

/**
 * By extension (`.zip`: Playwright's zipped HAR), else by content: a zip archive, an NDJSON file's first line is a
 * whole exchange object, a HAR is one document.
 */
export async function detectFormat(file: string): Promise<TrafficFormat> {
  const lower = file.toLowerCase()
  if (lower.endsWith('.zip')) return 'har-zip'
  if (lower.endsWith('.har')) return 'har'
  if (lower.endsWith('.ndjson') || lower.endsWith('.jsonl')) return 'ndjson'
  const handle = await open(file, 'r')
  try {
    const buffer = Buffer.alloc(64 * 1024)
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0)
    if (isZip(buffer.subarray(0, bytesRead))) return 'har-zip'
    const head = buffer.subarray(0, bytesRead).toString('utf8').trimStart()
    const firstLine = head.split('\n', 1)[0] ?? ''
    try {
      const value = JSON.parse(firstLine) as { request?: unknown; log?: unknown }
      if (value && typeof value === 'object' && 'request' in value) return 'ndjson'
    } catch {
      // Not one object per line.
    }
    return 'har'
  } finally {
    await handle.close()
  }
}

/** The base path of the API in a URL: the path up to and including its `/v1` segment. */
export function basePathOf(url: string): string | undefined {
  try {
    return /^(.*?\/v1)(?:\/|$)/.exec(new URL(url).pathname)?.[1]
  } catch {
    return undefined
  }
}

async function* exchangesOf(file: string, format: TrafficFormat, firstSeq: number): AsyncGenerator<TrafficExchange> {
  const label = basename(file)
  yield* format === 'ndjson' ? readNdjson(file, { label, firstSeq }) : readHar(file, { label, firstSeq, zip: format === 'har-zip' })
}

/**
 * --jobs when not given: one thread. Each HAR entry is now parsed whole once in the process (the reader parses only
 * its request to route it), and on the realistic bench traffic two threads cost ~1.15x the CPU of one, split
 * 1.4 + 1.6 s against 2.6 s, but the reading thread's scan and routing stay serial and a second heap's collection
 * and compilation run on helper threads besides (process CPU ~1.2x), so on 2 cores two threads measured slower in
 * wall time at load 5-6 (docs/performance.md): more threads are asked for, never assumed. Where they pay: idle cores,
 * more cores than two, traffic of many keys and collections, --shard.
 */
const DEFAULT_JOBS = 1

/**
 * Every file's exchanges, in the order given, with the text each was read from (jobs.ts ReadUnit); `light`: without
 * their bodies (workers read them from the text). A file that cannot be read ends them with an Unreadable naming it.
 */
async function* allUnits(files: string[], formats: TrafficFormat[], light: boolean): AsyncGenerator<ReadUnit> {
  for (const [i, file] of files.entries()) {
    const format = formats[i]!
    const label = basename(file)
    try {
      if (format === 'ndjson') for await (const unit of readNdjsonUnits(file, { label })) yield { ...unit, format: 'ndjson' }
      else for await (const unit of readHarUnits(file, { label, zip: format === 'har-zip', light })) yield { ...unit, format: 'har' }
    } catch (error) {
      throw new Unreadable(error instanceof TrafficFileError ? error.message : `${file}: ${(error as Error).message}`)
    }
  }
}

class Unreadable extends Error {}

export async function verifyTrafficCommand(options: VerifyTrafficOptions): Promise<VerifyTrafficOutcome> {
  // Paths, decoded query values and parse errors that quote a line come from the traffic: printed inert (src/text/printable.ts).
  const rawWrite = options.write ?? ((text: string) => process.stdout.write(text))
  const write = (text: string) => rawWrite(printable(text))
  const failOn = options.failOn ?? 'must'
  const formats: TrafficFormat[] = []
  for (const file of options.files) {
    try {
      await access(file, constants.R_OK)
      formats.push(await detectFormat(file))
    } catch (error) {
      write(`verify-traffic: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}\n`)
      return { exitCode: 2, exchanges: 0 }
    }
  }
  const config: ResolvedConfig = loadConfig(options.env ?? process.env, {})
  // The base path is read from the first exchange when not given, so the verifier needs it before it starts.
  let basePath = options.basePath
  basePath ??= await firstBasePath(options.files, formats)
  const rules = options.rules ?? (options.rulesModule ? ((await import(options.rulesModule)) as { rules: TrafficRule[] }).rules : TRAFFIC_RULES)
  // Rules given as objects, and timing each rule, stay on this thread.
  const inline = (options.rules !== undefined && !options.rulesModule) || options.ruleTimes !== undefined
  const jobs = inline ? 1 : (options.jobs ?? DEFAULT_JOBS)
  const session = new TrafficSession({ basePath, failOn, config, rules })
  const judgeWith = (jobs: number) =>
    judgeExchanges({
      exchanges: allUnits(options.files, formats, jobs > 1),
      basePath,
      config,
      rules,
      jobs,
      ...(options.rulesModule ? { rulesModule: options.rulesModule } : {}),
      ...(options.shard ? { shard: options.shard } : {}),
      ...(options.ruleTimes ? { ruleTimes: options.ruleTimes } : {}),
      onProblem: (line) => write(`${line}\n`),
    })
  let judged = await judgeWith(jobs)
  // A worker met an entry it could not read whole, which the reader (reading requests only) had passed: one thread
  // reads the files again and stops there, as it would have from the start (a broken file is rare; twice the time then).
  if (judged.unreadableInWorker !== undefined) judged = await judgeWith(1)
  let unreadable: string | undefined
  if (judged.readError) {
    unreadable = judged.readError.message
    write(`verify-traffic: cannot read ${unreadable}\n`)
  }
  const rows = judged.tallies.map((tally, i) => rowOf(rules[i]!, tally))
  const shard = options.shard
  const replay = `crm-conformance verify-traffic ${options.files.join(' ')} --base-path ${basePath}${failOn === 'should' ? ' --fail-on should' : ''}${shard ? ` --shard ${shard.index + 1}/${shard.count}` : ''}`
  const { report, reportDir, exitCode } = await session.writeReport(rows, {
    source: 'files',
    files: options.files,
    targetUrl: `(recorded traffic) ${basePath}`,
    replay,
    counts: { exchanges: judged.exchanges, answered: judged.answered },
    ...(options.reportDir ? { reportDir: options.reportDir } : {}),
    ...(unreadable ? { interrupted: { reason: `a file could not be read: ${unreadable}`, at: new Date().toISOString() } } : {}),
    ...(judged.notJudged ? { notJudged: { ...judged.notJudged, verb: 'read' as const, always: true } } : {}),
    ...(shard
      ? {
          shard: {
            index: shard.index,
            count: shard.count,
            ruleSet: ruleSetDigest(rules),
            tallies: judged.tallies.map((t, i) => ({
              id: t.id,
              side: rules[i]!.side,
              judged: t.judged,
              violations: t.violations,
              ...(t.first ? { first: t.first } : {}),
              evidenceAt: t.evidence.map((e) => e.at),
            })),
            ...(judged.notJudged ? { notJudged: judged.notJudged } : {}),
          },
        }
      : {}),
  })
  for (const row of report.checks)
    if (row.status === 'failed') write(`${row.level} ${row.id} (${row.clause}) ${(row as { side?: string }).side ?? ''}: ${row.message}\n`)
  write(`${report.verdictLabel}\nreports: ${quotedPath(reportDir)}\n`)
  return {
    exitCode: unreadable || judged.notJudged ? 2 : exitCode,
    reportDir,
    exchanges: judged.exchanges,
    ...(judged.threadCpuMs ? { threadCpuMs: judged.threadCpuMs } : {}),
  }
}

/** Exchanges looked at to find the base path: traffic of another API before the first call of this one is rare. */
const BASE_PATH_PROBE = 100

async function firstBasePath(files: string[], formats: TrafficFormat[]): Promise<string> {
  for (const [i, file] of files.entries()) {
    try {
      let seen = 0
      for await (const exchange of exchangesOf(file, formats[i]!, 1)) {
        const found = basePathOf(exchange.request.url)
        if (found !== undefined) return found
        if (++seen >= BASE_PATH_PROBE) break
      }
    } catch {
      // An unreadable file is reported by the verification itself.
    }
  }
  return '/v1'
}
