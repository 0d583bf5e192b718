// Issue 26: `crm-conformance diff <before> <after>`: every kind of change, the exit codes, a version mismatch.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { diffCommand } from '../../src/cli/diff-command.ts'
import { changeOf, diffReports, type ComparedReport } from '../../src/diff/diff.ts'
import { main } from '../../src/cli/main.ts'

const dir = mkdtempSync(join(tmpdir(), 'crmconf-diff-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

type Row = ComparedReport['checks'][number]
const row = (id: string, status: Row['status'], level: Row['level'] = 'MUST'): Row => ({
  id,
  level,
  status,
  message: status === 'passed' ? '' : `${id} ${status}`,
})

function report(version: string, verdict: string, rows: Row[], capabilities: Record<string, unknown> = {}): ComparedReport {
  return { tool: { version }, runId: `run-${verdict}`, verdict, capabilities, checks: rows }
}

/** Writes a report folder (report.json inside) and returns its path. */
function folder(name: string, r: ComparedReport): string {
  mkdirSync(join(dir, name), { recursive: true })
  writeFileSync(join(dir, name, 'report.json'), JSON.stringify(r))
  return join(dir, name)
}

function run(before: string, after: string, flags: { json?: boolean; markdown?: boolean } = {}) {
  let out = ''
  const { exitCode } = diffCommand(before, after, { ...flags, write: (t) => (out += t) })
  return { exitCode, out }
}

const BEFORE = report('1.0.0', 'compliant', [
  row('a.breaks', 'passed'),
  row('a.errs', 'passed'),
  row('a.fixed', 'failed'),
  row('a.still', 'failed'),
  row('a.skips', 'passed'),
  row('a.back', 'skipped'),
  row('a.same', 'passed'),
  row('a.skipped-twice', 'skipped', 'SHOULD'),
])
const AFTER = report(
  '1.0.0',
  'non-compliant',
  [
    row('a.breaks', 'failed'),
    row('a.errs', 'error'),
    row('a.fixed', 'passed'),
    row('a.still', 'failed'),
    row('a.skips', 'skipped'),
    row('a.back', 'passed'),
    row('a.same', 'passed'),
    row('a.skipped-twice', 'skipped', 'SHOULD'),
  ],
  {},
)

test('each kind of change gets one line; checks that did not change get none', () => {
  const diff = diffReports(
    { ...BEFORE, capabilities: { 'x.updateMethod': 'PATCH', 'x.count': 3, 'x.id': '5bd1cb36-2f1c-423a-b365-f9552119f658' } },
    { ...AFTER, capabilities: { 'x.updateMethod': 'PUT', 'x.count': 4, 'x.id': 'f370ef56-2ce0-42c5-8af8-d0d3fb47a3c4' } },
  )
  expect(Object.fromEntries(diff.changes.map((c) => [c.id, c.kind]))).toEqual({
    'a.breaks': 'newly failing',
    'a.errs': 'newly errored',
    'a.still': 'still failing',
    'a.skips': 'newly skipped',
    'a.fixed': 'fixed',
    'a.back': 'newly passing',
  })
  expect(diff.regressions).toBe(2)
  expect(diff.verdictChanged).toBe(true)
  // A choice the server made is compared; counts and ids differ every run and are not.
  expect(diff.capabilities).toEqual([{ key: 'x.updateMethod', before: 'PATCH', after: 'PUT' }])
  expect(changeOf('skipped', 'failed')).toBe('newly failing')
  expect(changeOf('failed', 'error')).toBe('newly errored')
})

test('exit 1 on a regression, with one line per changed check and the verdict change', () => {
  const { exitCode, out } = run(folder('before', BEFORE), folder('after', AFTER))
  expect(exitCode).toBe(1)
  expect(out).toContain('verdict: compliant -> non-compliant')
  expect(out).toMatch(/^newly failing\s+a\.breaks \(MUST\): a\.breaks failed$/m)
  expect(out).toMatch(/^newly errored\s+a\.errs \(MUST\)/m)
  expect(out).toMatch(/^fixed\s+a\.fixed \(MUST\)/m)
  expect(out).toMatch(/^still failing\s+a\.still/m)
  expect(out).toMatch(/^newly skipped\s+a\.skips/m)
  expect(out).toMatch(/^newly passing\s+a\.back/m)
  expect(out).not.toContain('a.same')
  expect(out).not.toContain('a.skipped-twice')
  expect(out).toContain('2 regressions')
})

test('exit 0 when nothing that passed now fails (a fix, a check still failing), report.json files accepted', () => {
  const fixedOnly = report('1.0.0', 'compliant', [row('a.fixed', 'passed'), row('a.still', 'failed')])
  const before = join(folder('b0', report('1.0.0', 'non-compliant', [row('a.fixed', 'failed'), row('a.still', 'failed')])), 'report.json')
  const { exitCode, out } = run(before, join(folder('a0', fixedOnly), 'report.json'))
  expect(exitCode).toBe(0)
  expect(out).toContain('no regression')
})

test('--json and --markdown', () => {
  const before = folder('before', BEFORE)
  const after = folder('after', AFTER)
  const json = JSON.parse(run(before, after, { json: true }).out)
  expect(json.exitCode).toBe(1)
  expect(json.changes.find((c: { id: string }) => c.id === 'a.breaks')).toMatchObject({
    kind: 'newly failing',
    before: 'passed',
    after: 'failed',
    regression: true,
  })
  const md = run(before, after, { markdown: true }).out
  expect(md).toContain('### crm-conformance diff')
  expect(md).toContain('| **newly failing** | `a.breaks` | MUST | passed | failed |')
  expect(md).toContain('**Verdict:** compliant → **non-compliant**')
})

test('exit 2: an unreadable input, a file that is not a report, suite versions with different check ids', () => {
  const good = folder('good', BEFORE)
  expect(run(join(dir, 'missing'), good)).toMatchObject({ exitCode: 2 })
  writeFileSync(join(dir, 'not-json.json'), '{')
  expect(run(join(dir, 'not-json.json'), good).out).toMatch(/^cannot read .*not-json\.json/)
  writeFileSync(join(dir, 'other.json'), JSON.stringify({ hello: 1 }))
  expect(run(good, join(dir, 'other.json'))).toMatchObject({ exitCode: 2 })
  const newer = folder('newer', report('1.1.0', 'compliant', [...BEFORE.checks.filter((c) => c.id !== 'a.same'), row('b.new', 'passed')]))
  const { exitCode, out } = run(good, newer)
  expect(exitCode).toBe(2)
  expect(out).toContain('different suite versions (1.0.0 and 1.1.0)')
  expect(out).toContain('only in before (1): a.same')
  expect(out).toContain('only in after (1): b.new')
  // Another version with the same ids is compared.
  expect(run(good, folder('same-ids', { ...BEFORE, tool: { version: '1.1.0' } })).exitCode).toBe(0)
})

test('the command line: crm-conformance diff <before> <after>', async () => {
  const write = process.stdout.write
  process.stdout.write = (() => true) as typeof process.stdout.write
  try {
    expect(await main(['diff', folder('before', BEFORE), folder('after', AFTER)])).toBe(1)
    expect(await main(['diff', folder('before', BEFORE), folder('before', BEFORE), '--markdown'])).toBe(0)
  } finally {
    process.stdout.write = write
  }
})
