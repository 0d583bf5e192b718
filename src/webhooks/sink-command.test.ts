import { execFile, spawn } from 'node:child_process'
import { createHmac } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { generate } from 'selfsigned'
import { describe, expect, it } from 'vitest'
import { CrmConfError } from '../errors.ts'
import type { SinkChildMeasure, SinkChildMessage } from '../../test/hostile/sink-child.ts'
import { SINK_DEFAULTS } from './sink.ts'
import type { Sink } from './sink.ts'
import { parseRespondRule, runSinkCommand } from './sink-command.ts'
import type { SinkCommandOptions, SinkSummary } from './sink-command.ts'

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const KEY = Buffer.from(SECRET.slice('whsec_'.length), 'base64')

function deliver(url: string, type: string, id: string, signature?: string): Promise<number> {
  const body = JSON.stringify({ type, timestamp: new Date().toISOString(), data: { id: 'x', entityType: type.split('.')[0], object: {}, changes: {} } })
  const ts = Math.floor(Date.now() / 1000)
  const sig = signature ?? `v1,${createHmac('sha256', KEY).update(`${id}.${ts}.${body}`).digest('base64')}`
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent: false, headers: { 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': sig } },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

async function run(options: Partial<SinkCommandOptions>, drive: (sink: Sink) => Promise<void>): Promise<{ summary: SinkSummary; output: string }> {
  let output = ''
  const controller = new AbortController()
  let started: (sink: Sink) => void = () => undefined
  const sinkReady = new Promise<Sink>((resolve) => (started = resolve))
  const running = runSinkCommand(
    { host: '127.0.0.1', port: 0, secret: SECRET, ...options },
    { signal: controller.signal, write: (t) => (output += t), onStarted: started },
  )
  try {
    await drive(await sinkReady)
  } finally {
    controller.abort()
  }
  return { summary: await running, output }
}

describe('runSinkCommand', () => {
  it('prints each delivery, logs it, answers chosen ones non-2xx, and sums up on stop', async () => {
    const logFile = join(mkdtempSync(join(tmpdir(), 'crmconf-sink-cmd-')), 'log.jsonl')
    const statuses: number[] = []
    const { summary, output } = await run({ logFile, respond: ['invoice.paid=503:1'] }, async (sink) => {
      statuses.push(await deliver(sink.url, 'case.created', 'msg_1'))
      statuses.push(await deliver(sink.url, 'invoice.paid', 'msg_2'))
      statuses.push(await deliver(sink.url, 'invoice.paid', 'msg_2'))
      statuses.push(await deliver(sink.url, 'case.created', 'msg_3', 'v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc='))
    })
    expect(statuses).toEqual([200, 503, 200, 401])
    expect(summary).toMatchObject({ deliveries: 4, accepted: 2, duplicate: 1, rejected: 1, reasons: { bad_signature: 1 }, tlsFailures: 0 })
    expect(output).toMatch(/^Webhook sink listening on http:\/\/127\.0\.0\.1:\d+\/ \(plain HTTP\)$/m)
    expect(output).toMatch(/answering 503 to invoice\.paid \(first 1 attempt/)
    expect(output).toMatch(
      /^  limits: bodies up to 1048576 bytes \(413 past it\), headers within 10000 ms and bodies within 10000 ms \(408\); keeps the latest 10000 signed and 1000 unsigned deliveries, counts the rest$/m,
    )
    expect(output).toMatch(/^✓ case\.created msg_1 accepted$/m)
    expect(output).toMatch(/^✓ invoice\.paid msg_2 accepted → 503/m)
    expect(output).toMatch(/^↻ invoice\.paid msg_2 duplicate \(attempt 2\)$/m)
    expect(output).toMatch(/^✗ case\.created msg_3 rejected bad_signature → 401: /m)
    expect(output).toMatch(/^Stopped: 4 deliveries: 2 accepted, 1 duplicate, 1 rejected \(bad_signature 1\)$/m)
    expect(output).not.toContain(SECRET)
    expect(readFileSync(logFile, 'utf8').trim().split('\n')).toHaveLength(4)
  })

  it('serves HTTPS with a given certificate and key', async () => {
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], { keyType: 'ec', algorithm: 'sha256' })
    const dir = mkdtempSync(join(tmpdir(), 'crmconf-sink-cert-'))
    writeFileSync(join(dir, 'cert.pem'), pems.cert)
    writeFileSync(join(dir, 'key.pem'), pems.private)
    const { output } = await run({ cert: join(dir, 'cert.pem'), key: join(dir, 'key.pem') }, async (sink) => {
      expect(sink.url).toMatch(/^https:/)
    })
    expect(output).toMatch(/certificate: from --cert, SHA-256 [0-9A-F:]{95}/)
  })

  it('warns about plain HTTP on a non-loopback address', async () => {
    const { output } = await run({ host: '0.0.0.0' }, async () => undefined)
    expect(output).toMatch(/warning: plain HTTP on a non-loopback address/)
  })

  it.each<[string, Partial<SinkCommandOptions>, string]>([
    ['an unknown TLS mode', { tls: 'acme' }, 'CRMCONF_USAGE'],
    ['--tls with --cert', { tls: 'self-signed', cert: 'c.pem', key: 'k.pem' }, 'CRMCONF_USAGE'],
    ['--cert without --key', { cert: 'c.pem' }, 'CRMCONF_USAGE'],
    ['a certificate file that does not exist', { cert: '/nonexistent/c.pem', key: '/nonexistent/k.pem' }, 'CRMCONF_CONFIG_INVALID'],
    ['a bad --respond rule', { respond: ['invoice.paid=99'] }, 'CRMCONF_USAGE'],
    ['a secret that is not whsec_', { secret: 'hunter2' }, 'CRMCONF_CONFIG_INVALID'],
  ])('refuses %s before listening', async (_what, options, code) => {
    const error = await runSinkCommand({ host: '127.0.0.1', port: 0, secret: SECRET, ...options }, { write: () => undefined }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(CrmConfError)
    expect(error).toMatchObject({ code })
  })

  it.each([
    ['invoice.paid=503', { type: 'invoice.paid', status: 503 }],
    ['*=500:2', { type: '*', status: 500, attempts: 2 }],
    ['case.created=410', { type: 'case.created', status: 410 }],
  ])('parses --respond %s', (text, rule) => {
    expect(parseRespondRule(text)).toEqual(rule)
  })
})

describe('the sink command under a flood of forged deliveries', () => {
  const ROOT = resolve(import.meta.dirname, '..', '..')
  const RUN_TS = join(ROOT, 'bin', 'run-ts.mjs')
  /** Enough to show growth: a kept forgery takes about 2 KB, so keeping them all would add some 40 MB. */
  const FLOOD = 20_000
  const WARM_UP = 2_000
  /** Far below what keeping the flood would take (issue 17: 212 → 581 MB over 152,000 forgeries). */
  const HEAP_GROWTH_BOUND = 8 * 1024 * 1024

  function flood(url: string, count: number): Promise<Record<string, number>> {
    return new Promise((done, fail) => {
      execFile(
        process.execPath,
        [RUN_TS, join(ROOT, 'test', 'hostile', 'flood-child.ts'), url, String(count), '16'],
        { cwd: ROOT, maxBuffer: 1024 * 1024 },
        (error, stdout) => {
          if (error) fail(error)
          else done((JSON.parse(stdout.trim().split('\n').at(-1)!) as { statuses: Record<string, number> }).statuses)
        },
      )
    })
  }

  it("keeps its memory bounded: the forgeries are counted, not kept (memory measured in the sink's own process)", async () => {
    // The sink in a child process of its own, so that the figures are its alone; the flood from another.
    // With a log file, as `crm-conformance sink` keeps one by default.
    const logFile = join(mkdtempSync(join(tmpdir(), 'crmconf-sink-flood-')), 'deliveries.jsonl')
    const child = spawn(process.execPath, ['--expose-gc', RUN_TS, join(ROOT, 'test', 'hostile', 'sink-child.ts'), SECRET, logFile], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    })
    try {
      const { url } = await new Promise<{ url: string }>((ready, fail) => {
        child.once('error', fail)
        child.once('exit', (code) => fail(new Error(`the sink child exited early (${code})`)))
        child.once('message', (m) => ready(m as { url: string }))
      })
      child.removeAllListeners('exit')
      let nextId = 0
      const measure = (): Promise<SinkChildMeasure> => {
        const id = ++nextId
        return new Promise((answered) => {
          const onMessage = (m: SinkChildMeasure) => {
            if (m.type !== 'measure' || m.id !== id) return
            child.off('message', onMessage)
            answered(m)
          }
          child.on('message', onMessage)
          child.send({ type: 'measure', id } satisfies SinkChildMessage)
        })
      }

      // The warm-up fills what the sink may keep of unsigned deliveries naming a record (SINK_DEFAULTS.maxUnverified).
      expect(await flood(url, WARM_UP)).toEqual({ 401: WARM_UP })
      const before = await measure()
      expect(await flood(url, FLOOD)).toEqual({ 401: FLOOD })
      const after = await measure()

      expect(after.received).toBe(WARM_UP + FLOOD)
      expect(after.kept).toBe(SINK_DEFAULTS.maxUnverified)
      expect(after.noise).toEqual({ bad_signature: WARM_UP + FLOOD - SINK_DEFAULTS.maxUnverified })
      expect(after.heapUsed - before.heapUsed).toBeLessThan(HEAP_GROWTH_BOUND)
    } finally {
      if (child.connected) child.send({ type: 'stop' } satisfies SinkChildMessage)
      await new Promise((exited) => (child.exitCode !== null ? exited(undefined) : child.once('exit', exited)))
      rmSync(dirname(logFile), { recursive: true, force: true })
    }
  }, 300_000)
})
