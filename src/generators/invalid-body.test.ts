import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { validate, writeKey } from '../schemas/registry.ts'
import { writeBodies } from '../spec/resources.ts'
import { defectsOf, invalidBody } from './invalid-body.ts'
import { refsFor } from './test-fixtures.ts'

describe('invalidBody', () => {
  for (const { resource, op } of writeBodies()) {
    test(`writes/${resource}.${op}: every generated body fails the schema exactly at defect.path`, () => {
      fc.assert(
        fc.property(invalidBody(resource, op, { refs: refsFor(resource, op) }), ({ body, defect }) => {
          const issues = validate(writeKey(resource, op), body)
          expect(issues.length).toBeGreaterThan(0)
          expect([...new Set(issues.map((i) => i.path))]).toEqual([defect.path])
        }),
        { numRuns: 300, seed: 42 },
      )
    })
  }

  test('every defect kind is drawn where the schema allows it', () => {
    const kinds = new Set(fc.sample(invalidBody('opportunity', 'create'), { numRuns: 500, seed: 2 }).map((b) => b.defect.kind))
    expect([...kinds].sort()).toEqual(['missing-required', 'not-integer', 'not-uuid', 'wrong-type'])
    const taskKinds = new Set(fc.sample(invalidBody('task', 'update'), { numRuns: 500, seed: 2 }).map((b) => b.defect.kind))
    expect(taskKinds.has('out-of-enum')).toBe(true)
    expect(taskKinds.has('missing-required')).toBe(false)
  })

  test('missing-required only for fields marked * (§4.4), never a defect the spec leaves open', () => {
    const missing = defectsOf('account', 'create')
      .filter((d) => d.defect.kind === 'missing-required')
      .map((d) => d.defect.path)
    expect(missing).toEqual(['name'])
    expect(defectsOf('contact', 'create').some((d) => d.defect.kind === 'missing-required')).toBe(false)
    // No string is ever too long or a malformed address: lengths and email syntax are not defects here.
    for (const { bad } of defectsOf('account', 'create')) for (const v of bad) if (typeof v === 'string') expect(v.length).toBeLessThan(20)
  })

  test('omitted fields carry no defect unless they are required', () => {
    expect(defectsOf('lead', 'update', { omit: ['status'] }).some((d) => d.defect.path === 'status')).toBe(false)
  })
})
