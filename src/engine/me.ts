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

/**
 * The user a key acts as (§1.2, §5.3), out of a /me body whose shape is not shown: the listed user whose id
 * appears in it (as any value, at any depth). Undefined when none does.
 */
export function userIdInMe(body: unknown, userIds: readonly string[]): string | undefined {
  const ids = new Set(userIds.map((id) => id.toLowerCase()))
  const visit = (value: unknown, depth: number): string | undefined => {
    if (typeof value === 'string') return ids.has(value.toLowerCase()) ? value : undefined
    if (depth > 6 || value === null || typeof value !== 'object') return undefined
    for (const child of Object.values(value as object)) {
      const found = visit(child, depth + 1)
      if (found) return found
    }
    return undefined
  }
  return visit(body, 0)
}
