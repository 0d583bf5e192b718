// Text made inert in Markdown: a table cell or a code span that whatever a server, a report file or a traffic
// capture says cannot break, link, mention or style (rule 7). The summary, the diff comment and every other
// Markdown writer quote through these two.
import { printableLine, xmlPrintable } from './printable.ts'

/** Longest text in one table cell. */
const MAX_CELL_CHARS = 240

/** Zero-width space: breaks what GitHub would act on without changing what a reader sees. */
const ZWSP = '\u200b'

/** Control, bidi and lone-surrogate characters, and U+FFFE/U+FFFF, shown as visible escapes (src/text/printable.ts). */
const visible = (text: string) => xmlPrintable(printableLine(text))

/**
 * Text from a check (possibly quoting the server) made inert in a table cell: no HTML, no pipe or line break
 * that would end the cell, no emphasis, link or image syntax; and nothing GitHub acts on in plain text, each
 * broken by a zero-width space (an entity or a backslash would not do: GitHub links the text they decode to):
 * no @mention that would notify someone, no `#1`/`GH-1`/`owner/repo#1` reference that would back-link from
 * another repository's issue, no `https://`/`www.`/e-mail autolink, no `:emoji:` shortcode. Bidi and control
 * characters are shown escaped.
 */
export function mdCell(text: unknown, max = MAX_CELL_CHARS): string {
  let s = String(text ?? '')
    .replace(/\s+/g, ' ')
    .trim()
  if (s.length > max) s = `${s.slice(0, max - 1)}…`
  return (
    visible(s)
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/\\/g, '\\\\')
      .replace(/\|/g, '\\|')
      .replace(/([*`[\]~])/g, '\\$1')
      // GFM ignores an underscore inside a word (CRM_API_KEY): escape only the ones that could open emphasis.
      .replace(/(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g, '\\_')
      .replace(/@/g, `@${ZWSP}`)
      .replace(/#(?=\d)/g, `#${ZWSP}`)
      .replace(/\b(gh)-(?=\d)/gi, `$1-${ZWSP}`)
      .replace(/:(?=[\w+\-/])/g, `:${ZWSP}`)
      .replace(/\b(www)\./gi, `$1${ZWSP}.`)
  )
}

/**
 * A code span that survives backticks and pipes inside it: GitHub links, mentions and references nothing in a
 * code span, so server text is quoted this way where it is data (ids, URLs, commands). Bidi and control
 * characters are shown escaped, as they would still act inside the span.
 */
export function mdCode(text: string, max = MAX_CELL_CHARS): string {
  let s = visible(text.replace(/\s+/g, ' ').trim())
  if (s.length > max) s = `${s.slice(0, max - 1)}…`
  s = s.replace(/\|/g, '\\|')
  const longest = Math.max(0, ...(s.match(/`+/g) ?? []).map((run) => run.length))
  const fence = '`'.repeat(longest + 1)
  const pad = s.startsWith('`') || s.endsWith('`') ? ' ' : ''
  return `${fence}${pad}${s}${pad}${fence}`
}
