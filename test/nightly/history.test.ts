// Issue 26: `--history FILE` appends one JSON line per run; report.html draws the last runs as an inline SVG (no
// script) and names the days a check started or stopped failing.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import type { CheckDefinition } from '../../src/checks/types.ts'
import { loadConfig } from '../../src/config/config.ts'
import { readHistory } from '../../src/run/history.ts'
import { runSuite } from '../../src/run/run-suite.ts'

const dir = mkdtempSync(join(tmpdir(), 'crmconf-history-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('three runs: three lines; the chart and the day a check started and stopped failing', async () => {
  const file = join(dir, 'nested', 'history.jsonl')
  let breaking = false
  const probe: CheckDefinition = {
    id: 'probe.sometimes',
    area: 'probe',
    clauses: ['§4.2'],
    level: 'MUST',
    title: 'fails on the second run',
    run: async (ctx) => {
      if (breaking) ctx.fail('broken tonight')
    },
  }
  const steady: CheckDefinition = { ...probe, id: 'probe.steady', run: async () => undefined }
  const night = async (n: number) =>
    runSuite({
      config: loadConfig({}, { profile: 'full', seed: n, envFile: false }),
      catalogue: [probe, steady],
      runId: `20260101-00000${n}-hist`,
      reportDir: join(dir, `night-${n}`),
      embedded: { rateLimitPerMinute: 1_000_000 },
      historyFile: file,
    })
  await night(1)
  breaking = true
  await night(2)
  // A torn line (a run killed while writing) is passed over.
  writeFileSync(file, `${readFileSync(file, 'utf8')}{"date":\n`)
  breaking = false
  const third = await night(3)

  const lines = readHistory(file)
  expect(lines.map((l) => [l.runId, l.verdict, l.failing])).toEqual([
    ['20260101-000001-hist', 'compliant', []],
    ['20260101-000002-hist', 'non-compliant', ['probe.sometimes']],
    ['20260101-000003-hist', 'compliant', []],
  ])
  expect(lines[1]).toMatchObject({ counts: { passed: 1, failed: 1, skipped: 0, errored: 0 }, version: third.report.tool.version })
  expect(third.report.history?.runs).toHaveLength(3)

  const html = readFileSync(join(dir, 'night-3', 'report.html'), 'utf8')
  const section = html.slice(html.indexOf('<section id="history"'), html.indexOf('</section>', html.indexOf('<section id="history"')))
  expect(section).toContain('<svg')
  expect(section.match(/<rect /g)).toHaveLength(3)
  expect(section).toContain('started failing: <code>probe.sometimes</code>')
  expect(section).toContain('stopped failing: <code>probe.sometimes</code>')
  expect(html).not.toContain('<script')
}, 60_000)
