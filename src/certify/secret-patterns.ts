// Secrets by their shape, for a reader who does not know the secret values (a reviewer, a bot running
// verify-submission). src/report/secrets.ts proves a file free of *known* values; this finds values that
// *look like* credentials. Redaction markers (`<redacted:CRM_API_KEY>`, `$CRM_API_KEY` in curl lines) are
// never findings.
//
// Detects: a bearer token written out (`Bearer <token>`); a Standard Webhooks secret (`whsec_` + base64, raw
// or URL-encoded); a key shaped like §5.2 (`<prefix>_<workspace>_<secret>` with a long random tail); a PEM
// private key. Cannot detect: a key of another shape or with a short secret part, a secret cut in pieces or
// re-encoded (base64 of a key, a key split across lines), the base64 part of a whsec_ secret without its
// prefix, or a secret that is an ordinary word. Only a real run's redaction (which knows the values) rules
// those out.

export type SecretShape = 'bearer-token' | 'webhook-secret' | 'api-key' | 'private-key'

export interface SecretFinding {
  file: string
  line: number
  shape: SecretShape
  /** The first characters and the length; never the value. */
  hint: string
}

/** Shortest random tail of a §5.2-shaped key that counts as a secret (the reference server's is 32). */
export const MIN_KEY_SECRET_CHARS = 20
/** Shortest bearer token that counts (shorter values are words: `Bearer realm`, `Bearer x`). */
export const MIN_BEARER_CHARS = 12
/** Shortest base64 body of a whsec_ secret that counts (the reference server's is 44). */
export const MIN_WHSEC_CHARS = 16

const BASE64_CHAR = String.raw`(?:[A-Za-z0-9+/=]|%2[BbFf]|%3[Dd])`

const PATTERNS: { shape: SecretShape; regex: RegExp; value: (m: RegExpExecArray) => string; accept?: (value: string) => boolean }[] = [
  {
    shape: 'private-key',
    regex: /-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----/g,
    value: (m) => m[0],
  },
  {
    shape: 'webhook-secret',
    regex: new RegExp(String.raw`whsec_(${BASE64_CHAR}{${MIN_WHSEC_CHARS},})`, 'g'),
    value: (m) => m[0],
  },
  {
    // A token must start with a letter or digit: `$CRM_API_KEY`, `<redacted…>`, `&lt;redacted…&gt;` do not.
    // `Bearer realm="…"` / `Bearer error="…"` (WWW-Authenticate parameters) are not tokens.
    shape: 'bearer-token',
    regex: /Bearer\s+(?![A-Za-z_]+=")([A-Za-z0-9][A-Za-z0-9._~+/=-]*)/g,
    value: (m) => m[1]!,
    accept: (token) => token.length >= MIN_BEARER_CHARS && characterClasses(token) >= 2,
  },
  {
    shape: 'api-key',
    regex: new RegExp(String.raw`(?<![A-Za-z0-9_])[A-Za-z][A-Za-z0-9]{0,15}(?:_[A-Za-z0-9]+)+_([A-Za-z0-9]{${MIN_KEY_SECRET_CHARS},})(?![A-Za-z0-9_])`, 'g'),
    value: (m) => m[0],
    accept: (key) => looksRandom(key.split('_').at(-1)!),
  },
]

function characterClasses(text: string): number {
  return [/[a-z]/, /[A-Z]/, /[0-9]/].filter((r) => r.test(text)).length
}

/** A random tail mixes character classes and repeats few characters; identifiers and words do neither. */
export function looksRandom(text: string): boolean {
  return text.length >= MIN_KEY_SECRET_CHARS && characterClasses(text) >= 2 && new Set(text).size >= 10
}

function hintOf(value: string): string {
  return `${value.slice(0, Math.min(6, Math.floor(value.length / 4)))}… (${value.length} characters)`
}

/** Every credential-shaped value of `text`, with its line; `file` names the text in the findings. */
export function findSecretShapes(text: string, file: string): SecretFinding[] {
  const findings: SecretFinding[] = []
  const taken: [number, number][] = []
  for (const pattern of PATTERNS) {
    pattern.regex.lastIndex = 0
    for (let m = pattern.regex.exec(text); m; m = pattern.regex.exec(text)) {
      const start = m.index
      const end = start + m[0].length
      // One value, one finding: a whsec_ secret inside a Bearer header is reported once.
      if (taken.some(([s, e]) => start < e && end > s)) continue
      const value = pattern.value(m)
      if (pattern.accept && !pattern.accept(value)) continue
      taken.push([start, end])
      findings.push({ file, line: text.slice(0, start).split('\n').length, shape: pattern.shape, hint: hintOf(value) })
    }
  }
  return findings.sort((a, b) => a.line - b.line)
}

export function describeFinding(f: SecretFinding): string {
  const what: Record<SecretShape, string> = {
    'bearer-token': 'a bearer token written out',
    'webhook-secret': 'a webhook signing secret (whsec_…)',
    'api-key': 'an API key (<prefix>_<workspace>_<secret>)',
    'private-key': 'a PEM private key',
  }
  return `${f.file} line ${f.line} holds what looks like ${what[f.shape]}: ${f.hint}`
}
