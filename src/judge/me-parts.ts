// §2 "Unspecified shapes": GET /me "returns the workspace, the key's name and scopes, and the user the key acts
// as", field names not shown. Whether a /me body shows each part in some reasonable form (a nested object, a
// flat field, an id or a name): one judgement for the discovery checks and the traffic rule traffic.me.shows-parts.
import type { AnyRecord } from './written.ts'

/** Deeper than any reasonable /me body; bounds the walk of a hostile one. */
const MAX_DEPTH = 6

type Visit = (field: string, value: unknown, parent: string | undefined) => boolean

/** Whether `visit` holds for some field of the body, at any depth (arrays of objects included). */
function someField(body: unknown, visit: Visit): boolean {
  const walk = (value: unknown, parent: string | undefined, depth: number): boolean => {
    if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return false
    if (Array.isArray(value)) return value.some((v) => walk(v, parent, depth + 1))
    return Object.entries(value).some(([field, v]) => visit(field, v, parent) || walk(v, field, depth + 1))
  }
  return walk(body, undefined, 0)
}

/** Every string value of the body, at any depth. */
export function stringsOf(body: unknown): string[] {
  const out: string[] = []
  const walk = (value: unknown, depth: number): void => {
    if (typeof value === 'string') out.push(value)
    else if (depth <= MAX_DEPTH && value !== null && typeof value === 'object') for (const v of Object.values(value)) walk(v, depth + 1)
  }
  walk(body, 0)
  return out
}

const present = (value: unknown): boolean =>
  (typeof value === 'string' && value.trim() !== '') ||
  typeof value === 'number' ||
  (typeof value === 'object' && value !== null && Object.keys(value).length > 0)

const WORKSPACE_FIELD = /workspace|tenant|organi[sz]ation|company|^(org|account|space|site|instance|subdomain|domain)(_?id|_?name)?$/i

/** §5.2: the key's middle part names the workspace (`<prefix>_<workspace>_<secret>`), when the key has that form. */
function workspaceOfKey(key: string | undefined): string | undefined {
  const parts = key?.split('_') ?? []
  return parts.length >= 3 ? parts.slice(1, -1).join('_') : undefined
}

/** The workspace: a field named for it (an object, an id or a name), or the workspace id the key itself carries as a value. */
export function showsWorkspace(body: unknown, mainKey?: string): boolean {
  if (someField(body, (field, value) => WORKSPACE_FIELD.test(field) && present(value))) return true
  const id = workspaceOfKey(mainKey)
  return id !== undefined && stringsOf(body).some((s) => s === id)
}

const KEY_OBJECT = /^(key|api_?key|token|api_?token|credential|client|app|application|integration)$/i
const NAME_FIELD = /^(name|label|title|display_?name|description)$/i
const KEY_NAME_FIELD = /^(key|api_?key|token|api_?token|credential|client|app|application|integration)_?(name|label|title)$/i

/**
 * The key's name: `keyName`/`apiKeyLabel`-like fields, a name inside the key's object, a top-level `name`/`label`,
 * or a text under the key's own field (`apiKey: "Sync"`) that is not the key itself, shown masked or whole.
 */
export function showsKeyName(body: unknown, mainKey?: string): boolean {
  if (typeof body !== 'object' || body === null) return false
  const top = body as AnyRecord
  if (Object.entries(top).some(([field, value]) => NAME_FIELD.test(field) && present(value) && typeof value === 'string')) return true
  const prefix = mainKey?.split('_')[0]
  const keyItself = (text: string) => (prefix !== undefined && prefix !== mainKey && text.startsWith(`${prefix}_`)) || /^[*•x.]{3,}|[*•]{3,}/.test(text)
  return someField(body, (field, value, parent) => {
    if (typeof value !== 'string' || !present(value)) return false
    if (KEY_OBJECT.test(field)) return !keyItself(value)
    return KEY_NAME_FIELD.test(field) || (parent !== undefined && KEY_OBJECT.test(parent) && NAME_FIELD.test(field))
  })
}

const USER_FIELD = /user|actor|acting|owner|principal|member|person|created_?by|on_?behalf/i

/** The user by a field named for it (an object, an id, an email or a name). */
export function namesUser(body: unknown): boolean {
  return someField(body, (field, value) => USER_FIELD.test(field) && present(value))
}
