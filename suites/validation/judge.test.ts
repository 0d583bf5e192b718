import { describe, expect, it } from 'vitest'
import type { ApiResponse } from '../../src/checks/index.ts'
import { foldDefects, foldedProbes, probedFields } from './judge.ts'

const set = (field: string, value: unknown) => ({
  label: `${field} given ${JSON.stringify(value)}`,
  field,
  apply: (b: Record<string, unknown>) => ({ ...b, [field]: value }),
})

describe('folded defects (issue 39: one request judges several fields)', () => {
  it('puts at most one defect per field in a body, in as few bodies as the field with most defects needs', () => {
    const bodies = foldDefects([set('name', 1), set('amountSen', 12.5), set('amountSen', '100'), set('tags', 'x')])
    expect(bodies.map((b) => b.map((d) => d.field))).toEqual([['name', 'amountSen', 'tags'], ['amountSen']])
  })

  it('sends each body with all its defects applied, and names every field its details must name', async () => {
    const sent: unknown[] = []
    const probes = foldedProbes([set('name', 1), set('tags', 'x')], { name: 'ok', tags: [] }, async (body) => {
      sent.push(body)
      return {} as ApiResponse
    })
    expect(probes).toHaveLength(1)
    await probes[0]!.send()
    expect(sent).toEqual([{ name: 1, tags: 'x' }])
    expect(probedFields(probes[0]!)).toEqual(['name', 'tags'])
    expect(probes[0]!.parts![0]!.label).toMatch(/in one body with 1 other defect/)
  })
})
