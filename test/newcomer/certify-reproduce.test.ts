// Issue 40: a certification submission's "Reproduce this run" as a vendor follows it. The fixture ids it exports
// are those the run used (a pool's first id, used up by an earlier night, is not), step 1 does not ask for a
// package the npm registry does not hold, and the README's table copies without zero-width spaces.
import { parse as parseDotenv } from 'dotenv'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startReferenceServer, type ReferenceServer } from '../../src/reference/index.ts'
import type { RunReport } from '../../src/report/types.ts'
import { FIXTURE_VARIABLES } from '../../src/vocabulary.ts'
import { TOOL_VERSION } from '../../src/version.ts'
import { baseEnv, runCli } from '../hostile/cli.ts'

let server: ReferenceServer
const dir = mkdtempSync(join(tmpdir(), 'crmconf-reproduce-'))
const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
beforeAll(async () => {
  server = await startReferenceServer({ port: 0, rateLimitPerMinute: 1_000_000 })
})
afterAll(async () => {
  await server?.close()
  rmSync(dir, { recursive: true, force: true })
})

test('certify: the README exports the pool id the run used and installs what exists', async () => {
  const sinkPort = await freePort()
  server.setWebhookTarget(`http://127.0.0.1:${sinkPort}/`)
  const env: Record<string, string> = { ...parseDotenv(server.envBlock()), CRM_WEBHOOK_SINK_PORT: String(sinkPort) }
  // An id no record has, first in the pool: unusable, as one a past night used up is.
  const variable = FIXTURE_VARIABLES.sentInvoiceId
  const gone = randomUUID()
  const pool = env[variable]!.split(' ')
  env[variable] = [gone, ...pool].join(' ')
  writeFileSync(
    join(dir, 'product.json'),
    JSON.stringify({ product: 'Reference CRM', version: '1.0.0', vendor: 'Tests', contact: 'qa@example.com', description: 'the reference server' }),
  )
  const run = await runCli(['certify', '--out', 'submission', '--product-file', 'product.json', '--quiet'], {
    cwd: dir,
    env: baseEnv(env),
    hardLimitMs: 240_000,
  })
  expect(run.code, run.stdout + run.stderr).toBe(0)
  // The records the API cannot delete (dozens) are one line pointing at the list, a few lines below the verdict.
  const left = run.stdout.split('\n').filter((l) => l.includes('left behind:'))
  expect(left).toHaveLength(1)
  expect(left[0]).toMatch(/^ {2}left behind: \d+ records \(\d+ product, .*\); each with its id and why in report\.html \(Leftovers\) and report\.json$/)
  const tail = run.stdout.slice(run.stdout.indexOf('\nCOMPLIANT'), run.stdout.indexOf('\nCERTIFICATION')).trim().split('\n')
  expect(tail.length).toBeLessThanOrEqual(4)
  const report = JSON.parse(readFileSync(join(dir, 'submission', 'report.json'), 'utf8')) as RunReport
  const used = report.fixturePools!.find((p) => p.variable === variable)!
  expect(used.unusable.map((u) => u.id)).toContain(gone)
  expect(used.chosen).toBe(pool[0])

  const readme = readFileSync(join(dir, 'submission', 'README.md'), 'utf8')
  expect(readme).toContain(`export ${variable}=${pool[0]}\n`)
  expect(readme).not.toContain(gone)
  expect(readme).not.toContain(`npm install --global crm-conformance@`)
  expect(readme).toContain(`npm install --global ./crm-conformance-${TOOL_VERSION}.tgz`)
  expect(readme).toContain('| contact | qa@example.com |')
  expect(readme).not.toContain('\u200b')

  const verified = await runCli(['verify-submission', 'submission'], { cwd: dir, env: baseEnv(), hardLimitMs: 60_000 })
  expect(verified.code, verified.stdout + verified.stderr).toBe(0)
}, 300_000)
