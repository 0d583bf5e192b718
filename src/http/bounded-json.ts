// JSON from the server under test is untrusted: a body nested 200,000 levels deep parses, but every recursive
// walk after it (JSON.stringify, a redactor, a schema validator, a report writer) overflows the stack. Such a
// body is never parsed: it is kept as (bounded) text with a note, and the check judges that.

/** Deeper than any API body has reason to be; far below what a recursive walk survives. */
export const MAX_JSON_DEPTH = 256

/** The nesting depth of JSON text, counted without parsing and without recursion; stops counting past `max`. */
export function jsonDepth(text: string, max = MAX_JSON_DEPTH): number {
  let depth = 0
  let deepest = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x22) {
      // A string: jump to its closing quote (one not escaped: an even run of backslashes before it) with the native
      // indexOf; strings are most of a body's characters.
      let end = text.indexOf('"', i + 1)
      while (end !== -1) {
        let slashes = 0
        while (text.charCodeAt(end - 1 - slashes) === 0x5c) slashes++
        if (slashes % 2 === 0) break
        end = text.indexOf('"', end + 1)
      }
      if (end === -1) return deepest
      i = end
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > deepest) {
        deepest = depth
        if (deepest > max) return deepest
      }
    } else if (c === 0x7d || c === 0x5d) depth--
  }
  return deepest
}

export type ParsedBody = { parsed: true; value: unknown } | { parsed: false; note?: string }

/** JSON.parse with a depth bound: text nested deeper than `max` is refused, with the reason. */
export function parseBoundedJson(text: string, max = MAX_JSON_DEPTH): ParsedBody {
  const depth = jsonDepth(text, max)
  if (depth > max) return { parsed: false, note: `the body is nested more than ${max} levels deep: kept as text, not parsed` }
  try {
    return { parsed: true, value: JSON.parse(text) }
  } catch {
    return { parsed: false }
  }
}

/** Fields whose string and number values are replaced whole (`password: "…"`), also inside an array they hold. */
export interface HiddenFields {
  field: (name: string) => boolean
  /** What a hidden value becomes; handed the value. */
  hide: (value: string | number) => string
}

/**
 * A copy of a JSON-like value with every string (keys included) passed through `mapString`, at most `max`
 * levels deep (deeper values are replaced by a marker), cycles cut. Never recursion without a bound. With
 * `hidden`, the values of the fields it names are replaced; an object under such a field is walked as any other.
 */
export function mapStrings(value: unknown, mapString: (text: string) => string, max = MAX_JSON_DEPTH, hidden?: HiddenFields): unknown {
  const seen = new Set<object>()
  const walk = (node: unknown, depth: number, hide = false): unknown => {
    if (hide && (typeof node === 'string' || typeof node === 'number')) return hidden!.hide(node)
    if (typeof node === 'string') return mapString(node)
    if (node === null || typeof node !== 'object') return node
    if (depth >= max) return `<nested deeper than ${max} levels: not shown>`
    if (seen.has(node)) return '<cycle>'
    // A value with its own JSON form (a Date, a class) is recorded as that form, as JSON.stringify would.
    const toJSON = (node as { toJSON?: () => unknown }).toJSON
    if (typeof toJSON === 'function') return walk(toJSON.call(node), depth)
    seen.add(node)
    try {
      if (Array.isArray(node)) return node.map((item) => (item === undefined || typeof item === 'function' ? null : walk(item, depth + 1, hide)))
      const out: Record<string, unknown> = {}
      for (const [key, item] of Object.entries(node)) {
        if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue
        out[mapString(key)] = walk(item, depth + 1, hidden?.field(key) ?? false)
      }
      return out
    } finally {
      seen.delete(node)
    }
  }
  return walk(value, 0)
}
