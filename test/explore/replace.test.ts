// The explorer's replace-method and create-only collections (suites/explore/commands-replace.ts): quotations in
// every writing profile, products, invoices, activities and internal comments only in the full profile; no
// finding against any legal variant where they are all sent, and the faults they catch.
import { expect, test } from 'vitest'
import { DEFAULTS } from '../../src/config/config.ts'
import { runInProcess, type InProcessRun } from '../../src/run/in-process.ts'
import type { Profile } from '../../src/vocabulary.ts'
import { catalogue } from '../../suites/index.ts'
import { newDraftVerdict, replaced, writtenVerdict } from '../../suites/explore/contract.ts'

const explore = (seed: number, options: { variant?: string; faults?: string[]; budget?: number; profile?: Profile } = {}): Promise<InProcessRun> =>
  runInProcess({
    checks: catalogue,
    only: ['explore'],
    embedded: { variant: options.variant ?? 'default', faults: options.faults ?? [] },
    seed,
    profile: options.profile,
    config: { exploreRequests: options.budget ?? DEFAULTS.exploreRequests, webhookSecret: '' },
  })

/** The operations (`quotation.replace`, …) the run's requests to the target fell in. */
const operations = (run: InProcessRun): Set<string> =>
  new Set(((run.results[0]!.observations['explore.cells'] as string[] | undefined) ?? []).map((cell) => cell.split(' ')[0]!))

test('a replace is compared as a whole write; a new draft is a draft, and a new invoice has paid nothing', () => {
  const body = { title: 'crmconf quotation', validUntil: null, paymentTermsDays: 14, terms: null, items: [] }
  const w = replaced('quotation', body)
  const held = { title: 'crmconf quotation', validUntil: null, paymentTermsDays: 14, terms: null }
  expect(writtenVerdict('replace', 'quotation', { t: w, m: w }, held, held)).toBeUndefined()
  // A replace that kept the old validUntil where null was sent (bodies.replace-skips-nulls).
  expect(writtenVerdict('replace', 'quotation', { t: w, m: w }, { ...held, validUntil: '2030-01-01' }, held)).toMatchObject({ aspect: 'written' })
  expect(newDraftVerdict('create', 'quotation', { status: 'draft' })).toBeUndefined()
  expect(newDraftVerdict('create', 'quotation', { status: 'open' })).toMatchObject({ aspect: 'written' })
  expect(newDraftVerdict('create', 'invoice', { status: 'draft', paidSen: 0 })).toBeUndefined()
  expect(newDraftVerdict('create', 'invoice', { status: 'draft', paidSen: 10 })).toMatchObject({ aspect: 'written' })
})

const VARIANTS = ['default', 'alt-a', 'alt-b', 'alt-c', 'alt-d', 'alt-e', 'alt-f']

test('in the full profile every collection of the family is written against every legal variant, with no finding', async () => {
  const seen = new Set<string>()
  for (const [i, variant] of VARIANTS.entries()) {
    // One seed per variant at a budget of 1,000: each draws several scenarios of the family.
    const run = await explore(i + 1, { variant, budget: 1_000 })
    const bad = run.results.filter((r) => r.status !== 'passed').map((r) => `${r.id} ${r.status}: ${r.message}`)
    expect(bad, `${variant}, seed ${i + 1}`).toEqual([])
    for (const op of operations(run)) seen.add(op)
    // Everything else is deleted at clean-up; products are archived (src/run/footprint.ts).
    const undeletable = ['payment', 'order', 'product', 'invoice', 'activity', 'comment']
    expect(run.leftovers.filter((l) => !undeletable.includes(l.resource))).toEqual([])
  }
  for (const op of [
    'quotation.create',
    'quotation.get',
    'quotation.replace',
    'quotation.delete',
    'quotation.list',
    'product.create',
    'product.replace',
    'product.list',
    'invoice.create',
    'invoice.replace',
    'invoice.list',
    'activity.create',
    'comment.create',
    'comment.list',
  ])
    expect(seen, op).toContain(op)
}, 300_000)

test('in the safe profile only quotations of the family are written (the others cannot be deleted, §4.2)', async () => {
  const run = await explore(4, { profile: 'safe', budget: 400 })
  expect(run.results.filter((r) => r.status === 'failed').map((r) => r.message)).toEqual([])
  const ops = operations(run)
  expect(ops).toContain('quotation.replace')
  // Cases can be deleted: the collection runs (commands-collections.ts) write them in the safe profile too.
  for (const op of ['product.create', 'invoice.create', 'activity.create', 'comment.create']) expect(ops, op).not.toContain(op)
  expect(run.leftovers).toEqual([])
}, 120_000)

/** Faults on these collections the explorer catches alone at the CI budget, each on every seed tried (1–6, bench:explore). */
const CATCHES: readonly [fault: string, check: string][] = [
  ['bodies.replace-merges-partial', 'explore.status'],
  ['validation.required-unchecked', 'explore.status'],
  ['state.drafts-locked', 'explore.status'],
  ['state.created-not-draft', 'explore.written'],
  ['validation.change-saved-before-validation', 'explore.written'],
]

test.each(CATCHES.flatMap(([fault, check]) => [1, 2].map((seed) => [fault, check, seed] as const)))(
  'the explorer catches %s (%s, seed %i, CI budget)',
  async (fault, check, seed) => {
    const run = await explore(seed, { faults: [fault] })
    const row = run.results.find((r) => r.id === check)!
    expect(row.status, row.message).toBe('failed')
    expect(row.message).toContain(`--seed ${seed}`)
  },
  120_000,
)
