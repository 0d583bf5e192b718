// verify-traffic --jobs on a HAR: the reading thread parses only each entry's request to route it (har.ts `light`)
// and each entry is parsed whole once, by the thread that judges it; the report is the one thread's, also when an
// entry is broken where only a whole parse sees it (then one thread reads the files again and stops there).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { gunzipSync } from 'node:zlib'
import { afterAll, describe, expect, it } from 'vitest'
import { harEntries } from '../../src/traffic/har-entries.ts'
import { harOf } from '../../src/traffic/har.ts'
import { exchangeOfLine } from '../../src/traffic/ndjson.ts'
import { verifyTrafficCommand } from '../../src/traffic/verify-command.ts'

const dir = mkdtempSync(join(tmpdir(), 'crmconf-jobs-har-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// A key rule (scopes) and a collection rule (read after write) break in this traffic.
const exchanges = ['auth.scopes-ignored', 'records.change-not-persisted'].flatMap((f) =>
  gunzipSync(readFileSync(join(import.meta.dirname, 'fixtures', 'shards', `${f}.ndjson.gz`)))
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, i) => exchangeOfLine(JSON.parse(line), f, i + 1)),
)
const entries: string[] = (JSON.parse(harOf(exchanges)) as { log: { entries: unknown[] } }).log.entries.map((e) => JSON.stringify(e))
const harText = (list: string[]) => `{"log":{"version":"1.2","creator":{"name":"test","version":"0"},"entries":[${list.join(',')}]}}`

/** What the report says, and what was printed, for the HAR `list` judged with `jobs` threads. */
async function judged(name: string, list: string[], jobs: number) {
  const file = join(dir, `${name}.har`)
  writeFileSync(file, harText(list))
  const printed: string[] = []
  const outcome = await verifyTrafficCommand({ files: [file], jobs, reportDir: join(dir, `${name}-${jobs}`), env: {}, write: (t) => void printed.push(t) })
  const r = JSON.parse(readFileSync(join(dir, `${name}-${jobs}`, 'report.json'), 'utf8'))
  return {
    exitCode: outcome.exitCode,
    printed: printed.join('').replace(/reports: .*/, ''),
    verdict: r.verdict,
    label: r.verdictLabel,
    exchanges: r.traffic.exchanges,
    answered: r.traffic.answered,
    rows: r.checks.map((c: Record<string, unknown>) => [c.id, c.status, c.judged, c.violations, c.message, c.side, c.evidence]),
  }
}

/** The entry broken past its request: JSON.parse fails on it, the request alone parses. */
const brokenAfterRequest = (entry: string) => `${entry.slice(0, -1)},"x":tru}`

describe('verify-traffic --jobs on a HAR', () => {
  it('the scanner finds each entry’s request: the last one, escaped names too, none when it is no object', async () => {
    const list = [
      '{"request":{"method":"GET","url":"/v1/a"},"response":{"status":200}}',
      '{"re\\u0071uest":{"method":"POST","url":"/v1/b","x":"}\\"{"}}',
      '{"request":{"method":"GET","url":"/first"},"request":{"method":"GET","url":"/last"}}',
      '{"request":"GET /v1/c"}',
      '{"request":{"method":"GET","url":"/v1/d"},"request":3}',
    ]
    const found = []
    for await (const entry of harEntries(Readable.from([harText(list)]))) found.push(entry)
    const requests = found.map((e) => (e.request ? JSON.parse(e.bytes.toString('utf8', e.request.start, e.request.end)) : undefined))
    expect(requests).toEqual(list.map((text) => (JSON.parse(text) as { request: unknown }).request).map((r) => (typeof r === 'object' ? r : undefined)))
  })

  it('--jobs 2 reports what --jobs 1 does', async () => {
    const one = await judged('whole', entries, 1)
    expect(one.exitCode).toBe(1)
    expect(await judged('whole', entries, 2)).toEqual(one)
  }, 120_000)

  it('an entry broken past its request, judged by a worker or by the reader, or not of the API: the read stops where one thread stops', async () => {
    const contacts = entries.findIndex((e) => e.includes('/v1/contacts') || e.includes('/v1/cases'))
    const accounts = entries.findIndex((e) => e.includes('/v1/accounts'))
    expect(contacts).toBeGreaterThan(0)
    expect(accounts).toBeGreaterThan(0)
    const asset = JSON.stringify({
      request: { method: 'GET', url: 'http://127.0.0.1/app.js', headers: [] },
      response: { status: 200, headers: [], content: { size: 0 } },
    })
    for (const [name, at, entry] of [
      ['worker', contacts, brokenAfterRequest(entries[contacts]!)],
      ['reader', accounts, brokenAfterRequest(entries[accounts]!)],
      ['asset', 3, brokenAfterRequest(asset)],
    ] as const) {
      const list = [...entries.slice(0, at), entry, ...entries.slice(at + 1)]
      const one = await judged(name, list, 1)
      expect(one.exitCode, name).toBe(2)
      expect(one.printed, name).toMatch(/cannot read .*entry/)
      expect(await judged(name, list, 2), name).toEqual(one)
    }
  }, 240_000)
})
