import { createHmac } from 'node:crypto'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generate } from 'selfsigned'
import { describe, expect, it } from 'vitest'
import { CrmConfError } from '../errors.ts'
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
    const req = request(url, { method: 'POST', agent: false, headers: { 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': sig } }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
    })
    req.on('error', reject)
    req.end(body)
  })
}

async function run(options: Partial<SinkCommandOptions>, drive: (sink: Sink) => Promise<void>): Promise<{ summary: SinkSummary; output: string }> {
  let output = ''
  const controller = new AbortController()
  let started: (sink: Sink) => void = () => undefined
  const sinkReady = new Promise<Sink>((resolve) => (started = resolve))
  const running = runSinkCommand({ host: '127.0.0.1', port: 0, secret: SECRET, ...options }, { signal: controller.signal, write: (t) => (output += t), onStarted: started })
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
