// The plan of `npm run mutate` (scripts/mutate.ts), pure and cheap: its arguments, the files they name, and
// which of Stryker's mutants to run. Stryker takes the plan as `mutate` ranges (`file:line:col-line:col`), and a
// range brings every mutant inside it, so a sampled mutant is taken only with the mutants nested in it and
// while the total stays within the sample. Mutants on a line that plays a fault of src/reference/faults.ts are
// never run: turning a switch on only replays a fault the self-validation already proves (issue 25, item 3).
import { parseArgs } from 'node:util'

/** The reference server's request handling: lists and filters, writes and validation, the gate, idempotency, webhooks. */
export const DEFAULT_FILES = [
  'src/reference/pagination.ts',
  'src/reference/validation.ts',
  'src/reference/auth.ts',
  'src/reference/rate-limit.ts',
  'src/reference/idempotency.ts',
  'src/reference/webhooks.ts',
  'src/reference/routes/gate.ts',
  'src/reference/routes/request.ts',
  'src/reference/routes/reads.ts',
  'src/reference/routes/writes.ts',
  'src/reference/routes/responses.ts',
]

export interface MutateArgs {
  /** Globs of files under the project (`*` within a folder, `**` across folders). */
  files: string[]
  /** Run at most this many mutants; undefined: all of them. */
  sample?: number
  seed: number
  /** `--only` of the suite run each mutant gets (areas, ids, clauses); empty: the whole suite. */
  only: string[]
  concurrency: number
  /** Print the plan and stop. */
  dryRun: boolean
  /** Where the markdown report goes; undefined: see reportPaths. */
  report?: string
}

/**
 * Where a run's reports go: `--report` wins; a run with `--only` writes its own (`--only explore`:
 * reports/mutation-stryker-explore.md and reports/stryker-explore/), so it never overwrites the whole suite's
 * reports/mutation-stryker.md and reports/stryker/. Paths relative to the project root.
 */
export function reportPaths(args: Pick<MutateArgs, 'only' | 'report'>): { markdown: string; strykerDir: string } {
  const slug = args.only.map((o) => o.replace(/[^A-Za-z0-9_.-]+/g, '-')).join('+')
  const suffix = slug === '' ? '' : `-${slug}`
  return { markdown: args.report ?? `reports/mutation-stryker${suffix}.md`, strykerDir: `reports/stryker${suffix}` }
}

/**
 * The command Stryker runs per mutant in its sandbox: the embedded suite (or `--only`) at the run's seed, through
 * scripts/mutate-model.mjs, so the explorer's model is the unmutated reference server of `root` and only the
 * target carries the mutant.
 */
export function mutantCommand(root: string, args: Pick<MutateArgs, 'only' | 'seed'>): string {
  const only = args.only.length > 0 ? ` --only ${args.only.join(',')}` : ''
  return `node scripts/mutate-model.mjs ${JSON.stringify(root)} run --embedded --quiet --no-sweep --report-dir .stryker-run --seed ${args.seed}${only}`
}

const list = (values: string[] | undefined) =>
  (values ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean)

function positive(name: string, value: string | undefined, fallback: number | undefined): number | undefined {
  if (value === undefined) return fallback
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, not ${JSON.stringify(value)}`)
  return n
}

export function parseMutateArgs(argv: string[]): MutateArgs {
  const { values } = parseArgs({
    args: argv,
    options: {
      files: { type: 'string', multiple: true },
      sample: { type: 'string' },
      seed: { type: 'string' },
      only: { type: 'string', multiple: true },
      concurrency: { type: 'string' },
      'dry-run': { type: 'boolean' },
      report: { type: 'string' },
    },
    strict: true,
  })
  const files = list(values.files)
  return {
    files: files.length > 0 ? files : DEFAULT_FILES,
    sample: positive('--sample', values.sample, undefined),
    seed: values.seed === undefined ? 1 : positive('--seed', values.seed, 1)!,
    only: list(values.only),
    concurrency: positive('--concurrency', values.concurrency, 1)!,
    dryRun: values['dry-run'] ?? false,
    report: values.report,
  }
}

export function globToRegExp(glob: string): RegExp {
  let out = ''
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]
    if (ch === '*' && glob[i + 1] === '*') {
      out += '.*'
      i++
      if (glob[i + 1] === '/') i++
    } else if (ch === '*') out += '[^/]*'
    else out += ch.replace(/[.+?^${}()|[\]\\]/g, '\\$&')
  }
  return new RegExp(`^${out}$`)
}

/** The project's files the globs name, in the globs' order, each once. */
export function matchFiles(globs: string[], projectFiles: string[]): string[] {
  const out: string[] = []
  for (const glob of globs) {
    const re = globToRegExp(glob)
    for (const f of projectFiles) if (re.test(f) && !out.includes(f)) out.push(f)
  }
  return out
}

export interface Position {
  line: number
  column: number
}

/** A mutant as Stryker's instrumenter reports it: 0-based lines and columns. */
export interface PlannedMutant {
  id: string
  fileName: string
  mutatorName: string
  replacement: string
  location: { start: Position; end: Position }
}

const before = (a: Position, b: Position) => a.line < b.line || (a.line === b.line && a.column <= b.column)
/** Stryker's `locationIncluded`: the range holds the mutant's node. */
export const includes = (outer: PlannedMutant['location'], inner: PlannedMutant['location']) => before(outer.start, inner.start) && before(inner.end, outer.end)

/** A small seeded generator (mulberry32): the same seed picks the same sample. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export interface Plan {
  /** Stryker `mutate` entries. */
  ranges: string[]
  /** The mutants those ranges bring, each once. */
  mutants: PlannedMutant[]
  /** Mutants left out because they touch a fault switch. */
  faultMutants: number
  total: number
}

/**
 * `excluded(m)`: a mutant never to run (a fault switch). Candidates are taken in a seeded random order; each
 * brings the mutants its range holds, and is skipped when that would run an excluded one or pass the sample.
 */
export function planMutants(all: PlannedMutant[], options: { sample?: number; seed: number; excluded: (m: PlannedMutant) => boolean }): Plan {
  const random = seededRandom(options.seed)
  const order = all.map((m) => ({ m, key: random() })).sort((a, b) => a.key - b.key)
  const chosen = new Set<string>()
  const ranges: string[] = []
  const limit = options.sample ?? Number.POSITIVE_INFINITY
  // A sample spreads over the files: a range that brings many mutants at once (a regex, a whole block) is left out.
  const widest = options.sample === undefined ? Number.POSITIVE_INFINITY : Math.max(4, Math.ceil(options.sample / 8))
  for (const { m } of order) {
    if (chosen.has(m.id) || options.excluded(m)) continue
    const brought = all.filter((x) => x.fileName === m.fileName && includes(m.location, x.location))
    if (brought.some(options.excluded)) continue
    const fresh = brought.filter((x) => !chosen.has(x.id))
    if (fresh.length > widest || chosen.size + fresh.length > limit) continue
    for (const x of fresh) chosen.add(x.id)
    const { start, end } = m.location
    ranges.push(`${m.fileName}:${start.line + 1}:${start.column}-${end.line + 1}:${end.column}`)
    if (chosen.size >= limit) break
  }
  return {
    ranges,
    mutants: all.filter((m) => chosen.has(m.id)),
    faultMutants: all.filter(options.excluded).length,
    total: all.length,
  }
}

/**
 * The mutants never to run: those whose first line names a fault (a switch, a `*_FAULTS` list, a fault id), and
 * every mutant inside the block such a line opens (`if (faults['…']) { … }`) or the body of a function whose
 * comment names a fault: code that runs only with the fault on, dead in a clean run, where every mutant is
 * equivalent.
 */
export function faultExclusion(all: PlannedMutant[], linesOf: (fileName: string) => string[], faultIds: readonly string[]): (m: PlannedMutant) => boolean {
  const onFaultLine = (m: PlannedMutant) => {
    const line = linesOf(m.fileName)[m.location.start.line] ?? ''
    return /fault/i.test(line) || faultIds.some((id) => line.includes(`'${id}'`))
  }
  // A function only a fault calls says so in the comment line above it (`/** The \`x\` fault: … */`).
  const saysFaultAbove = (m: PlannedMutant) => /^\s*(\/\/|\/\*\*?|\*).*\bfault\b/i.test(linesOf(m.fileName)[m.location.start.line - 1] ?? '')
  const regions = all.filter((m) => m.mutatorName === 'BlockStatement' && (onFaultLine(m) || saysFaultAbove(m)))
  return (m) => onFaultLine(m) || regions.some((r) => r.fileName === m.fileName && includes(r.location, m.location))
}
