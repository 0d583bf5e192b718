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

/**
 * The proxy in front of a fresh reference server, judged by the test rules (./judge-rules.ts) that `flag` releases;
 * `send` drives it with the main key's headers. What it printed and its exit code, once stopped.
 */
async function proxied(
  name: string,
  flag: string,
  send: (url: string, headers: Record<string, string>, lines: string[]) => Promise<void>,
  record?: string,
): Promise<{ exitCode: number; lines: string[]; reportDir: string }> {
  const server = await startReferenceServer({ port: 0, rateLimitPerMinute: 100_000 })
  const reportDir = join(dir, name)
  const lines: string[] = []
  try {
    const { exitCode } = await proxyCommand({
      target: server.baseUrl,
      port: 0,
      reportDir,
      ...(record ? { record } : {}),
      write: (text) => lines.push(text),
      env: { CRM_API_KEY: server.keys.main },
      rulesModule: rulesModule(flag),
      until: async (proxy) => {
        await send(proxy.url, { authorization: `Bearer ${server.keys.main}` }, lines)
        return 'done'
      },
    })
    return { exitCode, lines, reportDir }
  } finally {
    await server.close()
  }
}

it('answers every request while a rule is stuck, and reports every exchange after stop', async () => {
  const flag = join(dir, 'release')
  const record = join(dir, 'slow.ndjson')
  const statuses: number[] = []
  const { exitCode, lines, reportDir } = await proxied(
    'slow',
    flag,
    async (url, headers) => {
      for (const path of ['/me', '/accounts?limit=25', '/contacts?limit=50', '/me', '/accounts?limit=3', '/leads?limit=100']) {
        const response = await fetch(`${url}${path}`, { headers })
        await response.arrayBuffer()
        statuses.push(response.status)
      }
      // Every answer is out while the rule still blocks the first exchange: now let it go.
      writeFileSync(flag, '')
    },
    record,
  )
  expect(statuses).toEqual([200, 200, 200, 200, 200, 200])
  expect(exitCode, lines.join('')).toBe(0)
  const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8'))
  expect(report.traffic).toMatchObject({ source: 'proxy', exchanges: 6 })
  const slowRow = report.checks.find((row: { id: string }) => row.id === 'traffic.test.slow')
  expect(slowRow).toMatchObject({ status: 'passed' })
  expect(readFileSync(record, 'utf8').trim().split('\n')).toHaveLength(6)
}, 60_000)

it('replaces a judging thread that crashes; forwarding and the report go on', async () => {
  const flag = join(dir, 'never-blocks')
  writeFileSync(flag, '')
  const statuses: number[] = []
  const { exitCode, lines, reportDir } = await proxied('crash', flag, async (url, headers, lines) => {
    const send = async (crash: boolean) => {
      const response = await fetch(`${url}/me`, { headers: crash ? { ...headers, 'x-test-crash': '1' } : headers })
      await response.arrayBuffer()
      statuses.push(response.status)
    }
    for (const crash of [false, true]) await send(crash)
    // Once the crash is reported, the next exchanges go to the new thread.
    while (!lines.some((line) => /judging thread stopped/.test(line))) await new Promise((r) => setTimeout(r, 20))
    for (const crash of [false, false]) await send(crash)
  })
  expect(statuses).toEqual([200, 200, 200, 200])
  expect(lines.join('')).toMatch(/the judging thread stopped \(exit code 7\).*a new thread judges the rest; forwarding goes on/)
  expect(existsSync(join(reportDir, 'report.json'))).toBe(true)
  expect(lines.join('')).toMatch(/not in the report/)
  // A verdict on a subset of what was forwarded is never compliant, and says why.
  const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8'))
  expect(report.verdict).not.toBe('compliant')
  expect(report.verdictLabel).toMatch(/^partial on observed traffic: .*; 2 exchanges not judged$/)
  expect(report.traffic.headline.text).toBe(report.verdictLabel)
  expect(report.traffic.exchanges).toBe(2)
  expect(report.verdictReasons.join('\n')).toMatch(/2 exchanges forwarded but not in this report/)
  expect(exitCode).toBe(0)
}, 60_000)
