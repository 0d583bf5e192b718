// Nothing a server, a traffic file or a webhook sender says reaches a terminal, a CI page or a pull request as
// anything but text (issue 29). Every printer is fed the same hostile corpus (test/hostile/corpus.ts: OSC 52
// clipboard writes, window titles, bare CRs, bidi overrides, characters XML forbids, live Markdown), and what
// it prints with NO_COLOR=1 must hold no control character; the files a run writes are judged by machine:
// junit.xml by a strict XML parser (libxml2's xmllint, as WebAssembly), summary.md by a GFM renderer.
import { createHmac } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { marked } from 'marked'
import { request } from 'undici'
import { describe, expect, it } from 'vitest'
import { validateXML } from 'xmllint-wasm'
import { proxyCommand } from '../../src/traffic/proxy-command.ts'
import { runSinkCommand } from '../../src/webhooks/sink-command.ts'
import type { Sink } from '../../src/webhooks/sink.ts'
import { baseEnv, ROOT, runCli, targetEnv } from './cli.ts'
import { controlsIn, HOSTILE_WELL_FORMED, HOSTILE_TEXT } from './corpus.ts'
import { hostileForFile } from './for-file.ts'

const scene = hostileForFile('crmconf-inert-')

/** What a printer printed, judged: no control character, and the corpus did reach it (shown escaped). */
function expectInert(output: string, options: { reached?: boolean } = {}): void {
  expect(controlsIn(output), output.slice(-3000)).toEqual([])
  if (options.reached ?? true) expect(output, 'the hostile text never reached this printer: the test proves nothing').toContain('\\e]52;')
}

const XSD = readFileSync(join(ROOT, 'test', 'junit', 'junit.xsd'), 'utf8')

/** A strict XML 1.0 parser (libxml2 refuses any character XML forbids), and the JUnit schema CI publishers read. */
async function expectWellFormed(file: string): Promise<void> {
  const xml = readFileSync(file, 'utf8')
  const result = await validateXML({ xml: [{ fileName: 'junit.xml', contents: xml }], schema: [{ fileName: 'junit.xsd', contents: XSD }] })
  expect(result.errors.map((e) => e.rawMessage)).toEqual([])
  expect(xml).toContain('<testcase ')
}

/** summary.md as GitHub would render it: no link, image or element from server text, no mention or reference outside code. */
function expectInertMarkdown(file: string): void {
  const html = marked.parse(readFileSync(file, 'utf8'), { gfm: true, async: false })
  expect(html).not.toMatch(/<a\s|<img|<script/i)
  const plain = html.replace(/<code>[\s\S]*?<\/code>/g, ' ').replace(/<[^>]+>/g, ' ')
  expect(plain).not.toMatch(/(^|[^\w])@[a-z0-9]|#\d|https?:\/\/|\bwww\./i)
  expect(controlsIn(plain)).toEqual([])
}

const HARD_LIMIT_MS = 150_000

describe('every printer shows the hostile corpus as text', () => {
  it('a suite run against a server that puts it in ids, error codes and messages and /me: console, junit.xml, summary.md', async () => {
    const reportDir = join(scene.dir, 'suite')
    // The foreign key is a key of the main key's workspace, so the start-up warning quotes the workspace /me named.
    const env = baseEnv({
      ...targetEnv(scene.hostile.baseUrls.poison, scene.hostile.reference),
      CRM_API_KEY_FOREIGN: scene.hostile.reference.keys.restricted,
      NO_COLOR: '1',
      CRM_SEED: '5',
    })
    const run = await runCli(['run', '--only', 'records,discovery', '--profile', 'full', '--report-dir', reportDir], {
      cwd: scene.dir,
      env,
      hardLimitMs: HARD_LIMIT_MS,
    })
    const output = run.stdout + run.stderr
    expect(run.hung).toBe(false)
    expect(run.code, output.slice(-3000)).toBe(1)
    expectInert(output)
    // The routes the issue found: the failure lines, the workspace warning and the records left behind.
    expect(output).toMatch(/configuration warning: .*\\e\]52;/)
    // The records left behind: named by id when few (their ids are the corpus), else counted by resource.
    expect(output).toMatch(/left behind: (.*\\e\]52;|\d+ records \()/)
    await expectWellFormed(join(reportDir, 'junit.xml'))
    expectInertMarkdown(join(reportDir, 'summary.md'))
  }, 200_000)

  it('verify-traffic: paths, decoded query values, error bodies and a broken line quoting the corpus', async () => {
    const key = 'Bearer k'
    const url = `http://crm.example.test/v1/accounts/${encodeURIComponent(HOSTILE_WELL_FORMED)}?limit=${encodeURIComponent(HOSTILE_TEXT.osc52)}&q=${encodeURIComponent(HOSTILE_WELL_FORMED)}`
    // As a gateway log may hold it: the corpus raw in the path, percent-encoded in the query.
    const raw = `http://crm.example.test/v1/accounts/${HOSTILE_TEXT.osc52}${HOSTILE_TEXT.bareCr}?limit=${encodeURIComponent(HOSTILE_TEXT.osc52)}`
    const exchange = (status: number, body: unknown, at = url) => ({
      request: { method: 'GET', url: at, headers: { authorization: key } },
      response: { status, headers: { 'content-type': 'application/json' }, body },
      startedAt: '2026-01-01T00:00:00.000Z',
      endedAt: '2026-01-01T00:00:00.010Z',
    })
    const good = join(scene.dir, 'traffic.ndjson')
    writeFileSync(
      good,
      [
        exchange(200, { id: HOSTILE_WELL_FORMED, name: HOSTILE_WELL_FORMED }),
        exchange(404, { error: { code: HOSTILE_WELL_FORMED, message: HOSTILE_WELL_FORMED } }),
        exchange(500, HOSTILE_WELL_FORMED),
        exchange(200, { id: 'x' }, raw),
        exchange(200, { data: [], nextCursor: null }, `http://crm.example.test/v1/accounts?limit=${encodeURIComponent(HOSTILE_WELL_FORMED)}`),
      ]
        .map((e) => JSON.stringify(e))
        .join('\n') + '\n',
    )
    const reportDir = join(scene.dir, 'traffic')
    const judged = await runCli(['verify-traffic', good, '--report-dir', reportDir], { cwd: scene.dir, env: baseEnv({ NO_COLOR: '1' }), hardLimitMs: 60_000 })
    expectInert(judged.stdout + judged.stderr)
    await expectWellFormed(join(reportDir, 'junit.xml'))
    expectInertMarkdown(join(reportDir, 'summary.md'))

    const broken = join(scene.dir, 'broken.ndjson')
    writeFileSync(broken, `${JSON.stringify(exchange(200, {}))}\n{"request": ${HOSTILE_WELL_FORMED}\n`)
    const refused = await runCli(['verify-traffic', broken, '--report-dir', join(scene.dir, 'broken')], {
      cwd: scene.dir,
      env: baseEnv({ NO_COLOR: '1' }),
      hardLimitMs: 60_000,
    })
    expectInert(refused.stdout + refused.stderr)
  }, 120_000)

  it('the proxy: a client sending the corpus in the path and query, a server answering with it', async () => {
    let output = ''
    let stop: (reason: string) => void = () => undefined
    const reportDir = join(scene.dir, 'proxy')
    const done = proxyCommand({
      target: scene.hostile.baseUrls.poison,
      port: 0,
      reportDir,
      env: {},
      write: (text) => (output += text),
      until: async (proxy) => {
        const base = proxy.url
        const auth = { authorization: `Bearer ${scene.hostile.reference.keys.main}` }
        for (const path of [
          `/accounts?limit=${encodeURIComponent(HOSTILE_TEXT.osc52)}`,
          `/accounts/${encodeURIComponent(HOSTILE_WELL_FORMED)}`,
          `/accounts?q=${encodeURIComponent(HOSTILE_WELL_FORMED)}&limit=0`,
        ]) {
          const answer = await request(`${base}${path}`, { headers: auth })
          await answer.body.text()
        }
        await new Promise((resolve) => setTimeout(resolve, 100))
        return new Promise<string>((resolve) => {
          stop = resolve
          stop('test')
        })
      },
    })
    const outcome = await done
    expect(outcome.exitCode).not.toBe(2)
    expectInert(output)
    await expectWellFormed(join(reportDir, 'junit.xml'))
    expectInertMarkdown(join(reportDir, 'summary.md'))
  }, 60_000)

  it('the webhook sink: types, ids and bodies of signed and forged deliveries', async () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64')
    let output = ''
    const controller = new AbortController()
    let started: (sink: Sink) => void = () => undefined
    const ready = new Promise<Sink>((resolve) => (started = resolve))
    const running = runSinkCommand(
      { host: '127.0.0.1', port: 0, secret, logFile: join(scene.dir, 'sink.jsonl') },
      { signal: controller.signal, write: (t) => (output += t), onStarted: started },
    )
    const sink = await ready
    try {
      for (const forged of [false, true]) {
        const id = `msg_${HOSTILE_TEXT.osc52}`
        const body = JSON.stringify({
          type: HOSTILE_WELL_FORMED,
          timestamp: new Date().toISOString(),
          data: { id: HOSTILE_WELL_FORMED, entityType: HOSTILE_WELL_FORMED, object: {}, changes: {} },
        })
        const ts = Math.floor(Date.now() / 1000)
        const signature = forged ? 'v1,AAAA' : `v1,${createHmac('sha256', key).update(`${id}.${ts}.${body}`).digest('base64')}`
        const answer = await request(sink.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'webhook-id': encodeURIComponent(id),
            'webhook-timestamp': String(ts),
            'webhook-signature': signature,
          },
          body,
        })
        await answer.body.text()
      }
    } finally {
      controller.abort()
    }
    await running
    expectInert(output)
  })

  it('serve, certify, verify-submission and a refused command: what they echo of their input', async () => {
    const env = baseEnv({ NO_COLOR: '1' })
    const outputs: string[] = []
    const serve = await runCli(['serve', '--port', '0', '--variant', HOSTILE_WELL_FORMED], { cwd: scene.dir, env, hardLimitMs: 30_000 })
    outputs.push(serve.stdout + serve.stderr)
    const productFile = join(scene.dir, 'product.json')
    writeFileSync(productFile, JSON.stringify({ product: HOSTILE_WELL_FORMED, [HOSTILE_TEXT.osc52]: 'x' }))
    const certify = await runCli(['certify', '--embedded', '--product-file', productFile, '--out', join(scene.dir, 'submission')], {
      cwd: scene.dir,
      env,
      hardLimitMs: 30_000,
    })
    outputs.push(certify.stdout + certify.stderr)
    const submission = join(scene.dir, `submission-${HOSTILE_TEXT.title}`)
    mkdirSync(submission, { recursive: true })
    writeFileSync(join(submission, 'PRODUCT.json'), JSON.stringify({ product: HOSTILE_WELL_FORMED, version: HOSTILE_WELL_FORMED, vendor: HOSTILE_WELL_FORMED }))
    const verify = await runCli(['verify-submission', submission], { cwd: scene.dir, env, hardLimitMs: 30_000 })
    outputs.push(verify.stdout + verify.stderr)
    for (const output of outputs) expectInert(output, { reached: false })
    expect(outputs.join('\n')).toContain('\\e]52;')
    expect(existsSync(join(scene.dir, 'submission'))).toBe(false)
  }, 120_000)
})
