// Interim (1xx) answers never break a request (issue 29): a CDN that sends `103 Early Hints` before every answer
// is read like the server behind it by the suite's client (start-up probe and checks), the proxy and the sink.
// An unasked `100 Continue` (one, or mixed with a 103, before every answer) is read past too: undici's HTTP/1.1
// client refuses it, so the connections' bytes go through src/http/interim-answers.ts (its own test cuts the bytes
// at every offset and covers keep-alive, TLS and proxy tunnels against a raw server).
import { createHmac } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Redactor } from '../../src/http/redact.ts'
import { Transport } from '../../src/http/transport.ts'
import type { RunReport } from '../../src/report/types.ts'
import { startProxy } from '../../src/traffic/proxy.ts'
import type { TrafficExchange } from '../../src/traffic/types.ts'
import { startSink } from '../../src/webhooks/sink.ts'
import { baseEnv, runCli, targetEnv } from './cli.ts'
import { startHostileProcess, type HostileProcess } from './process.ts'
import type { HostileMode } from './server.ts'

let hostile: HostileProcess

beforeAll(async () => {
  hostile = await startHostileProcess()
})

afterAll(async () => {
  await hostile?.close()
})

/**
 * A suite run of `area` (start-up probe included) through the hostile `mode` ends as it does through the plain
 * server: the same exit code and check statuses, none errored, more than `passedOver` passed.
 */
async function expectSameRun(mode: HostileMode, area: string, passedOver: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), `crmconf-${mode}-`))
  try {
    const verdicts: Record<string, { code: number | null; report: RunReport; output: string }> = {}
    for (const served of ['pass', mode] as const) {
      const reportDir = join(dir, served)
      const env = baseEnv({ ...targetEnv(hostile.baseUrls[served], hostile.reference), NO_COLOR: '1', CRM_SEED: '3' })
      const run = await runCli(['run', '--only', area, '--report-dir', reportDir, '--quiet'], { cwd: dir, env, hardLimitMs: 150_000 })
      verdicts[served] = {
        code: run.code,
        report: JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as RunReport,
        output: run.stdout + run.stderr,
      }
    }
    const through = verdicts[mode]!
    expect(through.code, through.output.slice(-2000)).toBe(verdicts.pass!.code)
    expect(through.report.summary.errored, through.output.slice(-2000)).toBe(0)
    expect(through.report.summary.passed).toBeGreaterThan(passedOver)
    const statuses = (report: RunReport) => Object.fromEntries(report.checks.map((c) => [c.id, c.status]))
    expect(statuses(through.report)).toEqual(statuses(verdicts.pass!.report))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

function transport(mode: HostileMode): Transport {
  const key = hostile.reference.keys.main
  return new Transport({
    baseUrl: hostile.baseUrls[mode],
    keys: { main: key },
    redactor: new Redactor([{ name: 'CRM_API_KEY', value: key }]),
    timeoutMs: 10_000,
    maxResponseBytes: 4 * 1024 * 1024,
    concurrency: 2,
    requestBudget: 100,
    maxRetryAfterS: 1,
  })
}

describe('103 Early Hints before every answer', () => {
  it("the suite's client reads every answer: reads, a replayable write and a write that is never repeated", async () => {
    const client = transport('early-hints')
    try {
      const me = await client.send({ method: 'GET', path: '/me' })
      expect(me.error).toBeUndefined()
      expect(me.response?.status).toBe(200)
      const created = await client.send({ method: 'POST', path: '/accounts', body: { name: 'early hints' } })
      expect(created.error).toBeUndefined()
      expect(created.response?.status).toBe(201)
      const id = (created.response?.body as { id: string }).id
      const keyed = await client.send({ method: 'POST', path: '/accounts', body: { name: 'keyed' }, headers: { 'Idempotency-Key': `k-${Date.now()}` } })
      expect(keyed.response?.status).toBe(201)
      const read = await client.send({ method: 'GET', path: `/accounts/${id}` })
      expect(read.response?.status).toBe(200)
      const removed = await client.send({ method: 'DELETE', path: `/accounts/${id}` })
      expect(removed.error).toBeUndefined()
      expect(removed.response?.status).toBeLessThan(300)
    } finally {
      await client.close()
    }
  })

  it('a suite run (start-up probe, sweep and the records area) ends as it does without the CDN', async () => {
    await expectSameRun('early-hints', 'records', 10)
    expect((await hostile.stats()).received['early-hints']).toBeGreaterThan(20)
  }, 200_000)

  it("the validating proxy forwards the target's 103 to its client before the final answer (RFC 9110 §15.2)", async () => {
    const proxy = await startProxy({ target: hostile.baseUrls['early-hints'], host: '127.0.0.1', port: 0, onExchange: () => {} })
    try {
      const seen = await new Promise<{ interim: { status?: number; link?: unknown }[]; final: number | undefined }>((resolve, reject) => {
        const interim: { status?: number; link?: unknown }[] = []
        const req = httpRequest(`${proxy.url}/accounts?limit=2`, { headers: { authorization: `Bearer ${hostile.reference.keys.main}` } }, (res) => {
          res.resume()
          res.on('end', () => resolve({ interim, final: res.statusCode }))
        })
        req.on('information', (info) => interim.push({ status: info.statusCode, link: info.headers.link }))
        req.on('error', reject)
        req.end()
      })
      expect(seen.final).toBe(200)
      expect(seen.interim).toEqual([{ status: 103, link: '</style.css>; rel=preload; as=style' }])
    } finally {
      await proxy.close()
    }
  })

  it('the validating proxy forwards the final answer and judges it', async () => {
    const seen: TrafficExchange[] = []
    const proxy = await startProxy({ target: hostile.baseUrls['early-hints'], host: '127.0.0.1', port: 0, onExchange: (e) => seen.push(e) })
    try {
      const answer = await request(`${proxy.url}/accounts?limit=2`, { headers: { authorization: `Bearer ${hostile.reference.keys.main}` } })
      expect(answer.statusCode).toBe(200)
      expect((await answer.body.json()) as object).toHaveProperty('data')
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(seen.map((e) => e.response?.status)).toEqual([200])
    } finally {
      await proxy.close()
    }
  })
})

/** The sink's secret in these tests. */
const SINK_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'

/** A case.created delivery signed as §6.5 says, for a sink that holds SINK_SECRET: its body and its webhook-* headers. */
function signedDelivery(messageId: string, recordId: string): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify({
    type: 'case.created',
    timestamp: new Date().toISOString(),
    data: { id: recordId, entityType: 'case', object: {}, changes: {} },
  })
  const ts = Math.floor(Date.now() / 1000)
  const key = Buffer.from(SINK_SECRET.slice('whsec_'.length), 'base64')
  const signature = `v1,${createHmac('sha256', key).update(`${messageId}.${ts}.${body}`).digest('base64')}`
  return { body, headers: { 'webhook-id': messageId, 'webhook-timestamp': String(ts), 'webhook-signature': signature } }
}

describe('interim answers around the sink', () => {
  it('a sender that asks for 100 Continue gets it, then the delivery is verified and accepted', async () => {
    const sink = await startSink({ host: '127.0.0.1', port: 0, secret: SINK_SECRET })
    try {
      const { body, headers } = signedDelivery('msg_100', 'x')
      const outcome = await new Promise<{ continued: boolean; status: number }>((resolve, reject) => {
        let continued = false
        const req = httpRequest(sink.url, {
          method: 'POST',
          agent: false,
          headers: { expect: '100-continue', 'content-type': 'application/json', ...headers },
        })
        req.on('continue', () => {
          continued = true
          req.end(body)
        })
        req.on('response', (res) => {
          res.resume()
          res.on('end', () => resolve({ continued, status: res.statusCode ?? 0 }))
        })
        req.on('error', reject)
        req.flushHeaders()
      })
      expect(outcome).toEqual({ continued: true, status: 200 })
      expect(sink.deliveries.map((d) => d.verdict)).toEqual(['accepted'])
    } finally {
      await sink.close()
    }
  })
})

/** What a sink answers on one raw connection to `text` (sent at once, never waiting for a 100), until it closes or goes quiet. */
function rawExchange(url: string, text: string, quietMs = 300): Promise<string> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve) => {
    let got = ''
    let quiet: NodeJS.Timeout | undefined
    const socket = connect(Number(port), hostname, () => socket.write(text))
    const settle = () => {
      clearTimeout(quiet)
      quiet = setTimeout(() => socket.destroy(), quietMs)
    }
    socket.on('data', (data: Buffer) => {
      got += data.toString('latin1')
      settle()
    })
    socket.on('error', () => {})
    socket.on('close', () => {
      clearTimeout(quiet)
      resolve(got)
    })
    settle()
  })
}

describe('Expect: 100-continue at the sink, from a sender that does not wait for it', () => {
  it('the 100 comes first, then the final answer on the same connection, and the delivery is accepted', async () => {
    const sink = await startSink({ host: '127.0.0.1', port: 0, secret: SINK_SECRET })
    try {
      const { body, headers } = signedDelivery('msg_eager', 'y')
      const signedHeaders = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`)
      const answer = await rawExchange(
        sink.url,
        `POST / HTTP/1.1\r\nhost: sink\r\nexpect: 100-continue\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n` +
          `${signedHeaders.join('')}\r\n${body}`,
      )
      expect(answer).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 /)
      expect(sink.deliveries.map((d) => d.verdict)).toEqual(['accepted'])
    } finally {
      await sink.close()
    }
  })

  it('a body declared over the limit gets its 413 without a 100 (so it is never sent), and the connection closes', async () => {
    const sink = await startSink({ host: '127.0.0.1', port: 0, secret: SINK_SECRET, maxBodyBytes: 1000 })
    try {
      const answer = await rawExchange(
        sink.url,
        'POST / HTTP/1.1\r\nhost: sink\r\nexpect: 100-continue\r\ncontent-type: application/json\r\ncontent-length: 5000\r\n\r\n',
        5_000,
      )
      expect(answer).toMatch(/^HTTP\/1\.1 413 /)
      expect(answer).toMatch(/connection: close/i)
      expect(sink.counts().noise).toEqual({ too_large: 1 })
    } finally {
      await sink.close()
    }
  })
})

describe('an unasked 100 Continue before every answer', () => {
  for (const mode of ['unasked-continue', 'interim-mix'] as const) {
    it(`${mode}: the suite's client reads every answer, each request sent once`, async () => {
      const client = transport(mode)
      const before = (await hostile.stats()).received[mode] ?? 0
      try {
        const list = await client.send({ method: 'GET', path: '/accounts?limit=1' })
        expect(list.error).toBeUndefined()
        expect(list.response?.status).toBe(200)
        const created = await client.send({ method: 'POST', path: '/accounts', body: { name: 'unasked continue' } })
        expect(created.response?.status).toBe(201)
        const id = (created.response?.body as { id: string }).id
        const read = await client.send({ method: 'GET', path: `/accounts/${id}` })
        expect((read.response?.body as { id: string }).id).toBe(id)
        const removed = await client.send({ method: 'DELETE', path: `/accounts/${id}` })
        expect(removed.response?.status).toBeLessThan(300)
        expect(((await hostile.stats()).received[mode] ?? 0) - before).toBe(4)
      } finally {
        await client.close()
      }
    })
  }

  it('a suite run (start-up probe and the discovery area) ends as it does without the 100s', async () => {
    await expectSameRun('unasked-continue', 'discovery', 3)
  }, 200_000)

  it('the validating proxy forwards the final answer and judges it', async () => {
    const seen: TrafficExchange[] = []
    const proxy = await startProxy({ target: hostile.baseUrls['interim-mix'], host: '127.0.0.1', port: 0, onExchange: (e) => seen.push(e) })
    try {
      for (let i = 0; i < 3; i++) {
        const answer = await request(`${proxy.url}/accounts?limit=2`, { headers: { authorization: `Bearer ${hostile.reference.keys.main}` } })
        expect(answer.statusCode).toBe(200)
        expect((await answer.body.json()) as object).toHaveProperty('data')
      }
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(seen.map((e) => e.response?.status)).toEqual([200, 200, 200])
    } finally {
      await proxy.close()
    }
  })
})
