import { describe, expect, it } from 'vitest'
import { RESOURCES } from '../../src/checks/index.ts'
import { EMPTY_TEXT_ROWS, emptyTextChecks } from './empty-text.ts'

/** Fields typed string that hold a code, not written text (empty-text.ts says why they are left out). */
const CODES = new Set(['currency', 'sku', 'priority'])

describe('the empty-text table', () => {
  it('names only fields §2 and both §4.4 bodies type string, not null', () => {
    for (const { resource, fields } of EMPTY_TEXT_ROWS) {
      const spec = RESOURCES[resource]
      const change = spec.update ?? spec.replace
      for (const f of fields) expect([spec.record[f], spec.create?.fields[f], change?.fields[f]], `${resource}.${f}`).toEqual(['string', 'string', 'string'])
    }
  })

  it('leaves out no text field of the resources it writes', () => {
    for (const resource of new Set(EMPTY_TEXT_ROWS.map((r) => r.resource))) {
      const spec = RESOURCES[resource]
      const bodies = [spec.create, spec.update, spec.replace].flatMap((b) => Object.entries(b?.fields ?? {}))
      const text = bodies.filter(([f, t]) => t === 'string' && spec.record[f] === 'string' && !CODES.has(f)).map(([f]) => f)
      const written = EMPTY_TEXT_ROWS.filter((r) => r.resource === resource).flatMap((r) => r.fields)
      expect([...new Set(text)].sort(), resource).toEqual([...written].sort())
    }
  })

  it('keeps the frozen id and title of the first check', () => {
    const first = emptyTextChecks.find((c) => c.id === 'records.case.empty-description')
    expect(first?.title).toBe('A case created and updated with description "" (typed string, not null) is refused (400) or comes back with "", never null')
    expect(new Set(emptyTextChecks.map((c) => c.id)).size).toBe(emptyTextChecks.length)
  })
})
