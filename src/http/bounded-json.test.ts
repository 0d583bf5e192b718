import { describe, expect, it } from 'vitest'
import { jsonDepth, MAX_JSON_DEPTH, parseBoundedJson } from './bounded-json.ts'

describe('bounded JSON', () => {
  it('counts depth without recursion, ignoring brackets inside strings', () => {
    expect(jsonDepth('{"a":[1,{"b":"[[[[{{{"}]}')).toBe(3)
    expect(jsonDepth('"\\"[[["')).toBe(0)
    expect(jsonDepth('[]'.padStart(10, '['))).toBeGreaterThan(1)
  })

  it('parses ordinary bodies and refuses one nested 200,000 levels deep, with the reason', () => {
    expect(parseBoundedJson('{"data":[{"id":1}]}')).toEqual({ parsed: true, value: { data: [{ id: 1 }] } })
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`
    const result = parseBoundedJson(deep)
    expect(result.parsed).toBe(false)
    expect(result.parsed ? '' : result.note).toMatch(`more than ${MAX_JSON_DEPTH} levels`)
    expect(parseBoundedJson('<html>')).toEqual({ parsed: false })
  })
})
