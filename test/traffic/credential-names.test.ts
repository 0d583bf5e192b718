// Issue 42 item 5: captures hold credentials nobody configured. Each name that says it carries a credential (a
// header, a query parameter, a cookie, a JSON field, a form field; sent or answered) is fed through a proxy
// started without any CRM_* variable and through verify-traffic of a HAR, and its value is in none of the files
// either writes (record.ndjson, report.json, report.html, junit.xml, summary.md, badge.json) nor in what they print.
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { BIN, baseEnv } from '../hostile/cli.ts'

const dir = mkdtempSync(join(tmpdir(), 'crmconf-credential-names-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// A value per name, unlike anything else in the traffic; long enough that an echo of it is masked too.
const value = (name: string) => `V${randomBytes(9).toString('hex')}${name.replace(/[^A-Za-z]/g, '').slice(0, 6)}`
const fed = <N extends string>(names: readonly N[]) => Object.fromEntries(names.map((n) => [n, value(n)])) as Record<N, string>

const requestHeaders = fed(['Proxy-Authorization', 'X-Gateway-Token', 'X-Api-Key', 'X-Client-Secret', 'X-Session-Id', 'X-Signature', 'X-Password'])
const authorization = value('authorization')
const cookies = fed(['session', 'csrftoken', 'remember_key'])
const query = fed(['access_token', 'api_key', 'client_secret', 'session', 'signature', 'password'])
const jsonFields = fed(['password', 'apiKey', 'clientSecret', 'refresh_token', 'sessionToken', 'signature', 'privateKey'])
const formFields = fed(['password', 'token'])
const responseHeaders = fed(['Set-Cookie', 'X-Session-Token', 'X-Upstream-Key', 'X-Response-Signature'])
const responseFields = fed(['accessToken', 'secret', 'session_id', 'apiKey', 'webhookSignature', 'password'])
// Not credentials: kept, so that the traffic rules can judge them (Idempotency-Key: a retry label, §4.1).
const idempotencyKey = 'idem-kept-visible-0001'

const ALL_VALUES = [
  ...Object.values(requestHeaders),
  authorization,
  ...Object.values(cookies),
  ...Object.values(query),
  ...Object.values(jsonFields),
  ...Object.values(formFields),
  ...Object.values(responseHeaders),
  ...Object.values(responseFields),
]

interface Sent {
  method: string
  path: string
  headers: Record<string, string>
  body?: string
}

const sentHeaders: Record<string, string> = {
  ...requestHeaders,
  authorization: `Basic ${authorization}`,
  cookie: Object.entries(cookies)
    .map(([n, v]) => `${n}=${v}`)
    .join('; '),
}
const queryString = new URLSearchParams({ limit: '3', ...query }).toString()
const TRAFFIC: Sent[] = [
  { method: 'GET', path: `/v1/accounts?${queryString}`, headers: sentHeaders },
  {
    method: 'POST',
    path: '/v1/accounts',
    headers: { ...sentHeaders, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
    body: JSON.stringify({ name: 'Acme', ...jsonFields, nested: { privateKey: jsonFields.privateKey } }),
  },
  {
    method: 'POST',
    path: '/v1/accounts',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ name: 'Acme', ...formFields }).toString(),
  },
]

/**
 * What the fake upstream answers: every credential-named response header and field, and the request's gateway token
 * echoed in a message (masked as a value learned from its name in the same exchange).
 */
function answer(gatewayToken: string | undefined): { status: number; headers: Record<string, string>; body: string } {
  return {
    status: 200,
    headers: { 'content-type': 'application/json', ...responseHeaders },
    body: JSON.stringify({ data: [], nextCursor: '', ...responseFields, message: `token ${gatewayToken ?? 'none'} accepted` }),
  }
}

function cli(args: string[]) {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, env: baseEnv(), stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.on('data', (c: Buffer) => (output += c.toString()))
  child.stderr.on('data', (c: Buffer) => (output += c.toString()))
  const ended = new Promise<number | null>((resolve) => child.on('close', resolve))
  return { child, ended, output: () => output }
}

function send(base: string, sent: Sent): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${sent.path.slice('/v1'.length)}`, { method: sent.method, headers: sent.headers }, (res) => {
      res.resume()
      res.on('end', resolve)
    })
    req.on('error', reject)
    req.end(sent.body)
  })
}

/** Every file under `root`, with its text. */
function filesUnder(root: string): [string, string][] {
  return readdirSync(root).flatMap((name) => {
    const path = join(root, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [[path, readFileSync(path, 'utf8')] as [string, string]]
  })
}

function expectNoValue(files: [string, string][], printed: string) {
  const leaks = [...files, ['(stdout and stderr)', printed] as [string, string]].flatMap(([file, text]) =>
    ALL_VALUES.filter((v) => text.includes(v) || text.includes(encodeURIComponent(v))).map((v) => `${v} in ${file}`),
  )
  expect(leaks).toEqual([])
}

const headerList = (headers: IncomingHttpHeaders | Record<string, string>) =>
  Object.entries(headers).flatMap(([name, v]) => (Array.isArray(v) ? v : [String(v)]).map((value) => ({ name, value })))

describe('credentials masked by name, with no CRM_* variable set', () => {
  it('through the proxy: record.ndjson and every report file hold none of them', async () => {
    const upstream = createServer((req, res) => {
      req.resume()
      req.on('end', () => {
        const { status, headers, body } = answer(req.headers['x-gateway-token'] as string | undefined)
        res.writeHead(status, headers).end(body)
      })
    })
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
    const target = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`
    const reportDir = join(dir, 'proxy-report')
    const record = join(dir, 'record.ndjson')
    const proxy = cli(['proxy', '--target', target, '--port', '0', '--report-dir', reportDir, '--record', record])
    try {
      const base = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no listening line: ${proxy.output()}`)), 30_000)
        const look = () => {
          const found = /proxy listening on (\S+)/.exec(proxy.output())
          if (found) {
            clearTimeout(timer)
            resolve(found[1]!)
          } else setTimeout(look, 50)
        }
        look()
      })
      for (const sent of TRAFFIC) await send(base, sent)
      proxy.child.kill('SIGTERM')
      await proxy.ended
    } finally {
      if (proxy.child.exitCode === null) proxy.child.kill('SIGKILL')
      upstream.close()
    }
    const files: [string, string][] = [...filesUnder(reportDir), [record, readFileSync(record, 'utf8')]]
    expect(files.map(([f]) => f.slice(dir.length + 1))).toEqual(
      expect.arrayContaining(['record.ndjson', 'proxy-report/report.json', 'proxy-report/report.html', 'proxy-report/junit.xml', 'proxy-report/summary.md']),
    )
    expect(readFileSync(record, 'utf8').trim().split('\n')).toHaveLength(TRAFFIC.length)
    expectNoValue(files, proxy.output())
    // What is no credential stays, to be judged: the Idempotency-Key and the scheme of an Authorization.
    expect(readFileSync(record, 'utf8')).toContain(idempotencyKey)
    expect(readFileSync(record, 'utf8')).toContain('Basic <redacted>')
  }, 60_000)

  it('through verify-traffic of a HAR: every report file holds none of them', async () => {
    const entries = TRAFFIC.map((sent, i) => {
      const { status, headers, body } = answer(sent.headers['X-Gateway-Token'])
      return {
        startedDateTime: new Date(Date.UTC(2026, 10, 28, 12, 0, i)).toISOString(),
        time: 5,
        request: {
          method: sent.method,
          url: `https://crm.example.com${sent.path}`,
          httpVersion: 'HTTP/1.1',
          headers: headerList(sent.headers),
          queryString: [...new URL(`https://h${sent.path}`).searchParams].map(([name, value]) => ({ name, value })),
          cookies: Object.entries(cookies).map(([name, value]) => ({ name, value })),
          headersSize: -1,
          bodySize: sent.body ? Buffer.byteLength(sent.body) : 0,
          ...(sent.body ? { postData: { mimeType: sent.headers['content-type'], text: sent.body } } : {}),
        },
        response: {
          status,
          statusText: 'OK',
          httpVersion: 'HTTP/1.1',
          headers: headerList(headers),
          cookies: [{ name: 'session', value: responseHeaders['Set-Cookie'] }],
          content: { size: body.length, mimeType: 'application/json', text: body },
          redirectURL: '',
          headersSize: -1,
          bodySize: body.length,
        },
        cache: {},
        timings: { send: 0, wait: 5, receive: 0 },
      }
    })
    const har = join(dir, 'captured.har')
    writeFileSync(har, JSON.stringify({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries } }))
    const reportDir = join(dir, 'har-report')
    const run = cli(['verify-traffic', har, '--report-dir', reportDir])
    expect([0, 1]).toContain(await run.ended)
    const files = filesUnder(reportDir)
    expect(files.map(([f]) => f.slice(reportDir.length + 1))).toEqual(expect.arrayContaining(['report.json', 'report.html', 'junit.xml', 'summary.md']))
    expectNoValue(files, run.output())
  }, 60_000)
})
