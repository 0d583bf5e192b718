// Secrets never reach evidence, reports or output: every recorded string passes through a Redactor first.

export interface NamedSecret {
  /** The variable that holds it, shown in place of the value: `<redacted:CRM_API_KEY>`. */
  name: string
  value: string
}

const MIN_FRAGMENT = 8

export class Redactor {
  private readonly needles: { text: string; replacement: string }[] = []

  constructor(secrets: NamedSecret[] = []) {
    for (const secret of secrets) this.add(secret)
  }

  add({ name, value }: NamedSecret): void {
    if (!value) return
    const replacement = `<redacted:${name}>`
    const fragments = new Set([value])
    // A server may echo only part of a key (§5.2: <prefix>_<workspace>_<secret>) or of a whsec_ secret.
    const secretPart = value.split('_').at(-1)
    if (secretPart && secretPart.length >= MIN_FRAGMENT) fragments.add(secretPart)
    if (value.startsWith('whsec_')) fragments.add(value.slice('whsec_'.length))
    for (const text of fragments) if (text.length > 0) this.needles.push({ text, replacement })
    // Longest first, so a whole key is replaced before its secret part.
    this.needles.sort((a, b) => b.text.length - a.text.length)
  }

  string(text: string): string {
    let out = text
    for (const { text: needle, replacement } of this.needles) if (out.includes(needle)) out = out.split(needle).join(replacement)
    return out
  }

  /** Redacts every string inside a JSON-like value (keys included). */
  value<T>(value: T): T {
    if (value === undefined || value === null) return value
    if (typeof value === 'string') return this.string(value) as T
    if (typeof value !== 'object') return value
    return JSON.parse(this.string(JSON.stringify(value))) as T
  }

  headers(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {}
    for (const [name, raw] of Object.entries(headers)) {
      const lower = name.toLowerCase()
      if (lower === 'authorization' && /^bearer\s+\S/i.test(raw)) {
        const redacted = this.string(raw)
        out[name] = redacted === raw ? 'Bearer <redacted>' : redacted
      } else if (lower === 'cookie' || lower === 'set-cookie') {
        out[name] = '<redacted>'
      } else {
        out[name] = this.string(raw)
      }
    }
    return out
  }
}
