// The redaction guard: proves a rendered report holds no secret, in any of the encodings a report uses.
import { CrmConfError } from '../errors.ts'

/** Secrets by the name to report when one leaks (the variable that holds it: `CRM_API_KEY`), or a bare list. */
export type SecretList = Record<string, string | undefined> | readonly (string | undefined)[]

export class SecretLeakError extends CrmConfError {
  constructor(
    /** The name of the secret (its variable, or `secret #n` for a bare list); never its value. */
    readonly secretName: string,
    /** How it appeared: raw, URL-encoded, JSON-escaped or HTML-escaped. */
    readonly encoding: string,
    /** 1-based line of the first occurrence. */
    readonly line: number,
    where: string | undefined,
  ) {
    super('CRMCONF_SECRET_LEAKED', `secret ${secretName} leaked${where ? ` in ${where}` : ''} (${encoding}, line ${line})`)
    this.name = 'SecretLeakError'
  }
}

function htmlEscaped(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')
}

/** Shortest part of a secret that still counts as the secret (as the transport's Redactor has it). */
const MIN_FRAGMENT = 8

/** The parts of a secret a server may echo alone: the secret part of a key (§5.2), the base64 of a whsec_ secret. */
function fragmentsOf(secret: string): [string, string][] {
  const fragments: [string, string][] = [['', secret]]
  if (secret.startsWith('whsec_')) {
    if (secret.length - 'whsec_'.length >= MIN_FRAGMENT) fragments.push([' (base64 part)', secret.slice('whsec_'.length)])
    return fragments
  }
  const secretPart = secret.split('_').at(-1)
  if (secretPart && secretPart !== secret && secretPart.length >= MIN_FRAGMENT) fragments.push([' (secret part)', secretPart])
  return fragments
}

/** Every form the secret may take in a report file: curl lines URL-encode, report.json escapes, report.html entity-escapes. */
function encodingsOf(secret: string): [string, string][] {
  const forms: [string, string][] = []
  for (const [part, fragment] of fragmentsOf(secret)) {
    forms.push(
      [`raw${part}`, fragment],
      [`URL-encoded${part}`, encodeURIComponent(fragment)],
      [`JSON-escaped${part}`, JSON.stringify(fragment).slice(1, -1)],
      [`HTML-escaped${part}`, htmlEscaped(fragment)],
    )
  }
  const seen = new Set<string>()
  // Longest first, so a whole secret is masked before its part.
  return forms.filter(([, form]) => (seen.has(form) ? false : (seen.add(form), true))).sort((a, b) => b[1].length - a[1].length)
}

function named(secrets: SecretList): [string, string][] {
  const entries: [string, string | undefined][] = Array.isArray(secrets)
    ? (secrets as readonly (string | undefined)[]).map((value, i) => [`secret #${i + 1}`, value])
    : Object.entries(secrets as Record<string, string | undefined>)
  // An empty value would match everywhere and proves nothing.
  return entries.filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== '')
}

/**
 * Throws SecretLeakError naming the first secret found in `text` (by its name, never its value).
 * `where` names the text in the message (a file name).
 */
export function assertNoSecrets(text: string, secrets: SecretList, where?: string): void {
  for (const [name, secret] of named(secrets)) {
    for (const [encoding, form] of encodingsOf(secret)) {
      const at = text.indexOf(form)
      if (at === -1) continue
      const line = text.slice(0, at).split('\n').length
      throw new SecretLeakError(name, encoding, line, where)
    }
  }
}

/** One secret the report writer found and masked: which, in what form, how many times. Never its value. */
export interface MaskedSecret {
  secret: string
  encoding: string
  count: number
}

/** Adds `found` into `into`, summing the counts of the same secret and form. */
export function mergeMasked(into: MaskedSecret[], found: readonly MaskedSecret[]): MaskedSecret[] {
  for (const item of found) {
    const same = into.find((m) => m.secret === item.secret && m.encoding === item.encoding)
    if (same) same.count += item.count
    else into.push({ ...item })
  }
  return into
}

/** Replaces every form of every secret in `text` by `<redacted:NAME>`, and says what it replaced. */
export function maskSecrets(text: string, secrets: SecretList): { text: string; masked: MaskedSecret[] } {
  let out = text
  const masked: MaskedSecret[] = []
  for (const [name, secret] of named(secrets)) {
    for (const [encoding, form] of encodingsOf(secret)) {
      if (!out.includes(form)) continue
      const parts = out.split(form)
      masked.push({ secret: name, encoding, count: parts.length - 1 })
      out = parts.join(`<redacted:${name}>`)
    }
  }
  return { text: out, masked }
}

/** maskSecrets applied to every string inside a JSON-like value (keys included); returns a copy. */
export function maskSecretsIn<T>(value: T, secrets: SecretList): { value: T; masked: MaskedSecret[] } {
  const masked: MaskedSecret[] = []
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') {
      const result = maskSecrets(node, secrets)
      mergeMasked(masked, result.masked)
      return result.text
    }
    if (Array.isArray(node)) return node.map(walk)
    if (node === null || typeof node !== 'object') return node
    return Object.fromEntries(Object.entries(node).map(([key, child]) => [walk(key) as string, walk(child)]))
  }
  return { value: walk(value) as T, masked }
}
