// npm run mutate [-- --files <globs>] [--sample N] [--seed S] [--only <areas>] [--concurrency N] [--dry-run] [--report <file.md>]
// Automatic mutation testing of the suite (issue 25, item 3): StrykerJS mutates the embedded reference server's
// request handling in a sandbox copy and runs the suite against each mutant (stryker.config.mjs); a mutant the
// suite does not fail survived, and is either a real behaviour change no check judges or an equivalent one.
// Prints killed, survived and timed-out mutants and the score, and writes reports/mutation-stryker.md (the text
// under its classification marker is kept from run to run) and Stryker's html/json in reports/stryker/; a run
// with --only writes its own (reports/mutation-stryker-<only>.md, reports/stryker-<only>/). The explorer's model
// stays the unmutated reference server (scripts/mutate-model.mjs).
// A benchmark, not part of CI: on 2 shared cores run it with `nice -n 19` and a small --sample.
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { Instrumenter } from '@stryker-mutator/instrumenter'
import { Stryker } from '@stryker-mutator/core'
import type { MutantResult } from '@stryker-mutator/api/core'
import { FAULTS } from '../src/reference/faults.ts'
import { faultExclusion, matchFiles, mutantCommand, parseMutateArgs, planMutants, reportPaths, type PlannedMutant } from './mutate-plan.ts'

const ROOT = resolve(import.meta.dirname, '..')
const MARKER = '<!-- classification: kept by scripts/mutate.ts -->'

function projectFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name)
    if (e.isDirectory()) return projectFiles(path)
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [relative(ROOT, path).split(sep).join('/')] : []
  })
}

const silent: ConstructorParameters<typeof Instrumenter>[0] = {
  isTraceEnabled: () => false,
  isDebugEnabled: () => false,
  isInfoEnabled: () => false,
  isWarnEnabled: () => false,
  isErrorEnabled: () => true,
  isFatalEnabled: () => true,
  trace() {},
  debug() {},
  info() {},
  warn() {},
  error: (...args: unknown[]) => console.error(...args),
  fatal: (...args: unknown[]) => console.error(...args),
}

/** Every mutant Stryker would make in these files (its own instrumenter, its default mutators). */
async function enumerate(files: string[]): Promise<PlannedMutant[]> {
  const instrumenter = new Instrumenter(silent)
  const result = await instrumenter.instrument(
    files.map((name) => ({ name, content: readFileSync(join(ROOT, name), 'utf8'), mutate: true })),
    { plugins: null, excludedMutations: [], ignorers: [] },
  )
  return result.mutants.map((m) => ({
    id: m.id,
    fileName: relative(ROOT, resolve(ROOT, m.fileName)).split(sep).join('/'),
    mutatorName: m.mutatorName,
    replacement: m.replacement,
    location: m.location,
  }))
}

const lines = new Map<string, string[]>()
const linesOf = (file: string) => {
  if (!lines.has(file)) lines.set(file, readFileSync(join(ROOT, file), 'utf8').split('\n'))
  return lines.get(file)!
}

function originalText(file: string, loc: PlannedMutant['location']): string {
  const src = linesOf(file)
  const text =
    loc.start.line === loc.end.line
      ? src[loc.start.line].slice(loc.start.column, loc.end.column)
      : [src[loc.start.line].slice(loc.start.column), ...src.slice(loc.start.line + 1, loc.end.line), src[loc.end.line].slice(0, loc.end.column)].join('\n')
  return text.replace(/\s+/g, ' ').trim()
}

const clip = (s: string, n = 90) => (s.length > n ? `${s.slice(0, n - 1)}…` : s)

async function main(): Promise<void> {
  const args = parseMutateArgs(process.argv.slice(2))
  const paths = reportPaths(args)
  const REPORT = resolve(ROOT, paths.markdown)
  const files = matchFiles(args.files, projectFiles(join(ROOT, 'src')))
  if (files.length === 0) throw new Error(`--files ${args.files.join(',')} names no file under src/`)
  const all = await enumerate(files)
  const plan = planMutants(all, {
    sample: args.sample,
    seed: args.seed,
    excluded: faultExclusion(
      all,
      linesOf,
      FAULTS.map((f) => f.id),
    ),
  })
  const command = mutantCommand(ROOT, args)
  console.log(
    `${files.length} files, ${plan.total} mutants (${plan.faultMutants} on fault switches left out); running ${plan.mutants.length}${args.sample ? ` (sample ${args.sample}, seed ${args.seed})` : ''}, concurrency ${args.concurrency}`,
  )
  if (args.dryRun) {
    for (const m of plan.mutants)
      console.log(
        `  ${m.fileName}:${m.location.start.line + 1}:${m.location.start.column + 1} ${m.mutatorName}: ${clip(originalText(m.fileName, m.location))} → ${clip(m.replacement)}`,
      )
    return
  }
  if (plan.ranges.length === 0) throw new Error('nothing to mutate')

  const startedAt = new Date()
  const results: MutantResult[] = await new Stryker({
    mutate: plan.ranges,
    concurrency: args.concurrency,
    commandRunner: { command },
    htmlReporter: { fileName: `${paths.strykerDir}/mutation.html` },
    jsonReporter: { fileName: `${paths.strykerDir}/mutation.json` },
  }).runMutationTest()

  const count = (status: string) => results.filter((r) => r.status === status).length
  const killed = count('Killed')
  const survived = count('Survived')
  const timedOut = count('Timeout')
  const noCoverage = count('NoCoverage')
  const errors = count('RuntimeError') + count('CompileError')
  const detected = killed + timedOut
  const score = detected + survived + noCoverage === 0 ? 0 : detected / (detected + survived + noCoverage)
  const survivors = results.filter((r) => r.status === 'Survived' || r.status === 'NoCoverage')
  const where = (r: MutantResult) => {
    const file = relative(ROOT, resolve(ROOT, r.fileName)).split(sep).join('/')
    return { file, at: `${file}:${r.location.start.line}:${r.location.start.column}` }
  }
  // Stryker's results are 1-based (mutation-testing-report-schema); the source slice wants 0-based lines.
  const original = (r: MutantResult) =>
    originalText(where(r).file, {
      start: { line: r.location.start.line - 1, column: r.location.start.column - 1 },
      end: { line: r.location.end.line - 1, column: r.location.end.column - 1 },
    })

  console.log(`\nkilled ${killed}, survived ${survived}, timed out ${timedOut}, no coverage ${noCoverage}, errors ${errors}`)
  console.log(`mutation score ${(score * 100).toFixed(1)}% (killed + timed out, of those that ran to a verdict)`)
  for (const r of survivors) console.log(`  survived ${where(r).at} ${r.mutatorName}: ${clip(original(r))} → ${clip(r.replacement ?? '')}`)

  const kept = existsSync(REPORT) && readFileSync(REPORT, 'utf8').includes(MARKER) ? readFileSync(REPORT, 'utf8').split(MARKER)[1] : '\n\n(none yet)\n'
  const md = [
    '# Mutation testing with StrykerJS (`npm run mutate`)',
    '',
    'Each mutant is one automatic change to the embedded reference server; the whole suite (or `--only`) runs against it, and a non-compliant verdict kills it. A surviving mutant is a change of behaviour no check judges, or an equivalent one. Mutants on lines that play a fault of `src/reference/faults.ts` are left out (they only replay known faults).',
    '',
    `- Date: ${startedAt.toISOString().slice(0, 10)} (${Math.round((Date.now() - startedAt.getTime()) / 1000)} s)`,
    `- Files: ${files.map((f) => `\`${f}\``).join(', ')}`,
    `- Mutants: ${plan.total} in these files, ${plan.faultMutants} on fault switches left out; ${results.length} run${args.sample ? ` (sample ${args.sample}, seed ${args.seed})` : ''}`,
    `- Command per mutant: \`${command.replace(JSON.stringify(ROOT), '<project root>')}\``,
    '',
    '| killed | survived | timed out | no coverage | errors | score |',
    '|---:|---:|---:|---:|---:|---:|',
    `| ${killed} | ${survived} | ${timedOut} | ${noCoverage} | ${errors} | ${(score * 100).toFixed(1)}% |`,
    '',
    '## Survivors',
    '',
    ...(survivors.length === 0
      ? ['None.']
      : survivors.map((r) => `- \`${where(r).at}\` ${r.mutatorName}: \`${clip(original(r))}\` → \`${clip(r.replacement ?? '')}\``)),
    '',
    '## Classification of the survivors',
    '',
    MARKER + kept.replace(/^\n*/, '\n\n'),
  ].join('\n')
  mkdirSync(dirname(REPORT), { recursive: true })
  writeFileSync(REPORT, md)
  console.log(`\nwrote ${relative(ROOT, REPORT)} and ${paths.strykerDir}/mutation.html`)
}

await main()
