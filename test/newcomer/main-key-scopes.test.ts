// Issue 40: a main key without every scope is the configuration's fault, not the server's. The run stops before
// it starts (exit 2, one line naming the missing scopes and CRM_API_KEY) when the selected checks need them, and a
// selection that needs none of them runs. The command line as a user types it.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startReferenceServer, type ReferenceServer } from '../../src/reference/index.ts'
import { ALL_SCOPES } from '../../src/spec/resources.ts'
import { baseEnv, runCli } from '../hostile/cli.ts'

let server: ReferenceServer
const dir = mkdtempSync(join(tmpdir(), 'crmconf-scopes-'))
beforeAll(async () => {
  server = await startReferenceServer({ port: 0, rateLimitPerMinute: 1_000_000 })
})
afterAll(async () => {
  await server?.close()
  rmSync(dir, { recursive: true, force: true })
})

/** The restricted key as the main key: what the newcomer did. */
const env = () => baseEnv({ CRM_BASE_URL: server.baseUrl, CRM_API_KEY: server.keys.restricted })

test('run --profile full with a restricted main key: one line naming the missing scopes and CRM_API_KEY, exit 2', async () => {
  const run = await runCli(['run', '--profile', 'full', '--report-dir', join(dir, 'never'), '--no-sweep'], { cwd: dir, env: env(), hardLimitMs: 60_000 })
  expect(run.code, run.stdout + run.stderr).toBe(2)
  const lines = run.stderr.trim().split('\n')
  expect(lines).toHaveLength(1)
  expect(lines[0]).toMatch(/^CRM_API_KEY lacks \d+ scopes the selected checks need \(GET \/me, §5\.4\): /)
  const missing = ALL_SCOPES.filter((s) => !server.restrictedScopes.includes(s))
  for (const scope of ['accounts:write', 'invoices:read']) expect(missing).toContain(scope)
  for (const scope of ['accounts:write', 'invoices:read']) expect(lines[0]).toContain(scope)
  for (const held of server.restrictedScopes) expect(lines[0]!.split(': ')[1]!.split(';')[0]!.split(' ')).not.toContain(held)
  expect(run.stdout).not.toMatch(/NON-COMPLIANT|passed/)
  // What unset optional variables would skip is not told before an error that stops the run.
  expect(run.stdout).not.toContain('unset')
}, 60_000)

test('a wrong key or an unreachable target: the error alone, no "unset: skips" lines before it', async () => {
  const [wrong, unreachable] = await Promise.all([
    runCli(['run', '--report-dir', join(dir, 'never')], {
      cwd: dir,
      env: baseEnv({ CRM_BASE_URL: server.baseUrl, CRM_API_KEY: 'crm_ws_x_0123456789abcdef' }),
      hardLimitMs: 60_000,
    }),
    runCli(['run', '--report-dir', join(dir, 'never')], {
      cwd: dir,
      env: baseEnv({ CRM_BASE_URL: 'http://127.0.0.1:9/v1', CRM_API_KEY: 'crm_ws_x_0123456789abcdef', CRM_REQUEST_TIMEOUT_MS: '2000' }),
      hardLimitMs: 60_000,
    }),
  ])
  for (const run of [wrong, unreachable]) {
    expect(run.code, run.stdout + run.stderr).toBe(2)
    expect(run.stdout).not.toContain('unset')
    expect(run.stderr.trim().split('\n')).toHaveLength(1)
  }
  expect(wrong.stderr).toContain('CRM_API_KEY was refused')
}, 60_000)

test('run --only discovery with the same key: nothing it selects needs a scope, so it runs', async () => {
  const run = await runCli(['run', '--only', 'discovery', '--report-dir', join(dir, 'discovery'), '--no-sweep', '--quiet'], {
    cwd: dir,
    env: env(),
    hardLimitMs: 60_000,
  })
  expect(run.stderr).not.toContain('lacks')
  expect(run.code, run.stdout + run.stderr).toBe(0)
  expect(run.stdout).toMatch(/^COMPLIANT \(subset/m)
}, 60_000)
