// What §2 "sanitised HTML" rules out, found in real tags only: text a sanitiser escaped (`&lt;script&gt;`) is
// harmless and passes.
const TAG = /<([a-zA-Z][^\s/>]*)([^>]*)>/g
const ATTRIBUTE = /([^\s"'<>/=]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'=<>`]+))?/g
const SCRIPT_URL = /^(javascript|vbscript):/i

/** An attribute value as a browser reads it: entities decoded, quotes, whitespace and control characters dropped. */
function urlOf(raw: string): string {
  const unquoted = /^["']/.test(raw) ? raw.slice(1, -1) : raw
  return unquoted
    .replace(/&#x([0-9a-f]+);?/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);?/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&colon;/gi, ':')
    .replace(/&(tab|newline);/gi, '')
    .replace(/[\u0000-\u0020]+/g, '')
}

/** The unsafe constructs of an HTML string: script elements, event-handler attributes, script URLs. */
export function unsafeParts(html: string): string[] {
  const found = new Set<string>()
  if (/<\s*script\b/i.test(html)) found.add('a <script> element')
  for (const tag of html.matchAll(TAG)) {
    if (tag[1]!.toLowerCase() === 'script') found.add('a <script> element')
    for (const attribute of tag[2]!.matchAll(ATTRIBUTE)) {
      const name = attribute[1]!.toLowerCase()
      if (/^on/.test(name)) found.add(`an ${name}= attribute on <${tag[1]!.toLowerCase()}>`)
      if (attribute[2] !== undefined && SCRIPT_URL.test(urlOf(attribute[2]))) found.add(`a script URL in ${name}= on <${tag[1]!.toLowerCase()}>`)
    }
  }
  return [...found]
}
