// The vitest integration (suites/*.suite.ts, vitest.suites.config.ts) and the CLI run the same declarations
// through the same run path: against one reference server, a few areas give the same status for every check.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawn } from 'node:child_process'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startReferenceServer } from '../src/reference/index.ts'
import type { RunReport } from '../src/report/types.ts'
import { ROOT, baseEnv, runCli, targetEnv } from './hostile/cli.ts'

const AREAS = ['discovery', 'auth', 'validation']

let server: Awaited<ReturnType<typeof startReferenceServer>>
let dir: string
beforeAll(async () => {
  server = await startReferenceServer({ rateLimitPerMinute: 1_000_000 })
  dir = mkdtempSync(join(tmpdir(), 'crmconf-vitest-route-'))
})
afterAll(async () => {
  await server?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

type Outcome = 'passed' | 'failed' | 'skipped'

function env(): NodeJS.ProcessEnv {
  // No webhook secret: these areas need no sink.
  return baseEnv({ ...targetEnv(server.baseUrl, { ...server, webhookSecret: undefined }), CRM_SEED: '5', CRM_PROFILE: 'full' })
}

/** `npx vitest run --config vitest.suites.config.ts suites/<area>/…`, as a user runs it; statuses by check id. */
async function vitestRoute(): Promise<Map<string, Outcome>> {
  const outputFile = join(dir, 'vitest.json')
  const args = [
    join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'),
    'run',
    '--config',
    'vitest.suites.config.ts',
    ...AREAS.map((a) => `suites/${a}/`),
    '--reporter=json',
    `--outputFile=${outputFile}`,
  ]
  const child = spawn(process.execPath, args, { cwd: ROOT, env: env(), stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk))
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk))
  await new Promise((resolve) => child.on('close', resolve))
  const json = JSON.parse(readFileSync(outputFile, 'utf8')) as { testResults: { assertionResults: { title: string; status: string }[] }[] }
  const statuses = new Map<string, Outcome>()
  for (const file of json.testResults)
    for (const test of file.assertionResults) statuses.set(test.title.split(' ')[0]!, test.status === 'pending' ? 'skipped' : (test.status as Outcome))
  expect(statuses.size, output.slice(-3000)).toBeGreaterThan(0)
  return statuses
}

async function cliRoute(): Promise<Map<string, Outcome>> {
  const reportDir = join(dir, 'cli')
  const run = await runCli(['run', '--only', AREAS.join(','), '--report-dir', reportDir, '--quiet', '--no-sweep'], {
    cwd: dir,
    env: env(),
    hardLimitMs: 240_000,
  })
  expect(run.hung).toBe(false)
  const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as RunReport
  // vitest has two outcomes for a check that did not pass: a failed test (failed or error) and a skipped one.
  return new Map(report.checks.map((c) => [c.id, c.status === 'error' ? 'failed' : c.status]))
}

test('the vitest route and the CLI route give every check the same status', async () => {
  const viaVitest = await vitestRoute()
  const viaCli = await cliRoute()
  expect([...viaVitest.keys()].sort()).toEqual([...viaCli.keys()].sort())
  const differ = [...viaCli].filter(([id, status]) => viaVitest.get(id) !== status).map(([id, status]) => `${id}: CLI ${status}, vitest ${viaVitest.get(id)}`)
  expect(differ).toEqual([])
  // Not a comparison of two empty runs.
  expect([...viaCli.values()].filter((s) => s === 'passed').length).toBeGreaterThan(50)
}, 300_000)
