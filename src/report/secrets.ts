// The redaction guard: proves a rendered report holds no secret, in any of the encodings a report uses.

/** Secrets by the name to report when one leaks (the variable that holds it: `CRM_API_KEY`), or a bare list. */
export type SecretList = Record<string, string | undefined> | readonly (string | undefined)[]

export class SecretLeakError extends Error {
  constructor(
    /** The name of the secret (its variable, or `secret #n` for a bare list); never its value. */
    readonly secretName: string,
    /** How it appeared: raw, URL-encoded, JSON-escaped or HTML-escaped. */
    readonly encoding: string,
    /** 1-based line of the first occurrence. */
    readonly line: number,
    where: string | undefined,
  ) {
    super(`secret ${secretName} leaked${where ? ` in ${where}` : ''} (${encoding}, line ${line})`)
    this.name = 'SecretLeakError'
  }
}

function htmlEscaped(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')
}

/** Every form the secret may take in a report file: curl lines URL-encode, report.json escapes, report.html entity-escapes. */
function encodingsOf(secret: string): [string, string][] {
  const forms: [string, string][] = [
    ['raw', secret],
    ['URL-encoded', encodeURIComponent(secret)],
    ['JSON-escaped', JSON.stringify(secret).slice(1, -1)],
    ['HTML-escaped', htmlEscaped(secret)],
  ]
  const seen = new Set<string>()
  return forms.filter(([, form]) => (seen.has(form) ? false : (seen.add(form), true)))
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
