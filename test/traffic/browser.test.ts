// Issue 28 with a real client: Debian's Chromium (driven by playwright-core) calls the API from a page, through
// the validating proxy, in front of a CDN-like gateway that answers in zstd, br or gzip; Playwright records the
// session as HAR in each content mode and as a .zip. The proxy and verify-traffic on every recording give the
// server's verdict on what it answered with no false violation; calls the browser blocked (CORS) verify nothing.
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync, gzipSync } from 'node:zlib'
import { chromium, type Browser } from 'playwright-core'
import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startReferenceServer, type ReferenceServer } from '../../src/reference/index.ts'
import { startProxy, type RunningProxy } from '../../src/traffic/proxy.ts'
import { TrafficSession } from '../../src/traffic/session.ts'
import { verifyTrafficCommand } from '../../src/traffic/verify-command.ts'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const IN_CI = Boolean(process.env.CI)
const available = existsSync(CHROMIUM)
if (!available && !IN_CI) console.warn(`browser.test.ts skipped: no Chromium at ${CHROMIUM}; in CI this is a failure`)

const zstd = (b: Buffer) => spawnSync('zstd', ['-q', '-c'], { input: b }).stdout
const COMPRESS: Record<string, (b: Buffer) => Buffer> = { zstd, br: brotliCompressSync, gzip: gzipSync }

/** The page: the API calls a browser client makes, each answered in the coding its query names. */
const PAGE = (key: string, elsewhere: string) => `<!doctype html><meta charset="utf-8"><title>client</title><script>
const auth = { authorization: 'Bearer ${key}' }
window.calls = (async () => {
  const out = []
  for (const coding of ['zstd', 'br', 'gzip']) {
    const list = await fetch('/v1/accounts?limit=3&coding=' + coding, { headers: auth })
    out.push([coding, list.status, (await list.json()).data.length])
  }
  const made = await fetch('/v1/tasks', { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ title: 'from a browser' }) })
  out.push(['create', made.status])
  try { await fetch('${elsewhere}/v1/me', { headers: auth }) } catch (e) { out.push(['cors', String(e)]) }
  return out
})()
</script>`

let reference: ReferenceServer
let gateway: Server
let browser: Browser | undefined
const dir = mkdtempSync(join(tmpdir(), 'crmconf-browser-traffic-'))

/** Serves the page itself; forwards the API to the reference server and compresses as the query says. */
function startGateway(upstream: string): Promise<Server> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      if (req.url?.startsWith('/app/'))
        return void res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE(reference.keys.main, reference.baseUrl.replace(/\/(api\/)?v1$/, '')))
      const chunks: Buffer[] = []
      for await (const c of req) chunks.push(c as Buffer)
      const headers: Record<string, string> = {}
      for (const [n, v] of Object.entries(req.headers))
        if (typeof v === 'string' && !['host', 'content-length', 'accept-encoding', 'connection'].includes(n)) headers[n] = v
      const answer = await request(`${upstream}${req.url}`, { method: req.method as 'GET', headers, body: chunks.length ? Buffer.concat(chunks) : undefined })
      const body = Buffer.from(await answer.body.arrayBuffer())
      const out: Record<string, string> = {}
      for (const [n, v] of Object.entries(answer.headers)) if (typeof v === 'string' && n !== 'content-length' && n !== 'connection') out[n] = v
      const coding = new URL(req.url ?? '/', 'http://x').searchParams.get('coding') ?? ''
      if (COMPRESS[coding]) res.writeHead(answer.statusCode, { ...out, 'content-encoding': coding }).end(COMPRESS[coding]!(body))
      else res.writeHead(answer.statusCode, out).end(body)
    })().catch((e: Error) => res.writeHead(500).end(e.message))
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

beforeAll(async () => {
  reference = await startReferenceServer({ port: 0 })
  gateway = await startGateway(new URL(reference.baseUrl).origin)
  if (available) browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] })
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await new Promise((r) => gateway?.close(r))
  await reference?.close()
  rmSync(dir, { recursive: true, force: true })
})

async function browse(proxy: RunningProxy, har?: { path: string; content: 'embed' | 'omit' | 'attach'; mode: 'full' | 'minimal' }) {
  const context = await browser!.newContext(har ? { recordHar: { path: har.path, content: har.content, mode: har.mode } } : {})
  const page = await context.newPage()
  await page.goto(`${new URL(proxy.url).origin}/app/index.html`)
  const calls = await page.evaluate(() => (globalThis as unknown as { calls: Promise<unknown[]> }).calls)
  await context.close()
  return calls as unknown[][]
}

describe.skipIf(!available && !IN_CI)('Chromium through the proxy, and its HAR recordings', () => {
  it('judges zstd, br and gzip answers a browser read, with no false violation, in the proxy and in every HAR mode', async () => {
    const basePath = new URL(reference.baseUrl).pathname
    const session = new TrafficSession({ basePath, failOn: 'must', config: { keys: { main: reference.keys.main }, extraHeaders: {} } })
    const proxy = await startProxy({
      target: `http://127.0.0.1:${(gateway.address() as AddressInfo).port}${basePath}`,
      host: '127.0.0.1',
      port: 0,
      onExchange: (raw) => void session.judge(session.redact(raw)),
    })
    const recordings: string[] = []
    try {
      const recordingsOf = [
        ['embed', 'full'],
        ['omit', 'full'],
        ['attach', 'full'],
        ['embed', 'minimal'],
      ] as const
      for (const [content, mode] of recordingsOf) {
        const path = join(dir, `session-${content}-${mode}.${content === 'attach' ? 'zip' : 'har'}`)
        const calls = await browse(proxy, { path, content, mode })
        expect(calls.slice(0, 3)).toEqual([
          ['zstd', 200, expect.any(Number)],
          ['br', 200, expect.any(Number)],
          ['gzip', 200, expect.any(Number)],
        ])
        expect(calls[3]).toEqual(['create', expect.any(Number)])
        expect(calls[4]?.[0]).toBe('cors')
        recordings.push(path)
      }
    } finally {
      await proxy.close()
    }
    const rows = session.finish()
    expect(rows.filter((r) => r.status === 'failed' && r.side === 'server').map((r) => `${r.id}: ${r.message}`)).toEqual([])
    expect(session.answered).toBeGreaterThan(0)
    for (const file of recordings) {
      const outcome = await verifyTrafficCommand({ files: [file], reportDir: join(dir, `r-${file.split('/').at(-1)}`), write: () => {}, env: {}, basePath })
      const { readFileSync } = await import('node:fs')
      const report = JSON.parse(readFileSync(join(outcome.reportDir!, 'report.json'), 'utf8')) as {
        checks: { id: string; status: string; side?: string; message: string }[]
      }
      expect(
        report.checks.filter((r) => r.status === 'failed').map((r) => `${file}: ${r.id} (${r.side}) ${r.message}`),
        file,
      ).toEqual([])
      expect(outcome.exitCode, file).toBe(0)
    }
  }, 180_000)
})
