// A path as a console line shows it: as is when a shell reads it as one word, else in single quotes, so a folder
// with a space (`reports: '/home/me/my project/reports/x'`) can be copied into a command. Imports nothing.

const ONE_WORD = /^[A-Za-z0-9_@%+=:,./~-]+$/

/** The path, single-quoted (a quote inside escaped as the shell does) when it is not one plain word. */
export function quotedPath(path: string): string {
  return ONE_WORD.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`
}
