import { describe, expect, it } from 'vitest'
import type { Exchange } from '../http/exchange.ts'
import { createdByRun } from './run-records.ts'

let seq = 0
function exchange(method: string, status: number | undefined, body: unknown, startedAt: string): Exchange {
  return {
    seq: ++seq,
    keyRole: 'main',
    request: { method, url: 'http://crm.test/v1/cases', headers: {} },
    ...(status === undefined ? { error: { code: 'CRMCONF_TIMEOUT', message: 'timed out' } } : { response: { status, headers: {}, body } }),
    startedAt,
    durationMs: 5,
  }
}

describe('createdByRun', () => {
  const exchanges: Exchange[] = []
  const created = createdByRun(exchanges)
  const at = (iso: string) => Date.parse(iso)

  it('ties an id the run created, from the time its create was sent', () => {
    exchanges.push(exchange('POST', 201, { id: 'case-1' }, '2026-01-01T00:00:10.000Z'))
    expect(created('case-1', at('2026-01-01T00:00:10.000Z'))).toBe(true)
    expect(created('case-1', at('2026-01-01T00:01:00.000Z'))).toBe(true)
    expect(created('case-1', at('2026-01-01T00:00:09.999Z'))).toBe(false)
  })

  it('reads exchanges recorded after it was made', () => {
    expect(created('case-2', at('2026-01-01T00:00:30.000Z'))).toBe(false)
    exchanges.push(exchange('POST', 200, { id: 'case-2' }, '2026-01-01T00:00:20.000Z'))
    expect(created('case-2', at('2026-01-01T00:00:30.000Z'))).toBe(true)
  })

  it('ties nothing else: reads, refused creates, ids in other places, calls with no answer', () => {
    exchanges.push(exchange('GET', 200, { id: 'read-1' }, '2026-01-01T00:00:00.000Z'))
    exchanges.push(exchange('POST', 400, { id: 'refused-1' }, '2026-01-01T00:00:00.000Z'))
    exchanges.push(exchange('PATCH', 200, { id: 'updated-1' }, '2026-01-01T00:00:00.000Z'))
    exchanges.push(exchange('POST', 201, { data: { id: 'nested-1' } }, '2026-01-01T00:00:00.000Z'))
    exchanges.push(exchange('POST', undefined, undefined, '2026-01-01T00:00:00.000Z'))
    for (const id of ['read-1', 'refused-1', 'updated-1', 'nested-1', 'never']) expect(created(id, at('2026-01-02T00:00:00.000Z')), id).toBe(false)
  })

  it('keeps the earliest create of an id (an idempotent replay answers the same record)', () => {
    exchanges.push(exchange('POST', 201, { id: 'case-3' }, '2026-01-01T00:00:40.000Z'))
    exchanges.push(exchange('POST', 201, { id: 'case-3' }, '2026-01-01T00:00:50.000Z'))
    expect(created('case-3', at('2026-01-01T00:00:45.000Z'))).toBe(true)
  })
})
