// Issue 28: recorded traffic as real writers write it and as hostile files are. Playwright's HAR in each content
// mode and as a .zip, calls that failed in the browser, pages outside the API, credentials of another scheme,
// bodies that are not JSON, header names that are Object's own, JSON nested 100,000 deep, and a line too long
// to read: each gives the verdict of what the server answered, never a crash and never a violation for what
// the file left out.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { strToU8, zipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { harOf } from '../../src/traffic/har.ts'
import { MAX_LINE_BYTES, readNdjson } from '../../src/traffic/ndjson.ts'
import type { TrafficExchange } from '../../src/traffic/types.ts'
import { verifyTrafficCommand } from '../../src/traffic/verify-command.ts'
import { runProxied, serverFailures, type ProxiedRun } from './harness.ts'

const dir = mkdtempSync(join(tmpdir(), 'crmconf-real-files-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

let run: ProxiedRun
beforeAll(async () => {
  run = await runProxied()
}, 120_000)

type HarDoc = { log: { entries: Record<string, any>[] } }

const harDoc = (exchanges: TrafficExchange[]): HarDoc => JSON.parse(harOf(exchanges)) as HarDoc

async function verify(name: string, content: string | Uint8Array, env: NodeJS.ProcessEnv = {}) {
  const file = join(dir, name)
  writeFileSync(file, content)
  const lines: string[] = []
  const outcome = await verifyTrafficCommand({ files: [file], reportDir: join(dir, `r-${name}`), write: (t) => void lines.push(t), env })
  const { readFileSync } = await import('node:fs')
  const report = JSON.parse(readFileSync(join(outcome.reportDir!, 'report.json'), 'utf8')) as {
    checks: { id: string; status: string; side?: string; message: string }[]
    traffic: { exchanges: number; answered: number; headline: { tone: string } }
  }
  return { outcome, report, output: lines.join('') }
}

describe('HAR as Playwright writes it', () => {
  /** Playwright's content 'omit': empty postData text with the body's size; no response text. */
  function omitted(doc: HarDoc, attach: boolean): HarDoc {
    for (const entry of doc.log.entries) {
      const post = entry.request.postData
      if (post) {
        entry.request.bodySize = Buffer.byteLength(String(post.text))
        entry.request.postData = attach ? { mimeType: post.mimeType, _file: 'a1b2.json' } : { mimeType: post.mimeType, text: '' }
      }
      const content = entry.response.content
      if (content.text !== undefined) {
        delete content.text
        delete content.encoding
        if (attach) content._file = 'c3d4.json'
      }
    }
    return doc
  }

  it.each([
    ['omit', false],
    ['attach', true],
  ])(
    'judges no body the file left out (content %s): no client body violation, no server violation',
    async (mode, attach) => {
      const { outcome, report } = await verify(`pw-${mode}.har`, JSON.stringify(omitted(harDoc(run.exchanges), attach)))
      expect(serverFailures(report.checks)).toEqual([])
      expect(report.checks.find((c) => c.id === 'traffic.client.body')?.status).toBe('skipped')
      expect(report.traffic.answered).toBeGreaterThan(0)
      expect(outcome.exitCode).not.toBe(2)
    },
    60_000,
  )

  it('reads a .zip HAR (the HAR beside its attached bodies) as it reads the .har', async () => {
    const har = harOf(run.exchanges)
    const plain = await verify('pw.har', har)
    const zip = zipSync({ 'har.har': strToU8(har), 'a1b2.json': strToU8('{"name":"attached"}') })
    const zipped = await verify('pw.zip', zip)
    expect(zipped.outcome.exitCode).toBe(plain.outcome.exitCode)
    expect(zipped.report.traffic.exchanges).toBe(plain.report.traffic.exchanges)
    expect(zipped.report.checks.map((c) => [c.id, c.status])).toEqual(plain.report.checks.map((c) => [c.id, c.status]))
    const empty = await verify('nothing.zip', zipSync({ 'readme.txt': strToU8('no har here') }))
    expect(empty.outcome.exitCode).toBe(2)
    expect(empty.output).toMatch(/no \.har file/)
  }, 60_000)

  it('takes calls that failed in the browser (status 0 or -1, _failureText) for unanswered: nothing verified, exit 2', async () => {
    const doc = harDoc(run.exchanges.slice(0, 20))
    doc.log.entries.forEach((entry, i) => {
      entry.response = { status: i % 2 ? 0 : -1, statusText: '', headers: [], content: { size: 0, mimeType: '' }, _failureText: 'net::ERR_FAILED' }
    })
    // Pages and assets outside the base path are neither judged nor counted.
    doc.log.entries.push({
      startedDateTime: '2026-11-26T00:00:00.000Z',
      time: 1,
      request: { method: 'GET', url: 'http://127.0.0.1/app/index.html', headers: [] },
      response: { status: 200, headers: [{ name: 'content-type', value: 'text/html' }], content: { size: 5, text: '<p>x' } },
    })
    const { outcome, report, output } = await verify('failed-calls.har', JSON.stringify(doc))
    expect(outcome.exitCode).toBe(2)
    expect(report.traffic.exchanges).toBe(20)
    expect(report.traffic.answered).toBe(0)
    expect(report.traffic.headline.tone).toBe('nothing-verified')
    expect(output).toMatch(/nothing verified: the server answered none of 20 calls/)
  }, 60_000)
})

describe('client rules on recorded traffic', () => {
  const call = (headers: { name: string; value: string }[], postText?: string) => ({
    startedDateTime: '2026-11-26T00:00:00.000Z',
    time: 5,
    request: {
      method: 'POST',
      url: 'http://127.0.0.1:9/v1/accounts',
      headers: [{ name: 'content-type', value: 'application/json' }, ...headers],
      ...(postText !== undefined ? { postData: { mimeType: 'application/json', text: postText }, bodySize: postText.length } : {}),
    },
    response: {
      status: 401,
      headers: [
        { name: 'content-type', value: 'application/json' },
        { name: 'ratelimit-limit', value: '600' },
        { name: 'ratelimit-remaining', value: '599' },
        { name: 'ratelimit-reset', value: '60' },
        { name: 'constructor', value: 'made by a gateway' },
        { name: '__proto__', value: 'also data' },
      ],
      content: { size: 60, mimeType: 'application/json', text: '{"error":{"code":"unauthorized","message":"key missing"}}' },
    },
  })

  it("names a scheme other than Bearer and a body that is not JSON as the client's, and keeps header names as data", async () => {
    const doc = { log: { version: '1.2', entries: [call([{ name: 'Authorization', value: 'Basic dXNlcjpwYXNz' }], 'name=Acme')] } }
    const { report } = await verify('basic.har', JSON.stringify(doc))
    const key = report.checks.find((c) => c.id === 'traffic.client.key')!
    expect(key).toMatchObject({ status: 'failed', side: 'client' })
    expect(key.message).toMatch(/Authorization with the Basic scheme, not Bearer/)
    const body = report.checks.find((c) => c.id === 'traffic.client.body')!
    expect(body).toMatchObject({ status: 'failed', side: 'client' })
    expect(body.message).toMatch(/body is not JSON/)
    expect(body.message).not.toMatch(/must be object/)
    const exchanges: TrafficExchange[] = []
    const ndjson = join(dir, 'headers.ndjson')
    writeFileSync(ndjson, '{"request":{"method":"GET","url":"http://h/v1/me","headers":{"constructor":"a","__proto__":"b"}},"startedAt":"","endedAt":""}\n')
    for await (const ex of readNdjson(ndjson)) exchanges.push(ex)
    expect(Object.entries(exchanges[0]!.request.headers)).toEqual([
      ['constructor', 'a'],
      ['__proto__', 'b'],
    ])
  }, 60_000)
})

describe('hostile files never end a verification', () => {
  it('reads JSON nested 100,000 deep with no CRM_* variable set: the body is unjudged, the report written', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`
    const doc = harDoc(run.exchanges.slice(0, 5))
    doc.log.entries[0]!.response.content = { size: deep.length, mimeType: 'application/json', text: deep }
    const { outcome, report } = await verify('deep.har', JSON.stringify(doc), {})
    expect(outcome.exitCode).not.toBe(2)
    expect(report.traffic.exchanges).toBe(5)
  }, 60_000)

  it('reads a HAR whose one entry carries a 100 MB body without holding it: the body is unjudged, memory flat', async () => {
    const { harEntryTexts, MAX_KEPT_STRING_BYTES } = await import('../../src/traffic/har-entries.ts')
    const doc = harDoc(run.exchanges.slice(0, 3))
    const big = 'A'.repeat(100 * 1024 * 1024)
    doc.log.entries[1]!.response.content = { size: big.length, mimeType: 'application/json', text: big, encoding: 'base64' }
    const text = JSON.stringify(doc)
    const texts: string[] = []
    // Fed in 64 KiB chunks as a file stream would be.
    const chunks = async function* () {
      for (let at = 0; at < text.length; at += 65_536) yield text.slice(at, at + 65_536)
    }
    for await (const t of harEntryTexts(chunks())) texts.push(t)
    expect(texts).toHaveLength(3)
    expect(texts[1]!.length).toBeLessThan(MAX_KEPT_STRING_BYTES)
    const file = join(dir, 'one-huge-entry.har')
    writeFileSync(file, text)
    const outcome = await verifyTrafficCommand({ files: [file], reportDir: join(dir, 'r-one-huge'), write: () => {}, env: {} })
    expect(outcome.exchanges).toBe(3)
  }, 120_000)

  it('refuses a line too long to read as an unreadable input (exit 2, naming the line), without reading it whole', async () => {
    const { readFileSync } = await import('node:fs')
    const good = readFileSync(join(dir, 'headers.ndjson'), 'utf8')
    const file = join(dir, 'huge-line.ndjson')
    writeFileSync(file, `${good}${'{"request":'}${' '.repeat(MAX_LINE_BYTES + 10)}}\n`)
    const lines: string[] = []
    const outcome = await verifyTrafficCommand({ files: [file], reportDir: join(dir, 'r-huge'), write: (t) => void lines.push(t), env: {} })
    expect(outcome.exitCode).toBe(2)
    expect(lines.join('')).toMatch(/line 2 is longer than \d+ bytes/)
  }, 60_000)
})
