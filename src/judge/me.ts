// Reading scopes out of a /me body whose shape the spec does not show (§2 "Unspecified shapes", §5.9).
const SCOPE = /^[a-z_]+:(read|write)$/

const AREA = /^[a-z_]+$/
const ACCESS = /^(read|write)$/

/**
 * Scopes kept as a map of area to access: `{ accounts: ['read', 'write'] }`, `{ accounts: 'read write' }` or
 * `{ accounts: { read: true, write: false } }`. Every entry must have that form, so other objects are never read as one.
 */
function scopeMap(value: Record<string, unknown>): string[] | undefined {
  const entries = Object.entries(value)
  if (entries.length === 0) return undefined
  const scopes: string[] = []
  for (const [area, access] of entries) {
    if (!AREA.test(area)) return undefined
    let granted: string[]
    if (Array.isArray(access)) granted = access as string[]
    else if (typeof access === 'string') granted = access.split(/[\s,]+/).filter(Boolean)
    else if (typeof access === 'object' && access !== null && Object.values(access).every((v) => typeof v === 'boolean')) {
      granted = Object.entries(access)
        .filter(([, on]) => on)
        .map(([a]) => a)
      if (Object.keys(access).some((a) => !ACCESS.test(a))) return undefined
    } else return undefined
    if (!granted.every((a) => typeof a === 'string' && ACCESS.test(a))) return undefined
    scopes.push(...granted.map((a) => `${area}:${a}`))
  }
  return scopes
}

/**
 * Every `area:read|write` scope found anywhere in the body: as an array of strings, a space-separated string, or a
 * map of area to access. `complete`: undefined when a list of scopes also holds other words (`*`, `admin`), which
 * may grant more than the scopes read: a list to compare with what is needed must be nothing but scopes.
 */
export function scopesFromMe(body: unknown, options: { complete?: boolean } = {}): string[] | undefined {
  const found = new Set<string>()
  let sawList = false
  let otherWords = false
  const visit = (value: unknown, depth: number) => {
    if (depth > 6 || value === null || value === undefined) return
    if (Array.isArray(value)) {
      const scopes = value.filter((v): v is string => typeof v === 'string' && SCOPE.test(v))
      if (scopes.length > 0) {
        sawList = true
        scopes.forEach((s) => found.add(s))
        if (value.some((v) => typeof v === 'string' && !SCOPE.test(v))) otherWords = true
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
    if (typeof value === 'object') {
      const mapped = scopeMap(value as Record<string, unknown>)
      if (mapped) {
        sawList = true
        mapped.forEach((s) => found.add(s))
        return
      }
      for (const child of Object.values(value as object)) visit(child, depth + 1)
    }
  }
  visit(body, 0)
  if (options.complete && otherWords) return undefined
  return sawList ? [...found].sort() : undefined
}

const SCOPE_FIELD = /scope|permission|grant/i

/**
 * Whether the body shows the key's scopes at all: as scopesFromMe reads them, or as a field named for scopes
 * holding words of its own (`scopes: ['*']`, `scope: 'full_access'` for a key with every scope).
 */
export function showsScopes(body: unknown): boolean {
  if (scopesFromMe(body) !== undefined) return true
  const named = (value: unknown, depth: number): boolean => {
    if (depth > 6 || typeof value !== 'object' || value === null) return false
    return Object.entries(value).some(([field, v]) => {
      if (SCOPE_FIELD.test(field)) {
        const words = typeof v === 'string' ? v.split(/[\s,]+/).filter(Boolean) : Array.isArray(v) ? v : []
        if (words.length > 0 && words.every((w) => typeof w === 'string' && w.length > 0)) return true
      }
      return named(v, depth + 1)
    })
  }
  return named(body, 0)
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
