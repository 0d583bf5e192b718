// The hostile corpus: text a server, a webhook sender or a traffic file may carry to attack whoever reads a
// report or a terminal. The printers, junit.xml, summary.md and report.html are fed the same strings.

/** Strings that act on a terminal, break XML 1.0, or become live Markdown on GitHub. */
export const HOSTILE_TEXT = {
  osc52: '\u001b]52;c;ZWNobyBwd25lZA==\u0007',
  title: '\u001b]0;pwned\u0007',
  csi: '\u001b[2J\u001b[31mred\u001b[0m',
  c1csi: '\u009b31m',
  bareCr: 'innocent\rREPLACED',
  bidi: 'abc\u202Eevil\u202C\u2066x\u2069\u200E\u200F\u061C',
  bell: 'ding\u0007\u0000\u0008',
  xmlForbidden: 'code\uFFFE\uFFFF\u0001\u001F',
  loneHigh: 'a\uD800b',
  loneLow: 'a\uDC00b',
  lineSep: 'one\u2028two',
  autolink: 'see https://evil.example/x and www.evil.example',
  crossRef: 'octocat/hello-world#1 and #2 and GH-3',
  mention: '@octocat @github/security',
  emoji: ':shipit: :+1:',
  email: 'security@evil.example mailto:x@evil.example',
  markdown: '| a | b |\n`code` ``two`` [link](https://evil.example) ![img](https://evil.example/i.png) <img src=x onerror=alert(1)> **bold** _em_',
  html: '<script>alert(1)</script>&amp;',
} as const

/** Every hostile string joined, for a field that takes one. */
export const HOSTILE_ALL = Object.values(HOSTILE_TEXT).join(' ')

/**
 * A control character a terminal could act on: C0 but TAB and LF, DEL, C1, bidi controls, line separators; a CR
 * only when not followed by LF. With `allowColour`, SGR colour sequences and the live line's erase are allowed.
 */
export function controlsIn(output: string, options: { allowColour?: boolean } = {}): string[] {
  let text = output
  if (options.allowColour) text = text.replace(/\u001b\[[0-9;]*m|\r\u001b\[2K/g, '')
  const found = text.match(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069]|\r(?!\n)/g) ?? []
  return found.map((c) => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`)
}

/** The corpus less what cannot travel in a URL or a command-line argument (lone surrogates, NUL). */
export const HOSTILE_WELL_FORMED = HOSTILE_ALL.replace(/[\uD800-\uDFFF\u0000]/g, '')
