// The read-only profile sends no write at all. Proven twice: in process, from the client's record of every
// exchange; and through the CLI, from the server's side, by a pass-through in front of the reference server
// that counts every method it receives (the CLI adds its own requests: the reachability probe, the sweep,
// the clean-up).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { catalogue } from '../suites/index.ts'
import { runInProcess } from '../src/run/in-process.ts'
import { profileExclusion } from '../src/engine/scope.ts'
import type { RunReport } from '../src/report/types.ts'
import { baseEnv, runCli, targetEnv } from './hostile/cli.ts'
import { hostileForFile } from './hostile/for-file.ts'

/** Methods that change nothing (RFC 9110 "safe" methods). */
const SAFE_METHODS = ['GET', 'HEAD', 'OPTIONS']

const scene = hostileForFile('crmconf-read-only-')

test('in process: every exchange of a read-only run is a GET, and every check that writes is skipped with the reason', async () => {
  const run = await runInProcess({ checks: catalogue, profile: 'read-only' })
  const methods = new Set(run.session.exchanges.map((e) => e.request.method))
  expect(run.session.exchanges.length).toBeGreaterThan(0)
  expect([...methods].filter((m) => !SAFE_METHODS.includes(m))).toEqual([])
  expect(run.session.ledger.pending()).toEqual([])
  expect(run.leftovers).toEqual([])

  const byId = new Map(run.results.map((r) => [r.id, r]))
  const writers = catalogue.filter((c) => profileExclusion(c, 'read-only') !== undefined)
  expect(writers.length).toBeGreaterThan(0)
  for (const check of writers) {
    const result = byId.get(check.id)!
    expect(result.status, check.id).toBe('skipped')
    expect(result.message, check.id).toMatch(/profile/)
    expect(result.requests, check.id).toBe(0)
  }
  // The checks that read still ran: the profile is not a run that does nothing.
  expect(run.results.filter((r) => r.status === 'passed').length).toBeGreaterThan(catalogue.length / 4)
})

test('through the CLI: the server receives no request but GET', async () => {
  const reportDir = join(scene.dir, 'report')
  const env = baseEnv({ ...targetEnv(scene.hostile.baseUrls.pass, scene.hostile.reference), CRM_SEED: '5' })
  const run = await runCli(['run', '--profile', 'read-only', '--report-dir', reportDir, '--quiet'], { cwd: scene.dir, env, hardLimitMs: 180_000 })
  expect(run.hung).toBe(false)
  expect(run.code, run.stdout.slice(-2000) + run.stderr.slice(-2000)).not.toBe(2)

  const methods = (await scene.hostile.stats()).methods.pass ?? {}
  expect(Object.values(methods).reduce((a, b) => a + b, 0)).toBeGreaterThan(0)
  expect(
    Object.keys(methods).filter((m) => !SAFE_METHODS.includes(m)),
    JSON.stringify(methods),
  ).toEqual([])

  const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as RunReport
  expect(report.profile).toBe('read-only')
  const writers = new Set(catalogue.filter((c) => profileExclusion(c, 'read-only') !== undefined).map((c) => c.id))
  for (const check of report.checks.filter((c) => writers.has(c.id))) {
    expect(check.status, check.id).toBe('skipped')
    expect(check.message, check.id).toMatch(/profile/)
  }
  // The checks the profile leaves out are out of scope, listed with why, not skipped MUST rows.
  expect(report.scope.outOfScope.map((c) => c.id).sort()).toEqual([...writers].sort())
  expect(report.checks.filter((c) => writers.has(c.id))).toEqual([])
  expect(report.verdictLabel).toMatch(new RegExp(`^${report.verdict} \\(read-only profile: \\d+ of \\d+ MUST checks\\)$`))
}, 200_000)
