// Text from outside (a server's ids, codes, messages, names; a traffic file's paths and query values; a webhook
// sender's body) made safe to print on a terminal or a CI log. A terminal executes what it is sent: an ESC starts
// a sequence that can retitle the window, write the clipboard (OSC 52) or redraw the screen, a bare CR overwrites
// the line a person reads, a bidi control reorders it. Every such character is shown as a visible escape instead,
// so the text stays data and what it tried stays visible. The bottom layer: imports nothing, every printer uses it.

/** The characters shown escaped: C0 controls but TAB and LF, DEL, C1 controls, bidi controls, line/paragraph separators, lone surrogates. */
const UNPRINTABLE =
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069\uFEFF\uFFF9-\uFFFB]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/** The same, LF and TAB included: for text that must stay on one line. */
const UNPRINTABLE_ON_ONE_LINE = new RegExp(`[\\t\\n]|${UNPRINTABLE.source}`, 'g')

const NAMED: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r', '\u001B': '\\e' }

/** The visible form of one character: `\e`, `\r`, `\x07`, `\u202E`. */
export function escapeChar(char: string): string {
  const named = NAMED[char]
  if (named) return named
  const code = char.charCodeAt(0)
  return code <= 0xff ? `\\x${code.toString(16).toUpperCase().padStart(2, '0')}` : `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`
}

/**
 * Outside text as it may be printed: LF and TAB kept (a message may span lines), a CR kept only before an LF,
 * every other control character, bidi control and lone surrogate shown as its escape (`\e]52;…`, `\r`, `\u202E`).
 */
export function printable(text: string): string {
  if (typeof text !== 'string') text = String(text)
  return text.replace(/\r(?!\n)/g, '\\r').replace(UNPRINTABLE, (char) => (char === '\r' ? '\r' : escapeChar(char)))
}

/** Outside text that must stay on one line (an id, a name, a path in a line of its own): LF and TAB escaped too. */
export function printableLine(text: string): string {
  if (typeof text !== 'string') text = String(text)
  return text.replace(UNPRINTABLE_ON_ONE_LINE, escapeChar)
}

/** True when printing `text` as is could act on a terminal: what `printable` would change. */
export function hasControl(text: string): boolean {
  return printable(text) !== text
}

/** What XML 1.0 forbids (C0 but TAB/LF/CR, U+FFFE/U+FFFF, lone surrogates), with what a terminal or a page would act on (DEL, C1, bidi). */
const NOT_FOR_XML =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/**
 * Text made fit for an XML 1.0 document (junit.xml): every character the format forbids shown as its visible
 * escape, so one stray byte in a server's answer cannot make a CI publisher drop the whole file. TAB, LF, CR kept.
 * Safe on a serialised document as well as on one value: markup never contains these characters.
 */
export function xmlPrintable(text: string): string {
  return text.replace(NOT_FOR_XML, escapeChar)
}
