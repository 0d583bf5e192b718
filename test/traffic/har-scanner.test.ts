// The two scanners that read traffic without parsing it, against plain references: the HAR byte scanner
// (src/traffic/har-entries.ts) against JSON.parse, whatever the strings hold (escaped quotes, runs of backslashes,
// non-ASCII) and wherever the chunks split them; the depth bound (src/http/bounded-json.ts) against a character walk.
import fc from 'fast-check'
import { expect, it } from 'vitest'
import { jsonDepth } from '../../src/http/bounded-json.ts'
import { harEntryTexts } from '../../src/traffic/har-entries.ts'

const tricky = fc.string({ unit: fc.constantFrom('"', '\\', 'a', '{', '}', '[', ']', ',', ':', 'é', '😀', ' ', '\n') })
const value = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    tricky,
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(tricky, tie('v'), { maxKeys: 3 }),
  ),
})).v

async function* chunked(bytes: Buffer, cuts: number[]): AsyncGenerator<Buffer> {
  let at = 0
  for (const cut of [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)) {
    yield bytes.subarray(at, cut)
    at = cut
  }
  yield bytes.subarray(at)
}

it('yields every entry of log.entries as JSON.parse reads it, however the bytes are chunked', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.dictionary(tricky, value, { maxKeys: 4 }), { maxLength: 4 }), fc.array(fc.nat(), { maxLength: 12 }), async (entries, cuts) => {
      const text = JSON.stringify({ log: { version: '1.2', '\\"entries': [1], entries, after: ['x'] } })
      const seen: unknown[] = []
      for await (const entry of harEntryTexts(chunked(Buffer.from(text), cuts))) seen.push(JSON.parse(entry))
      expect(seen).toEqual(entries)
    }),
    { numRuns: 300 },
  )
})

/** The depth as a walk of every character counts it (what jsonDepth skips strings to do faster). */
function depthByWalk(text: string, max: number): number {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (inString) {
      if (c === '\\') i++
      else if (c === '"') inString = false
    } else if (c === '"') inString = true
    else if (c === '{' || c === '[') {
      deepest = Math.max(deepest, ++depth)
      if (deepest > max) return deepest
    } else if (c === '}' || c === ']') depth--
  }
  return deepest
}

it('counts JSON depth as a walk of every character does, strings skipped however they are escaped', () => {
  fc.assert(
    fc.property(
      fc.oneof(
        value.map((v) => JSON.stringify(v) ?? ''),
        tricky,
      ),
      fc.integer({ min: 0, max: 4 }),
      (text, max) => {
        expect(jsonDepth(text, max)).toBe(depthByWalk(text, max))
      },
    ),
    { numRuns: 1000 },
  )
})
