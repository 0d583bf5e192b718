// Secrets never reach evidence, reports or output: every recorded string passes through a Redactor first.
// A server can echo a secret in any form it was handled in, so each secret is masked raw and as a server
// would write it into a URL (percent- or form-encoded), a JSON string, or HTML; the base64 part of a
// `whsec_…` secret and the secret part of a key are masked on their own too. Built `byName` (observed traffic),
// it also masks what no variable names but a name says is a credential (credential-names.ts).
import { MAX_JSON_DEPTH, mapStrings, type HiddenFields } from './bounded-json.ts'
import { hasCredentialField, isCredentialName, MASKED, maskQueryByName, maskTextByName, MIGHT_NAME_A_CREDENTIAL } from './credential-names.ts'

export interface NamedSecret {
  /** The variable that holds it, shown in place of the value: `<redacted:CRM_API_KEY>`. */
  name: string
  value: string
}

const MIN_FRAGMENT = 8

/** Handed each value masked by its name, so that its echoes elsewhere can be masked too. */
export type Learn = (value: string) => void

export interface RedactorOptions {
  /**
   * Mask by name as well as by value: every header, query parameter and JSON field whose name says it carries a
   * credential (`x-gateway-token`, `access_token`, `password`), and `name=value` pairs of a body kept as text.
   */
  byName?: boolean
}

/** The forms a server may write `text` in when it echoes it. */
export function echoForms(text: string): string[] {
  const forms = new Set<string>([text])
  const percent = encodeURIComponent(text)
  const form = new URLSearchParams({ x: text }).toString().slice(2)
  for (const encoded of [percent, form, encodeURI(text)]) {
    forms.add(encoded)
    forms.add(encoded.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()))
  }
  // A `+` read back from a query string as a space.
  forms.add(text.replace(/\+/g, ' '))
  const json = JSON.stringify(text).slice(1, -1)
  forms.add(json)
  // PHP and others escape `/` in JSON; some escape every non-alphanumeric as \u00XX.
  forms.add(json.replace(/\//g, '\\/'))
  forms.add(text.replace(/[^A-Za-z0-9_-]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`))
  const html = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
  forms.add(html.replace(/'/g, '&#39;'))
  forms.add(html.replace(/'/g, '&#x27;').replace(/\//g, '&#x2F;').replace(/\+/g, '&#43;').replace(/=/g, '&#61;'))
  forms.add(html.replace(/'/g, '&#x27;').replace(/\//g, '&#x2f;').replace(/\+/g, '&#x2b;').replace(/=/g, '&#x3d;'))
  forms.add(text.replace(/[^A-Za-z0-9_-]/g, (c) => `&#${c.charCodeAt(0)};`))
  return [...forms].filter((form) => form.length > 0)
}

export class Redactor {
  private readonly needles: { text: string; replacement: string }[] = []
  /** Header names whose whole value is masked (lower case), with the variable named in their place. */
  private readonly maskedHeaders = new Map<string, string>()

  constructor(
    secrets: NamedSecret[] = [],
    private readonly options: RedactorOptions = {},
  ) {
    for (const secret of secrets) this.add(secret)
  }

  add({ name, value }: NamedSecret): void {
    if (!value) return
    const replacement = `<redacted:${name}>`
    const fragments = new Set([value])
    // A server may echo only part of a key (§5.2: <prefix>_<workspace>_<secret>) or of a whsec_ secret.
    const secretPart = value.split('_').at(-1)
    if (secretPart && secretPart.length >= MIN_FRAGMENT) fragments.add(secretPart)
    if (value.startsWith('whsec_')) {
      const base64 = value.slice('whsec_'.length)
      fragments.add(base64)
      // Without its padding, and in the URL-safe alphabet.
      if (base64.replace(/=+$/, '').length >= MIN_FRAGMENT) fragments.add(base64.replace(/=+$/, ''))
      fragments.add(base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''))
    }
    const known = new Set(this.needles.map((n) => n.text))
    for (const fragment of fragments) {
      for (const text of echoForms(fragment)) {
        if (text.length === 0 || known.has(text)) continue
        known.add(text)
        this.needles.push({ text, replacement })
      }
    }
    // Longest first, so a whole key is replaced before its secret part.
    this.needles.sort((a, b) => b.text.length - a.text.length)
  }

  /** Masks the whole value of a header (sent or echoed), whatever it holds: `X-Gateway-Key`. */
  maskHeader(headerName: string, variable: string): void {
    this.maskedHeaders.set(headerName.toLowerCase(), `<redacted:${variable}>`)
  }

  string(text: string): string {
    let out = text
    for (const { text: needle, replacement } of this.needles) if (out.includes(needle)) out = out.split(needle).join(replacement)
    return out
  }

  /** Redacts every string inside a JSON-like value (keys included), at a bounded depth; `byName`, credential fields too. */
  value<T>(value: T, learn?: Learn): T {
    if (value === undefined || value === null) return value
    if (typeof value === 'string') return this.string(this.options.byName && MIGHT_NAME_A_CREDENTIAL.test(value) ? maskTextByName(value, learn) : value) as T
    if (typeof value !== 'object') return value
    // Nothing to mask by value, and no field named for a credential: the value as it is, not a copy.
    if (this.options.byName && this.needles.length === 0 && !hasCredentialField(value, MAX_JSON_DEPTH)) return value
    const hidden: HiddenFields | undefined = this.options.byName
      ? {
          field: isCredentialName,
          hide: (secret) => {
            learn?.(String(secret))
            return MASKED
          },
        }
      : undefined
    return mapStrings(value, (text) => this.string(text), undefined, hidden) as T
  }

  /** A URL redacted; `byName`, the value of every credential-named query parameter masked. */
  url(text: string, learn?: Learn): string {
    return this.string(this.options.byName ? maskQueryByName(text, learn) : text)
  }

  headers(headers: Record<string, string>, learn?: Learn): Record<string, string> {
    // Entries, not assignments: a header named __proto__ or constructor is data like any other.
    return Object.fromEntries(Object.entries(headers).map(([name, raw]) => [name, this.header(name, raw, learn)]))
  }

  private header(name: string, raw: string, learn?: Learn): string {
    const lower = name.toLowerCase()
    const masked = this.maskedHeaders.get(lower)
    if (masked !== undefined) return masked
    if (this.options.byName && isCredentialName(lower)) return this.headerByName(lower, raw, learn)
    if (lower === 'authorization' && /^bearer\s+\S/i.test(raw)) {
      const redacted = this.string(raw)
      return redacted === raw ? 'Bearer <redacted>' : redacted
    }
    if (lower === 'cookie' || lower === 'set-cookie') return '<redacted>'
    return this.string(raw)
  }

  /** A credential-named header masked whole, but for an Authorization's scheme (no secret, and traffic.client.key names it). */
  private headerByName(lower: string, raw: string, learn?: Learn): string {
    // Masked already (a file this tool recorded): kept, with the variable it names.
    if (/^\s*([A-Za-z][\w-]*\s+)?<redacted(:[^>]*)?>\s*$/.test(raw)) return raw.trim()
    const configured = this.string(raw)
    const scheme = lower.endsWith('authorization') ? /^\s*([A-Za-z][\w-]*)\s+(\S.*)$/.exec(raw) : null
    learn?.(scheme ? scheme[2]!.trim() : raw)
    // A configured key keeps its variable's name: the key's role is told from it.
    if (scheme && configured !== raw && /^\s*[A-Za-z][\w-]*\s+<redacted:[^>]+>\s*$/.test(configured)) return configured.trim()
    return scheme ? `${scheme[1]} ${MASKED}` : MASKED
  }
}
