// scripts/mutate-plan.ts: the arguments of `npm run mutate` and the sample it takes. Stryker itself never runs here.
import { describe, expect, it } from 'vitest'
import {
  DEFAULT_FILES,
  globToRegExp,
  matchFiles,
  mutantCommand,
  parseMutateArgs,
  planMutants,
  faultExclusion,
  reportPaths,
  type PlannedMutant,
} from '../scripts/mutate-plan.ts'

const at = (id: string, line: number, from: number, to: number, fileName = 'src/reference/a.ts'): PlannedMutant => ({
  id,
  fileName,
  mutatorName: 'ConditionalExpression',
  replacement: 'true',
  location: { start: { line, column: from }, end: { line, column: to } },
})

describe('npm run mutate: arguments', () => {
  it('defaults to the request handling of the reference server, all mutants, seed 1, concurrency 1', () => {
    expect(parseMutateArgs([])).toEqual({ files: DEFAULT_FILES, sample: undefined, seed: 1, only: [], concurrency: 1, dryRun: false, report: undefined })
  })

  it('takes --files and --only repeated or comma-separated, --sample, --seed and --dry-run', () => {
    const args = parseMutateArgs([
      '--files',
      'src/reference/auth.ts,src/reference/routes/*.ts',
      '--files',
      'x.ts',
      '--sample',
      '40',
      '--seed',
      '9',
      '--only',
      'filters,pagination',
      '--dry-run',
    ])
    expect(args).toMatchObject({
      files: ['src/reference/auth.ts', 'src/reference/routes/*.ts', 'x.ts'],
      sample: 40,
      seed: 9,
      only: ['filters', 'pagination'],
      dryRun: true,
    })
  })

  it('`npm run mutate -- --only explore …` as typed writes its own report and keeps the model unmutated', () => {
    const typed = 'npm run mutate -- --files src/reference/pagination.ts,src/reference/store.ts --only explore --sample 120'
    const args = parseMutateArgs(typed.split(' ').slice(typed.split(' ').indexOf('--') + 1))
    expect(reportPaths(args)).toEqual({ markdown: 'reports/mutation-stryker-explore.md', strykerDir: 'reports/stryker-explore' })
    expect(mutantCommand('/p', args)).toBe(
      'node scripts/mutate-model.mjs "/p" run --embedded --quiet --no-sweep --report-dir .stryker-run --seed 1 --only explore',
    )
    // The whole suite keeps its report; --report wins over both.
    expect(reportPaths(parseMutateArgs([]))).toEqual({ markdown: 'reports/mutation-stryker.md', strykerDir: 'reports/stryker' })
    expect(reportPaths(parseMutateArgs(['--only', 'explore', '--report', 'x.md'])).markdown).toBe('x.md')
  })

  it('refuses a sample that is not a positive integer and an unknown flag', () => {
    expect(() => parseMutateArgs(['--sample', '0'])).toThrow('--sample must be a positive integer')
    expect(() => parseMutateArgs(['--sample', 'many'])).toThrow('--sample')
    expect(() => parseMutateArgs(['--smaple', '3'])).toThrow()
  })

  it('matches globs: * within a folder, ** across folders', () => {
    expect(globToRegExp('src/reference/*.ts').test('src/reference/routes/gate.ts')).toBe(false)
    const files = ['src/reference/auth.ts', 'src/reference/routes/gate.ts', 'src/http/pacer.ts']
    expect(matchFiles(['src/reference/**/*.ts'], files)).toEqual(['src/reference/auth.ts', 'src/reference/routes/gate.ts'])
    expect(matchFiles(['src/reference/routes/*.ts', 'src/**/*.ts'], files)).toEqual([
      'src/reference/routes/gate.ts',
      'src/reference/auth.ts',
      'src/http/pacer.ts',
    ])
  })
})

describe('npm run mutate: the sample', () => {
  const all = [at('1', 3, 0, 40), at('2', 3, 4, 10), at('3', 3, 4, 10), at('4', 5, 0, 9), at('5', 7, 0, 9), at('6', 9, 0, 9)]
  const none = () => false

  it('runs every mutant without a sample, each once, with one range per candidate taken', () => {
    const plan = planMutants(all, { seed: 1, excluded: none })
    expect(plan.mutants.map((m) => m.id).sort()).toEqual(['1', '2', '3', '4', '5', '6'])
    expect(plan.ranges.every((r) => /^src\/reference\/a\.ts:\d+:\d+-\d+:\d+$/.test(r))).toBe(true)
  })

  it('stays within the sample, counting the mutants a range brings along, and is the same for the same seed', () => {
    for (let seed = 1; seed < 30; seed++) {
      const plan = planMutants(all, { sample: 3, seed, excluded: none })
      expect(plan.mutants.length).toBeLessThanOrEqual(3)
      expect(plan.mutants.length).toBeGreaterThan(0)
      // A range from line 3 col 0 to col 40 brings mutants 2 and 3: either all three run, or 1 is not taken.
      if (plan.mutants.some((m) => m.id === '1')) expect(plan.mutants.filter((m) => m.fileName && ['2', '3'].includes(m.id))).toHaveLength(2)
      expect(planMutants(all, { sample: 3, seed, excluded: none })).toEqual(plan)
    }
  })

  it('never runs a mutant on a fault switch, nor a range that would bring one', () => {
    const source = ['', '', '', "  if (faults['pagination.limit-uncapped']) x()", '', 'ok()', '', 'ok()', '', 'ok()']
    const excluded = faultExclusion(all, () => source, ['pagination.limit-uncapped'])
    const plan = planMutants(all, { seed: 3, excluded })
    expect(plan.faultMutants).toBe(3)
    expect(plan.mutants.map((m) => m.id).sort()).toEqual(['4', '5', '6'])
  })

  it('never runs a mutant inside the block a fault switch opens (dead code in a clean run)', () => {
    const source = ['', "if (faults['x.y']) {", '  a()', '}', 'b()']
    const block = { ...at('b', 1, 18, 1), mutatorName: 'BlockStatement', location: { start: { line: 1, column: 18 }, end: { line: 3, column: 1 } } }
    const mutants = [block, at('in', 2, 2, 5), at('out', 4, 0, 3)]
    const excluded = faultExclusion(mutants, () => source, ['x.y'])
    expect(mutants.filter(excluded).map((m) => m.id)).toEqual(['b', 'in'])
    const helper = ['/** The `validation.types-coerced` fault: numbers become strings. */', 'function coerce(body) {', '  a()', '}', 'b()']
    const body = { ...block, id: 'body', location: { start: { line: 1, column: 23 }, end: { line: 3, column: 1 } } }
    const inHelper = [body, at('in', 2, 2, 5), at('out', 4, 0, 3)]
    expect(inHelper.filter(faultExclusion(inHelper, () => helper, [])).map((m) => m.id)).toEqual(['body', 'in'])
  })
})
