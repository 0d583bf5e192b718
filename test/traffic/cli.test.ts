// The two commands as people run them, spawned: the one listening line, exit codes 0 / 1 / 2, the report files
// and the --record file with no key in them.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startReferenceServer } from '../../src/reference/index.ts'
import { assertNoSecrets } from '../../src/report/secrets.ts'
import { BIN, baseEnv } from '../hostile/cli.ts'

const dir = mkdtempSync(join(tmpdir(), 'crmconf-traffic-cli-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

interface Ended {
  code: number | null
  stdout: string
  stderr: string
}

function cli(args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, env: baseEnv(env), stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
  const ended = new Promise<Ended>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })))
  const line = (pattern: RegExp, timeoutMs = 30_000) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no line ${pattern} in: ${stdout} ${stderr}`)), timeoutMs)
      const look = () => {
        const found = pattern.exec(stdout)
        if (found) {
          clearTimeout(timer)
          child.stdout.off('data', look)
          resolve(found)
        }
      }
      child.stdout.on('data', look)
      look()
    })
  return { child, ended, line }
}

async function proxyRun(fault: string[], traffic: (base: string, keys: Record<string, string>) => Promise<void>) {
  const server = await startReferenceServer({ port: 0, faults: fault })
  const record = join(dir, `rec-${fault.join('') || 'clean'}.ndjson`)
  const reportDir = join(dir, `proxy-${fault.join('') || 'clean'}`)
  const env = { CRM_API_KEY: server.keys.main, CRM_API_KEY_RATE_LIMITED: server.keys.rateLimited, CRM_WEBHOOK_SECRET: server.webhookSecret }
  const run = cli(['proxy', '--target', server.baseUrl, '--port', '0', '--report-dir', reportDir, '--record', record], env)
  try {
    const [, url] = await run.line(/^proxy listening on (http:\/\/127\.0\.0\.1:\d+\/v1)$/m)
    await traffic(url!, server.keys)
    run.child.kill('SIGTERM')
    const ended = await run.ended
    expect(ended.stdout.match(/proxy listening on/g)).toHaveLength(1)
    return { ended, record, reportDir, keys: server.keys, webhookSecret: server.webhookSecret }
  } finally {
    if (run.child.exitCode === null) run.child.kill('SIGKILL')
    await server.close()
  }
}

const get = async (url: string, key?: string) => (await fetch(url, { headers: key ? { authorization: `Bearer ${key}` } : {} })).text()

describe('crm-conformance proxy', () => {
  it('prints the listening line, judges, and exits 0 on SIGTERM with conformant traffic; the files hold no key', async () => {
    const { ended, record, reportDir, keys, webhookSecret } = await proxyRun([], async (base, k) => {
      await get(`${base}/me`, k.main)
      await get(`${base}/accounts?limit=3`, k.main)
    })
    expect(ended.code).toBe(0)
    const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8'))
    expect(report.traffic).toMatchObject({ source: 'proxy', exchanges: 2 })
    for (const name of ['report.json', 'report.html', 'junit.xml', 'summary.md', 'badge.json']) expect(existsSync(join(reportDir, name))).toBe(true)
    const recorded = readFileSync(record, 'utf8')
    expect(recorded.trim().split('\n')).toHaveLength(2)
    const secrets = { CRM_API_KEY: keys.main, CRM_API_KEY_RATE_LIMITED: keys.rateLimited, CRM_WEBHOOK_SECRET: webhookSecret }
    assertNoSecrets(recorded, secrets, 'record')
    for (const name of ['report.json', 'report.html', 'summary.md', 'junit.xml']) assertNoSecrets(readFileSync(join(reportDir, name), 'utf8'), secrets, name)
  }, 60_000)

  it('exits 1 when the server broke a MUST rule (429 without Retry-After), printing it as seen', async () => {
    const { ended } = await proxyRun(['rate-limits.429-without-retry-after'], async (base, k) => {
      for (let i = 0; i < 24; i++) await get(`${base}/me`, k.rateLimited)
    })
    expect(ended.code, ended.stdout + ended.stderr).toBe(1)
    expect(ended.stdout).toMatch(/^MUST \S+ .* server: /m)
  }, 60_000)

  it('refuses a target without the version segment with exit 2', async () => {
    const ended = await cli(['proxy', '--target', 'http://127.0.0.1:9/api', '--port', '0']).ended
    expect(ended.code).toBe(2)
    expect(ended.stderr).toMatch(/\/v1/)
  }, 30_000)
})

describe('crm-conformance verify-traffic', () => {
  it('exits 0 on conformant recorded traffic, 1 on a broken one, 2 when a file cannot be read', async () => {
    const clean = join(dir, 'rec-clean.ndjson')
    const broken = join(dir, 'rec-rate-limits.429-without-retry-after.ndjson')
    if (!existsSync(clean) || !existsSync(broken)) return expect.fail('the proxy tests record the traffic this test reads')
    expect((await cli(['verify-traffic', clean, '--report-dir', join(dir, 'v-clean')]).ended).code).toBe(0)
    // Two exchanges exercise few MUST rules: the verdict is partial and its label says so, as every file does.
    const cleanReport = JSON.parse(readFileSync(join(dir, 'v-clean', 'report.json'), 'utf8'))
    expect(cleanReport.verdict).toBe('partial')
    expect(cleanReport.verdictLabel).toMatch(/^partial on observed traffic: no MUST rule broken, \d+ of \d+ MUST rules not exercised; 2 exchanges/)
    const summary = readFileSync(join(dir, 'v-clean', 'summary.md'), 'utf8')
    expect(summary).toMatch(/^## ⚠️ CRM API traffic: \*\*partial on observed traffic/)
    expect(summary).toMatch(/· observed traffic from one file · 2 exchanges · base path `\/v1` ·/)
    expect(summary).not.toMatch(/· seed |· profile /)
    const failed = await cli(['verify-traffic', broken, '--report-dir', join(dir, 'v-broken'), '--fail-on', 'should']).ended
    expect(failed.code).toBe(1)
    expect(failed.stdout).toMatch(/not conformant on observed traffic/)
    expect((await cli(['verify-traffic', join(dir, 'missing.har'), '--report-dir', join(dir, 'v-missing')]).ended).code).toBe(2)
    writeFileSync(join(dir, 'garbage.har'), '{"log": {"entries": [ {"request": ')
    expect((await cli(['verify-traffic', join(dir, 'garbage.har'), '--report-dir', join(dir, 'v-garbage')]).ended).code).toBe(2)
  }, 90_000)
})
