// `verify-traffic --jobs N`, `--shard K/N` and `merge-reports <dirs…> --report-dir <dir>` as people type them,
// spawned: the merged report (every file) and the jobs' report say what the whole says; shards that do not make
// one whole are refused in one line (exit 2); a worker that crashes is reported and the report still written.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { gunzipSync } from 'node:zlib'
import { afterAll, describe, expect, it } from 'vitest'
import { REPORT_FILES } from '../../src/report/write.ts'
import { ndjsonLine, readNdjson } from '../../src/traffic/ndjson.ts'
import { verifyTrafficCommand } from '../../src/traffic/verify-command.ts'
import { buildProgram } from '../../src/cli/main.ts'
import { ROOT, runCli } from '../hostile/cli.ts'

const dir = mkdtempSync(join(tmpdir(), 'crmconf-shards-cli-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// Two faults' traffic one after the other: a key rule (scopes) and a collection rule (read after write) break.
const traffic = join(dir, 'traffic.ndjson')
writeFileSync(
  traffic,
  ['auth.scopes-ignored', 'records.change-not-persisted']
    .map((f) => gunzipSync(readFileSync(join(import.meta.dirname, 'fixtures', 'shards', `${f}.ndjson.gz`))).toString('utf8'))
    .join(''),
)

const cli = (...args: string[]) => runCli(args, { cwd: dir, hardLimitMs: 60_000 })
const report = (name: string) => JSON.parse(readFileSync(join(dir, name, 'report.json'), 'utf8'))

/** What a reader of the report sees of the verdict: label, counts, and each row's outcome and evidence. */
function verdictOf(name: string) {
  const r = report(name)
  return {
    verdict: r.verdict,
    label: r.verdictLabel,
    reasons: r.verdictReasons,
    exchanges: r.traffic.exchanges,
    answered: r.traffic.answered,
    violations: r.traffic.violations,
    rows: r.checks.map((c: Record<string, unknown>) => [c.id, c.status, c.judged, c.violations, c.message, c.side, c.evidence]),
  }
}

describe('verify-traffic --jobs and --shard, merge-reports', () => {
  it('--jobs 2 and the three shards merged report what the whole does, in every report file', async () => {
    // The whole, and two of the shards, judged in this process (fewer processes started); the lines under test spawned.
    const printed: string[] = []
    const whole = await verifyTrafficCommand({ files: [traffic], jobs: 1, reportDir: join(dir, 'whole'), env: {}, write: (t) => void printed.push(t) })
    expect(whole.exitCode, printed.join('')).toBe(1)
    expect(printed.join('')).toMatch(/traffic\.auth\.scope-enforced/)
    expect(printed.join('')).toMatch(/traffic\.records\.read-after-write/)

    const jobs = await cli('verify-traffic', traffic, '--jobs', '2', '--report-dir', join(dir, 'jobs'))
    expect(jobs.code).toBe(1)
    expect(verdictOf('jobs')).toEqual(verdictOf('whole'))

    // Shard 2/3 as typed, judged by two threads (shards and jobs combine); 1/3 and 3/3 in this process.
    const shard = await cli('verify-traffic', traffic, '--shard', '2/3', '--jobs', '2', '--report-dir', join(dir, 's2'))
    expect(shard.code, shard.stdout + shard.stderr).not.toBe(2)
    expect(shard.stdout).toMatch(/shard 2\/3 only/)
    for (const index of [0, 2])
      expect(
        (await verifyTrafficCommand({ files: [traffic], jobs: 1, shard: { index, count: 3 }, reportDir: join(dir, `s${index + 1}`), env: {}, write: () => {} }))
          .exitCode,
      ).not.toBe(2)
    for (const k of [1, 2, 3]) expect(report(`s${k}`).traffic.shard).toMatchObject({ index: k - 1, count: 3 })
    const merged = await cli('merge-reports', join(dir, 's3'), join(dir, 's1'), join(dir, 's2'), '--report-dir', join(dir, 'merged'))
    expect(merged.code, merged.stdout + merged.stderr).toBe(whole.exitCode)
    expect(merged.stdout).toMatch(/merged 3 shards/)
    const { label, ...rest } = verdictOf('merged')
    const { label: wholeLabel, ...wholeRest } = verdictOf('whole')
    expect(rest).toEqual(wholeRest)
    expect(label).toBe(wholeLabel)
    for (const file of REPORT_FILES) expect(existsSync(join(dir, 'merged', file)), file).toBe(true)
    const junit = (name: string) => (readFileSync(join(dir, name, 'junit.xml'), 'utf8').match(/<failure /g) ?? []).length
    expect(junit('merged')).toBe(junit('whole'))
    expect(readFileSync(join(dir, 'merged', 'summary.md'), 'utf8')).toMatch(/scope-enforced/)
  }, 180_000)

  it('refuses shards that do not make one whole, in one line, exit 2', async () => {
    const refused = async (args: string[], why: RegExp) => {
      const run = await cli('merge-reports', ...args.map((a) => join(dir, a)), '--report-dir', join(dir, 'refused'))
      expect(run.code).toBe(2)
      expect(run.stdout.trim().split('\n')).toHaveLength(1)
      expect(run.stdout).toMatch(why)
      expect(existsSync(join(dir, 'refused', 'report.json'))).toBe(false)
    }
    await refused(['s1', 's2'], /refused: shard 3\/3 missing/)
    await refused(['s1', 's2', 's2', 's3'], /both shard 2\/3/)
    await refused(['s1', 's2', 'whole'], /not a shard's report/)
    expect(
      (await verifyTrafficCommand({ files: [traffic], jobs: 1, shard: { index: 0, count: 2 }, reportDir: join(dir, 'half'), env: {}, write: () => {} }))
        .exitCode,
    ).toBe(1)
    await refused(['half', 's2', 's3'], /differ in shard count/)
    // Another suite version, another rule set.
    for (const [name, edit, why] of [
      ['other-version', (r: { tool: { version: string } }) => (r.tool.version = '0.0.1'), /differ in suite version/],
      ['other-rules', (r: { traffic: { shard: { ruleSet: string } } }) => (r.traffic.shard.ruleSet = 'f00d'), /differ in rule set/],
    ] as const) {
      const r = report('s1')
      ;(edit as (r: unknown) => void)(r)
      rmSync(join(dir, name), { recursive: true, force: true })
      await import('node:fs').then((fs) => fs.mkdirSync(join(dir, name)))
      writeFileSync(join(dir, name, 'report.json'), JSON.stringify(r))
      await refused([name, 's2', 's3'], why)
    }
  }, 120_000)

  it('refuses a shard or a job count that is none', async () => {
    const badShard = await cli('verify-traffic', traffic, '--shard', '4/3')
    expect(badShard.code).toBe(2)
    expect(badShard.stderr).toMatch(/--shard takes K\/N with 1 ≤ K ≤ N/)
    const badJobs = await cli('verify-traffic', traffic, '--jobs', '0')
    expect(badJobs.code).toBe(2)
    expect(badJobs.stderr).toMatch(/--jobs takes a whole number/)
    const noDir = await cli('merge-reports', join(dir, 's1'))
    expect(noDir.code).toBe(2)
    expect(noDir.stderr).toMatch(/--report-dir/)
  }, 60_000)

  it('reports a worker that crashes, and still writes the report (never compliant, exit 2)', async () => {
    // The test rules' module ends its thread on an exchange marked x-test-crash (judge-rules.ts); its rule declares
    // no memory, so it is judged whole, by the worker (the reading thread judges the other job).
    const crashing = join(dir, 'crash.ndjson')
    const lines: string[] = []
    for await (const exchange of readNdjson(traffic)) lines.push(ndjsonLine(exchange))
    const marked = JSON.parse(lines[5]!)
    marked.request.headers['x-test-crash'] = '1'
    lines[5] = `${JSON.stringify(marked)}\n`
    writeFileSync(crashing, lines.join(''))
    const printed: string[] = []
    const outcome = await verifyTrafficCommand({
      files: [crashing],
      reportDir: join(dir, 'crashed'),
      jobs: 2,
      env: {},
      rulesModule: pathToFileURL(join(import.meta.dirname, 'judge-rules.ts')).href,
      write: (text) => void printed.push(text),
    })
    expect(outcome.exitCode).toBe(2)
    expect(printed.join('')).toMatch(/worker 1 of 1 stopped \(exit code 7\)/)
    const written = report('crashed')
    expect(written.verdict).not.toBe('compliant')
    expect(written.verdictReasons.join('\n')).toMatch(/exchanges? read but not in this report: worker 1 of 1 stopped/)
    // What the other worker judged is kept.
    expect(written.checks.some((c: { status: string }) => c.status !== 'skipped')).toBe(true)
  }, 60_000)

  it("docs/traffic.md's commands and CI jobs use only commands and options the CLI knows", () => {
    const doc = readFileSync(join(ROOT, 'docs', 'traffic.md'), 'utf8')
    const program = buildProgram(() => {})
    const invocations = [...doc.matchAll(/crm-conformance(?:\.mjs"?)? (verify-traffic|merge-reports)([^\n`]*)/g)]
    expect(invocations.map((m) => m[1])).toEqual(expect.arrayContaining(['verify-traffic', 'merge-reports']))
    expect(invocations.length).toBeGreaterThanOrEqual(6)
    for (const [, name, rest] of invocations) {
      const command = program.commands.find((c) => c.name() === name)!
      for (const flag of rest!.match(/--[a-z-]+/g) ?? [])
        expect(
          command.options.map((o) => o.long),
          `${name} ${flag}`,
        ).toContain(flag)
    }
    // The matrix passes K/N as --shard reads it.
    expect(doc).toContain('--shard ${{ matrix.shard }}/4')
    expect(doc).toContain('--shard $CI_NODE_INDEX/$CI_NODE_TOTAL')
  })
})
