// The explorer's commands that put steps together (issue 39): walks with writes between pages judged only on what
// the spec fixes, reads with every configured key kind (and none sent for a kind not configured), payments and
// orders on fixtures mirrored into the model (only in the full profile, only when the fixture is configured).
import { expect, test } from 'vitest'
import { DEFAULTS } from '../../src/config/config.ts'
import { runInProcess, type InProcessRun } from '../../src/run/in-process.ts'
import { catalogue } from '../../suites/index.ts'
import { ASPECTS, interleavedVerdict, validKeyVerdict } from '../../suites/explore/contract.ts'
import type { Profile } from '../../src/vocabulary.ts'
import { openOracle } from '../../src/run/oracle.ts'

const explore = (seed: number, options: { faults?: string[]; config?: Record<string, unknown>; profile?: Profile } = {}): Promise<InProcessRun> =>
  runInProcess({
    checks: catalogue,
    only: ['explore'],
    embedded: { faults: options.faults ?? [] },
    seed,
    profile: options.profile,
    config: { exploreRequests: DEFAULTS.exploreRequests, webhookSecret: '', ...options.config },
  })

const failed = (run: InProcessRun) => run.results.filter((r) => r.status === 'failed').map((r) => `${r.id}: ${r.message}`)
test('a walk with writes between pages compares only untouched records, at SHOULD: the spec fixes no more for them', () => {
  expect(ASPECTS['walk-writes'].level).toBe('SHOULD')
  expect(interleavedVerdict('walk', [{ index: 0, target: 1, model: 1 }])).toBeUndefined()
  const skipped = interleavedVerdict('walk', [
    { index: 0, target: 1, model: 1 },
    { index: 2, target: 0, model: 1 },
  ])
  expect(skipped).toMatchObject({ aspect: 'walk-writes' })
  expect((skipped as { message: string }).message).toContain('#2 shown 0 times, the model once')
  expect(interleavedVerdict('walk', [{ index: 1, target: 2, model: 1 }])).toMatchObject({ aspect: 'walk-writes' })
})

test('a read with a valid key is placed only on 401 and 5xx; another difference is information', () => {
  expect(validKeyVerdict('get', { status: 401, body: {} }, { status: 200, body: {} })).toMatchObject({ aspect: 'status' })
  expect(validKeyVerdict('get', { status: 502, body: {} }, { status: 200, body: {} })).toMatchObject({ aspect: 'status' })
  expect(validKeyVerdict('get', { status: 404, body: {} }, { status: 200, body: {} })).toHaveProperty('unplaced')
  expect(validKeyVerdict('get', { status: 200, body: {} }, { status: 200, body: {} })).toBeUndefined()
})

test.each([
  // The walk with a write between pages: one per exploration, so the CI budget catches it on every seed.
  ['pagination.offset-cursor', 'explore.walk-writes', 1, DEFAULTS.exploreRequests],
  // The key-kind reads and the fixture commands are one draw in three sequences: a budget of 400 makes a few.
  ['auth.revocation-ignored', 'explore.status', 1, 400],
  ['auth.ip-allowlist-ignored', 'explore.status', 1, 400],
  ['auth.scopes-ignored', 'explore.status', 2, 400],
  ['auth.list-any-workspace', 'explore.list-membership', 1, 400],
  ['state.order-accepted-refused', 'explore.status', 1, 400],
])(
  'the explorer catches %s (%s, seed %i, budget %i)',
  async (fault, check, seed, budget) => {
    const run = await explore(seed, { faults: [fault], config: { exploreRequests: budget } })
    const row = run.results.find((r) => r.id === check)!
    expect(row.status, row.message).toBe('failed')
  },
  120_000,
)

test('key kinds and fixtures not configured are never sent; payments and orders only in the full profile', async () => {
  const unset = { revoked: undefined, ipBlocked: undefined, foreign: undefined, restricted: undefined, roleLimited: undefined }
  const fixtures = { sentInvoiceId: undefined, acceptedQuotationId: undefined, sentQuotationId: undefined, conversationId: undefined }
  const unsetRun = await explore(3, { config: { keys: unset, fixtures, exploreRequests: 400 } })
  const safeRun = await explore(4, { profile: 'safe', config: { exploreRequests: 400 } })
  for (const [seed, run] of [
    [3, unsetRun],
    [4, safeRun],
  ] as const) {
    expect(failed(run), `seed ${seed}`).toEqual([])
    const byKey = run.session.transport.stats.byKey
    expect(byKey.main ?? 0).toBeGreaterThan(0)
    if (seed === 3) expect(Object.keys(byKey), 'only the main key is sent').toEqual(['main'])
    expect(
      run.leftovers.filter((l) => l.resource === 'payment' || l.resource === 'order'),
      `seed ${seed}`,
    ).toEqual([])
  }
}, 240_000)

test('in the full profile payments are recorded against the mirrored sent invoice and the order made once, with no finding', async () => {
  const run = await explore(1, { config: { exploreRequests: 400 } })
  expect(failed(run)).toEqual([])
  const kinds = new Set(run.leftovers.map((l) => l.resource))
  // The model accepted each against the record mirrored from the target (else the status aspect would fail).
  expect([...kinds].sort()).toEqual(expect.arrayContaining(['payment']))
  // Besides payments and the order, only what commands-replace.ts writes under full and the API cannot delete (§4.2).
  const undeletable = ['payment', 'order', 'product', 'invoice', 'activity', 'comment']
  expect(run.leftovers.filter((l) => !undeletable.includes(l.resource))).toEqual([])
}, 120_000)

test("Oracle.mirror puts a target's fixture into the model under the target's id: the model then reads and pays it", async () => {
  const oracle = await openOracle()
  try {
    const id = '0e3f6a52-9a51-4b7e-8f0e-1d2c3b4a5f60'
    const invoice = {
      id,
      number: 'INV-T-1',
      title: 'Mirrored',
      status: 'sent',
      currency: 'MYR',
      totalSen: 5000,
      paidSen: 0,
      createdAt: '2026-01-02T03:04:05.000Z',
    }
    await oracle.mirror('invoice', invoice)
    const read = await oracle.send({ method: 'GET', path: `/invoices/${id}` })
    expect(read.status).toBe(200)
    expect(read.body).toMatchObject({ id, status: 'sent', totalSen: 5000, orderId: null })
    const paid = await oracle.send({ method: 'POST', path: '/payments', body: { invoiceId: id, amountSen: 10, method: 'cash', paidOn: '2026-01-03' } })
    expect(paid.status).toBe(201)
  } finally {
    await oracle.close()
  }
})
