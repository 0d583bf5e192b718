// Secrets never reach output: a whole CLI run with every key and the webhook secret set, against a server that
// repeats the key back wherever it can (a response header, /me, every error body, and a run of forced 500s
// whose evidence lands in the report), and then every file of the report folder (the journal included) and
// everything printed is searched for each key, its secret part and the webhook secret, in every encoding a
// report uses.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { expect, test } from 'vitest'
import { KEY_VARIABLES, type KeyRole } from '../src/config/config.ts'
import { assertNoSecrets } from '../src/report/secrets.ts'
import { baseEnv, runCli, targetEnv } from './hostile/cli.ts'
import { hostileForFile } from './hostile/for-file.ts'

const scene = hostileForFile('crmconf-secret-leak-')

/** Every file under `root`, dotfolders (.journal) included. */
function filesUnder(root: string): string[] {
  return readdirSync(root, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
}

/** Each secret by a name that says which form it is; never printed by value. */
function secretForms(keys: Record<KeyRole, string>, webhookSecret: string): Record<string, string> {
  const forms: Record<string, string> = {}
  for (const [role, value] of Object.entries(keys) as [KeyRole, string][]) {
    forms[KEY_VARIABLES[role]] = value
    forms[`${KEY_VARIABLES[role]} (secret part)`] = value.split('_').at(-1)!
  }
  forms.CRM_WEBHOOK_SECRET = webhookSecret
  forms['CRM_WEBHOOK_SECRET (without whsec_)'] = webhookSecret.replace(/^whsec_/, '')
  return forms
}

test('no key and no webhook secret reaches any report file or anything printed', async () => {
  const { keys, webhookSecret } = scene.hostile.reference
  const forms = secretForms(keys, webhookSecret)
  // The forms are long enough that a match can only be a leak.
  for (const [name, value] of Object.entries(forms)) expect(value.length, name).toBeGreaterThanOrEqual(16)

  const reportDir = join(scene.dir, 'report')
  const env = baseEnv({
    ...targetEnv(scene.hostile.baseUrls.echo, scene.hostile.reference),
    CRM_PROFILE: 'full',
    CRM_SEED: '11',
    CRM_WEBHOOK_SINK_PORT: '0',
    CRM_WEBHOOK_TIMEOUT_S: '2',
  })
  const run = await runCli(['run', '--report-dir', reportDir], { cwd: scene.dir, env, hardLimitMs: 240_000 })
  expect(run.hung, run.stdout.slice(-2000)).toBe(false)
  // The forced 500s fail MUST checks: exit 1, with every report written.
  expect(run.code, run.stdout.slice(-2000) + run.stderr.slice(-2000)).toBe(1)

  // The server did echo the key: the trap was live, and the redaction had work to do.
  const report = readFileSync(join(reportDir, 'report.json'), 'utf8')
  expect(report).toMatch(/"x-echo-authorization": ?"Bearer <redacted:CRM_API_KEY>"/)
  expect(report).toMatch(/refused, you sent Authorization: Bearer <redacted:CRM_API_KEY/)
  expect(JSON.parse(report).summary.failed).toBeGreaterThan(0)

  const files = filesUnder(reportDir)
  const names = files.map((f) => relative(reportDir, f))
  expect(names).toEqual(expect.arrayContaining(['report.json', 'report.html', 'junit.xml', 'summary.md', 'badge.json', join('.journal', 'ledger.jsonl')]))
  for (const file of files) assertNoSecrets(readFileSync(file, 'utf8'), forms, relative(reportDir, file))
  // The transport's redaction caught every echo: the writer's guard had nothing to mask.
  expect(JSON.parse(report).secretsMasked).toBeUndefined()
  assertNoSecrets(run.stdout, forms, 'stdout')
  assertNoSecrets(run.stderr, forms, 'stderr')
}, 300_000)
