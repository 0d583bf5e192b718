import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { validate, writeKey } from '../schemas/registry.ts'
import { RESOURCES, writeBodies } from '../spec/resources.ts'
import { refsFor } from './test-fixtures.ts'
import { validBody } from './valid-body.ts'

describe('validBody', () => {
  for (const { resource, op } of writeBodies()) {
    test(`writes/${resource}.${op}: every generated body passes the schema`, () => {
      fc.assert(
        fc.property(validBody(resource, op, { refs: refsFor(resource, op) }), (body) => {
          expect(validate(writeKey(resource, op), body)).toEqual([])
        }),
        { numRuns: 200, seed: 42 },
      )
    })
  }

  test('without refs, optional uuid references are left out and required nullable ones are null', () => {
    for (const body of fc.sample(validBody('account', 'create'), { numRuns: 100, seed: 1 })) {
      for (const f of ['parentId', 'ownerId', 'backupOwnerId', 'teamId']) expect(body[f]).toBeUndefined()
    }
    for (const body of fc.sample(validBody('quotation', 'replace'), { numRuns: 50, seed: 1 })) {
      expect(body.dealId).toBeNull()
      expect(body.priceListId).toBeNull()
    }
  })

  test('a required uuid without a real id is a harness error, not a made-up reference', () => {
    expect(() => validBody('comment', 'create')).toThrow(/refs\.caseId/)
  })

  test('values are reserved test data: example.com addresses and 555-01xx numbers', () => {
    for (const body of fc.sample(validBody('account', 'create'), { numRuns: 300, seed: 7 })) {
      if (typeof body.email === 'string' && body.email !== '') expect(body.email).toMatch(/^[a-z0-9.]+@example\.com$/)
      if (typeof body.phone === 'string') expect(body.phone).toMatch(/^\+120255501\d\d$/)
    }
  })

  test('keyed fields (statuses, stages, currencies…) are never made up', () => {
    for (const body of fc.sample(validBody('case', 'create'), { numRuns: 200, seed: 3 })) {
      expect(body.status ?? null).toBeNull()
      expect(body.priority ?? null).toBeNull()
    }
    for (const body of fc.sample(validBody('opportunity', 'create'), { numRuns: 200, seed: 3 })) {
      expect(body.stageKey ?? null).toBeNull()
      expect(body.currency).toBeUndefined()
    }
  })

  test('enum fields pick from the enum; integers in *Sen stay safe', () => {
    const priorities = new Set<unknown>()
    for (const body of fc.sample(validBody('task', 'create'), { numRuns: 300, seed: 5 })) if ('priority' in body) priorities.add(body.priority)
    expect([...priorities].sort()).toEqual([...RESOURCES.task.create!.fields.priority.slice('enum:'.length).split(',')].sort())
    for (const body of fc.sample(validBody('opportunity', 'create'), { numRuns: 300, seed: 5 })) {
      if ('amountSen' in body) expect(Number.isSafeInteger(body.amountSen)).toBe(true)
    }
  })

  test('the same seed gives the same bodies (faker is seeded by fast-check)', () => {
    const a = fc.sample(validBody('contact', 'create'), { numRuns: 20, seed: 99 })
    const b = fc.sample(validBody('contact', 'create'), { numRuns: 20, seed: 99 })
    expect(a).toEqual(b)
  })

  test('a prefix is put before the generated text; omitted fields are never sent', () => {
    for (const body of fc.sample(validBody('lead', 'update', { prefix: { fullName: 'crmconf lead r1 ' }, omit: ['status'] }), { numRuns: 200, seed: 11 })) {
      if ('fullName' in body) expect(body.fullName).toMatch(/^crmconf lead r1 \S/)
      expect(body.status).toBeUndefined()
    }
  })

  test('an update body without required fields is never empty', () => {
    for (const body of fc.sample(validBody('task', 'update'), { numRuns: 200, seed: 13 })) expect(Object.keys(body).length).toBeGreaterThan(0)
  })
})
