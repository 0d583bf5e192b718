// Reading scopes out of a /me body whose shape the spec does not show (§2 "Unspecified shapes", §5.9).
const SCOPE = /^[a-z_]+:(read|write)$/

/** Every `area:read|write` scope found anywhere in the body: as an array of strings or a space-separated string. */
export function scopesFromMe(body: unknown): string[] | undefined {
  const found = new Set<string>()
  let sawList = false
  const visit = (value: unknown, depth: number) => {
    if (depth > 6 || value === null || value === undefined) return
    if (Array.isArray(value)) {
      const scopes = value.filter((v): v is string => typeof v === 'string' && SCOPE.test(v))
      if (scopes.length > 0) {
        sawList = true
        scopes.forEach((s) => found.add(s))
      }
      for (const item of value) if (typeof item === 'object') visit(item, depth + 1)
      return
    }
    if (typeof value === 'string') {
      const words = value.split(/[\s,]+/).filter(Boolean)
      if (words.length > 0 && words.every((w) => SCOPE.test(w))) {
        sawList = true
        words.forEach((w) => found.add(w))
      }
      return
    }
    if (typeof value === 'object') for (const child of Object.values(value as object)) visit(child, depth + 1)
  }
  visit(body, 0)
  return sawList ? [...found].sort() : undefined
}
