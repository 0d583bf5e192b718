// The proxy judges on a thread of its own: a rule that blocks never delays an answer (if judging ran on the
// forwarding thread, the first blocked rule would hang every later request and this test would time out: no
// clock is read), the report still holds every exchange once the rule lets go, and a judging thread that
// crashes is replaced while forwarding goes on.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { startReferenceServer } from '../../src/reference/index.ts'
import { proxyCommand } from '../../src/traffic/proxy-command.ts'

const dir = mkdtempSync(join(tmpdir(), 'crmconf-judge-thread-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const rulesModule = (flag: string) => `${new URL('./judge-rules.ts', import.meta.url).href}?flag=${encodeURIComponent(flag)}`

it('answers every request while a rule is stuck, and reports every exchange after stop', async () => {
  const server = await startReferenceServer({ port: 0, rateLimitPerMinute: 100_000 })
  const flag = join(dir, 'release')
  const reportDir = join(dir, 'slow')
  const record = join(dir, 'slow.ndjson')
  const lines: string[] = []
  try {
    const statuses: number[] = []
    const { exitCode } = await proxyCommand({
      target: server.baseUrl,
      port: 0,
      reportDir,
      record,
      write: (text) => lines.push(text),
      env: { CRM_API_KEY: server.keys.main },
      rulesModule: rulesModule(flag),
      until: async (proxy) => {
        const headers = { authorization: `Bearer ${server.keys.main}` }
        for (const path of ['/me', '/accounts?limit=25', '/contacts?limit=50', '/me', '/accounts?limit=3', '/leads?limit=100']) {
          const response = await fetch(`${proxy.url}${path}`, { headers })
          await response.arrayBuffer()
          statuses.push(response.status)
        }
        // Every answer is out while the rule still blocks the first exchange: now let it go.
        writeFileSync(flag, '')
        return 'done'
      },
    })
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200])
    expect(exitCode, lines.join('')).toBe(0)
    const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8'))
    expect(report.traffic).toMatchObject({ source: 'proxy', exchanges: 6 })
    const slowRow = report.checks.find((row: { id: string }) => row.id === 'traffic.test.slow')
    expect(slowRow).toMatchObject({ status: 'passed' })
    expect(readFileSync(record, 'utf8').trim().split('\n')).toHaveLength(6)
  } finally {
    await server.close()
  }
}, 60_000)

it('replaces a judging thread that crashes; forwarding and the report go on', async () => {
  const server = await startReferenceServer({ port: 0, rateLimitPerMinute: 100_000 })
  const flag = join(dir, 'never-blocks')
  writeFileSync(flag, '')
  const reportDir = join(dir, 'crash')
  const lines: string[] = []
  try {
    const statuses: number[] = []
    const { exitCode } = await proxyCommand({
      target: server.baseUrl,
      port: 0,
      reportDir,
      write: (text) => lines.push(text),
      env: { CRM_API_KEY: server.keys.main },
      rulesModule: rulesModule(flag),
      until: async (proxy) => {
        const headers = { authorization: `Bearer ${server.keys.main}` }
        const send = async (crash: boolean) => {
          const response = await fetch(`${proxy.url}/me`, { headers: crash ? { ...headers, 'x-test-crash': '1' } : headers })
          await response.arrayBuffer()
          statuses.push(response.status)
        }
        for (const crash of [false, true]) await send(crash)
        // Once the crash is reported, the next exchanges go to the new thread.
        while (!lines.some((line) => /judging thread stopped/.test(line))) await new Promise((r) => setTimeout(r, 20))
        for (const crash of [false, false]) await send(crash)
        return 'done'
      },
    })
    expect(statuses).toEqual([200, 200, 200, 200])
    expect(lines.join('')).toMatch(/the judging thread stopped \(exit code 7\).*a new thread judges the rest; forwarding goes on/)
    expect(existsSync(join(reportDir, 'report.json'))).toBe(true)
    expect(lines.join('')).toMatch(/not in the report/)
    // A verdict on a subset of what was forwarded is never compliant, and says why.
    const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8'))
    expect(report.verdict).not.toBe('compliant')
    expect(report.traffic.exchanges).toBe(2)
    expect(report.verdictReasons.join('\n')).toMatch(/2 exchanges forwarded but not in this report/)
    expect(exitCode).toBe(0)
  } finally {
    await server.close()
  }
}, 60_000)
