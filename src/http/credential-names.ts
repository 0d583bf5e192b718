// Which names say that their value is a credential, for masking by name what no variable configured (a gateway's
// token header, a session cookie, a `password` field, an `access_token` parameter): the HAR sanitizers' rule,
// applied by the Redactor (redact.ts) to headers, query parameters, cookies and JSON fields alike.

/** Names whose whole value is a credential (lower case, separators removed). */
const WHOLE_NAMES = new Set(['authorization', 'proxyauthorization', 'cookie', 'setcookie'])

/** A name holding one of these (lower case, separators removed) says it carries a credential. */
const CREDENTIAL_PARTS = ['token', 'secret', 'key', 'session', 'signature', 'password', 'passwd', 'credential'] as const

/**
 * Names that hold a credential word but carry none: the spec's own (`Idempotency-Key`, §4.1 "any unique value",
 * is a retry label that grants nothing, and the traffic rules compare it; `stageKey` is a pipeline stage).
 */
const NOT_CREDENTIALS = new Set(['idempotencykey', 'stagekey'])

/** A last word that makes the name describe a credential rather than hold it: `keyName`, `api_key_label`, `tokenType`. */
const DESCRIBING_TAIL = /(name|label|title|description|type|scopes?|permissions?)$/

const squeezed = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '')

/** Names already judged: traffic repeats the same few hundred field names millions of times. */
const judged = new Map<string, boolean>()
const MAX_JUDGED = 10_000

/** Whether a header, parameter, cookie or field name says its value is a credential. */
export function isCredentialName(name: string): boolean {
  let verdict = judged.get(name)
  if (verdict === undefined) {
    verdict = judgeName(name)
    if (judged.size >= MAX_JUDGED) judged.clear()
    judged.set(name, verdict)
  }
  return verdict
}

function judgeName(name: string): boolean {
  const flat = squeezed(name)
  if (WHOLE_NAMES.has(flat)) return true
  if (NOT_CREDENTIALS.has(flat) || !CREDENTIAL_PARTS.some((part) => flat.includes(part))) return false
  // The name's own last word (camelCase or separated) decides, so `apiKeyLabel` describes and `label` alone is no credential.
  const lastWord = /([A-Z]?[a-z0-9]+|[A-Z0-9]+)[^A-Za-z0-9]*$/.exec(name)?.[1]?.toLowerCase() ?? flat
  if (lastWord !== flat && DESCRIBING_TAIL.test(lastWord)) return false
  return !/^(api)?(key|token)(name|label|title)$/.test(flat)
}

/** Whether a text may hold a credential-named member or pair at all: most bodies do not, and are left as they are. */
export const MIGHT_NAME_A_CREDENTIAL = /token|secret|key|session|signature|passw|credential|authorization|cookie/i

/** Whether a JSON-like value has a field whose name says it is a credential, at any depth (bounded), without copying it. */
export function hasCredentialField(value: unknown, maxDepth: number): boolean {
  // for…in and recursion, not entries and a queue: a list page is thousands of keys, and most bodies have none to mask.
  const walk = (node: unknown, depth: number): boolean => {
    if (node === null || typeof node !== 'object' || depth >= maxDepth) return false
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) if (walk(node[i], depth + 1)) return true
      return false
    }
    const record = node as Record<string, unknown>
    for (const key in record) {
      if (isCredentialName(key)) return true
      const item = record[key]
      if (item !== null && typeof item === 'object' && walk(item, depth + 1)) return true
    }
    return false
  }
  return walk(value, 0)
}

/** What a masked value reads in the files. */
export const MASKED = '<redacted>'

/** The query string of a URL with the value of every credential-named parameter masked; the rest kept as written. */
export function maskQueryByName(url: string, onMasked: (value: string) => void = () => {}): string {
  const start = url.indexOf('?')
  if (start < 0) return url
  const hash = url.indexOf('#', start)
  const end = hash < 0 ? url.length : hash
  const query = url
    .slice(start + 1, end)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=')
      if (eq < 0 || !isCredentialName(decoded(pair.slice(0, eq)))) return pair
      onMasked(decoded(pair.slice(eq + 1)))
      return `${pair.slice(0, eq)}=${MASKED}`
    })
    .join('&')
  return `${url.slice(0, start + 1)}${query}${url.slice(end)}`
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '))
  } catch {
    return text
  }
}

/** A JSON member with a string or number value, or an array of them, also in a text cut short (a body over the size cap). */
const JSON_MEMBER =
  /"((?:[^"\\\n]|\\.){1,200})"(\s*:\s*)("(?:[^"\\]|\\.)*"?|-?\d[\d.eE+-]*|\[(?:\s*(?:"(?:[^"\\]|\\.)*"?|-?\d[\d.eE+-]*|true|false|null)\s*,?)*\]?)/g
/** A form or cookie pair: `password=…`, `; session=…`. */
const FORM_PAIR = /(^|[?&;,\s])([^=&;,\s"]{1,200})=([^&;,\s"]*)/g

/**
 * A body that is text (a form, a body that is not JSON, JSON cut at the size cap): every `"name": value` and
 * `name=value` whose name says it is a credential, masked.
 */
export function maskTextByName(text: string, onMasked: (value: string) => void = () => {}): string {
  return text
    .replace(JSON_MEMBER, (whole, name: string, colon: string, value: string) => {
      if (!isCredentialName(name)) return whole
      if (!value.startsWith('[')) onMasked(value.replace(/^"|"$/g, ''))
      return `"${name}"${colon}"${MASKED}"`
    })
    .replace(FORM_PAIR, (whole, before: string, name: string, value: string) => {
      if (!isCredentialName(decoded(name)) || value === MASKED) return whole
      onMasked(decoded(value))
      return `${before}${name}=${MASKED}`
    })
}
