// `crm-conformance compare` as people type it (docs/compare.md), over reports of the reference server: two legal
// variants and two faults, judged on the discovery and auth areas (a few seconds each, in process), one of them
// made a submission folder with a PRODUCT.json carrying hostile text. The table names each target, lists clauses
// in the spec's order with the fault's clause failed where it broke it, marks the rows that differ, shows the
// choices left open, escapes everything that came from a report, warns on other suite versions and refuses
// what is not a report with one line and exit 2.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { loadConfig } from '../src/config/config.ts'
import { runSuite } from '../src/run/run-suite.ts'
import type { RunReport } from '../src/report/types.ts'
import { catalogue } from '../suites/index.ts'
import { baseEnv, runCli, type CliRun } from './hostile/cli.ts'

const dir = mkdtempSync(join(tmpdir(), 'crmconf-compare-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const cli = (args: string[]): Promise<CliRun> => runCli(['compare', ...args], { cwd: dir, env: baseEnv(), hardLimitMs: 60_000 })

const TARGETS = {
  'ref-default': {},
  'ref-alt-a': { variant: 'alt-a' },
  'fault-missing-key-403': { faults: ['auth.missing-key-403'] },
  'fault-me-without-scopes': { faults: ['discovery.me-without-scopes'] },
} as const
const HOSTILE = '<script>alert(1)</script> | **bold** @team #12 \u202Egnp.exe'

beforeAll(async () => {
  for (const [name, embedded] of Object.entries(TARGETS))
    await runSuite({
      config: loadConfig({}, { profile: 'full', seed: 1, envFile: false }),
      catalogue,
      only: ['discovery', 'auth'],
      runId: `compare-${name}`,
      reportDir: join(dir, name),
      embedded: {
        rateLimitPerMinute: 1_000_000,
        ...('variant' in embedded ? { variant: embedded.variant } : {}),
        ...('faults' in embedded ? { faults: [...embedded.faults] } : {}),
      },
    })
  // A submission folder: its report.json and the vendor's PRODUCT.json, whose text nobody checked.
  mkdirSync(join(dir, 'submission'))
  cpSync(join(dir, 'ref-alt-a', 'report.json'), join(dir, 'submission', 'report.json'))
  writeFileSync(
    join(dir, 'submission', 'PRODUCT.json'),
    JSON.stringify({ product: HOSTILE, version: '7.2 <b>LTS</b>', vendor: 'V', contact: 'c', description: 'd' }),
  )
  // Another suite version's report, with a hostile capability value.
  const other = JSON.parse(readFileSync(join(dir, 'ref-default', 'report.json'), 'utf8')) as RunReport
  mkdirSync(join(dir, 'older'))
  writeFileSync(
    join(dir, 'older', 'report.json'),
    JSON.stringify({ ...other, tool: { ...other.tool, version: '0.0.9' }, capabilities: { ...other.capabilities, 'update.method': HOSTILE } }),
  )
  writeFileSync(join(dir, 'not-a-report.json'), JSON.stringify({ hello: 'world' }))
  mkdirSync(join(dir, 'empty-folder'))
}, 180_000)

/** The row of a Markdown table whose first cell starts with `first`, as cells. */
const rowOf = (markdown: string, first: string) =>
  markdown
    .split('\n')
    .find((line) => line.startsWith(`| ${first}`))
    ?.split(' | ')
    .map((cell) => cell.replace(/^\| |\s*\|$/g, '').trim())

describe('crm-conformance compare', () => {
  test('compare A B C D --report-dir out: a table a reader understands without the docs', async () => {
    const run = await cli(['ref-default', 'ref-alt-a', 'fault-missing-key-403', 'fault-me-without-scopes', '--report-dir', 'out'])
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(run.stdout).toMatch(/^compared 4 reports, \d+ clauses: out\/compare\.md, out\/compare\.html$/m)
    expect(run.stderr).toBe('')
    const md = readFileSync(join(dir, 'out', 'compare.md'), 'utf8')
    // What the columns are, a legend, one row per clause in the spec's order.
    for (const heading of ['# Conformance side by side', '## Targets', '## Legend', '## Outcome by clause', '## Choices where the spec leaves them open'])
      expect(md).toContain(heading)
    expect(rowOf(md, '**Version**')).toEqual(['**Version**', 'default', 'variant alt-a', 'fault auth.missing-key-403', 'fault discovery.me-without-scopes'])
    expect(
      rowOf(md, '**Verdict**')
        ?.slice(1)
        .map((v) => v.split(' ')[0]),
    ).toEqual(['compliant', 'compliant', 'non-compliant', 'non-compliant'])
    expect(md).toMatch(/^- ❌ a MUST check failed/m)
    const clauses = md
      .slice(md.indexOf('## Outcome by clause'), md.indexOf('## Choices'))
      .split('\n')
      .filter((l) => l.startsWith('| §'))
      .map((l) => /^\| (§[\d.]+)/.exec(l)![1]!)
    expect(clauses.length).toBeGreaterThan(3)
    expect([...clauses].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))).toEqual(clauses)
    // §5.5: a missing key gives 401; the 403 fault breaks it alone, and the row says the targets differ.
    const missingKey = rowOf(md, '§5.5')!
    expect(missingKey[1]).toBe('≠')
    expect(missingKey.slice(2).map((c) => c.split(' ')[0])).toEqual(['✅', '✅', '❌', '✅'])
    expect(missingKey[4]).toMatch(/^❌ \d+\/\d+ \(\d+ failed\)$/)
    // Which checks did not pass, named per target.
    expect(md).toMatch(/^- \*\*A: ref-default\*\*: none$/m)
    expect(md).toMatch(/^- \*\*C: fault-missing-key-403\*\*: MUST auth\.\S+ \(failed\)/m)
    // The choice left open that the variants answer differently: the shape of /me.
    expect(rowOf(md, 'discovery.me.shape.me.topLevelFields')?.[1]).toBe('≠')
    const html = readFileSync(join(dir, 'out', 'compare.html'), 'utf8')
    expect(html).toMatch(/^<!doctype html>/)
    expect(html).toContain('<h2>Legend</h2>')
    expect(html).toMatch(/<td class="num must-failed" title="not passed: auth\.[^"]+">❌ /)
  }, 60_000)

  test('a submission folder, another suite version, hostile text: --markdown and --html files, a warning, everything escaped', async () => {
    const run = await cli(['ref-default', 'submission', 'older', '--markdown', 'side.md', '--html', 'page/side.html'])
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(run.stderr).toMatch(/^compare: warning: the reports come from different suite versions \(\S+, 0\.0\.9\)/m)
    const md = readFileSync(join(dir, 'side.md'), 'utf8')
    const html = readFileSync(join(dir, 'page', 'side.html'), 'utf8')
    expect(md).toContain('different suite versions')
    expect(html).toContain('different suite versions')
    // The product named by PRODUCT.json, made inert: no markup, no cell-ending pipe, no mention, no bidi override.
    const product = rowOf(md, '**Product**')![2]!
    expect(product).toContain('&lt;script&gt;')
    expect(product).toContain('\\|')
    expect(product).not.toMatch(/<script|\u202E|@team/)
    expect(md).not.toContain('<b>')
    expect(html).not.toMatch(/<script|<b>LTS|\u202E/)
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(html).toContain('\\u202E')
  }, 60_000)

  test('compare A B with no output option prints the Markdown table on stdout', async () => {
    const run = await cli(['ref-default', 'fault-me-without-scopes'])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toMatch(/^# Conformance side by side\n/)
    expect(
      rowOf(run.stdout, '**Verdict**')
        ?.slice(1)
        .map((v) => v.split(' ')[0]),
    ).toEqual(['compliant', 'non-compliant'])
  }, 60_000)

  test('refuses what is not a report with one line and exit 2, and writes nothing', async () => {
    for (const input of ['not-a-report.json', 'missing-folder', 'empty-folder']) {
      const run = await cli(['ref-default', input, '--report-dir', 'refused'])
      expect(run.code, input).toBe(2)
      expect(run.stderr.trim().split('\n'), input).toHaveLength(1)
      expect(run.stderr, input).toMatch(/^compare: .*(not a crm-conformance report|does not exist|holds no report\.json)/)
    }
    expect(existsSync(join(dir, 'refused'))).toBe(false)
  }, 60_000)
})
