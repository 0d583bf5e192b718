// Every command line the documentation shows parses (issue 40: the README's own nightly line was refused with
// "unknown option"): each `crm-conformance …`, `npx [--package …] crm-conformance …`, `node bin/crm-conformance….mjs …`
// and `npm run …` / `npm test` line of a code block in README.md and docs/**/*.md is given to the CLI's own
// commander program with every action replaced by nothing, so an unknown command or option, a missing value or a
// refused choice fails here. No network, no run, no child process.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { Command, CommanderError } from 'commander'
import { describe, expect, test } from 'vitest'
import { buildProgram } from '../src/cli/main.ts'
import { PROJECT_ROOT } from '../src/version.ts'

/**
 * Lines shown in the docs that wait for another branch, each with the error they give until it lands: the lead
 * removes an entry at merge. A pending line that parses passes too, so the merge order does not matter.
 */
const PENDING: Record<string, string> = {}

const scripts = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts

function markdownFiles(): string[] {
  const docs = readdirSync(join(PROJECT_ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.md'))
    .map((path) => join('docs', path))
  return ['README.md', ...docs.sort()]
}

/** The lines of fenced code blocks (JSON and YAML aside), a line continued with `\` joined to the next. */
function codeLines(markdown: string): string[] {
  const lines: string[] = []
  for (const [, lang, body] of markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)) {
    if (['json', 'yaml', 'yml'].includes(lang!)) continue
    lines.push(...body!.replace(/\\\n\s*/g, ' ').split('\n'))
  }
  return lines.map((line) => line.trim()).filter(Boolean)
}

/** Words as a shell splits them: quotes kept together, `$(…)` one word. */
function words(text: string): string[] {
  return [...text.matchAll(/"([^"]*)"|'([^']*)'|((?:\$\([^)]*\)|[^\s"'])+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!)
}

interface Shown {
  file: string
  line: string
  /** What the CLI's argv would be; undefined: an npm command checked by name only. */
  argv?: string[]
  npmScript?: string
}

const BIN = /^(?:npx(?: --package \S+)? crm-conformance|crm-conformance|node bin\/crm-conformance(?:-ts)?\.mjs)(?:\s|$)/

/** The command lines one code line holds: a shell comment dropped, `[--optional value]` read with its value, each part of `&&`, `;` and `|` apart. */
function commandsOf(file: string, line: string): Shown[] {
  const shown: Shown[] = []
  const code = line
    .replace(/(^|\s)#.*$/, '')
    .replace(/\[([^\]]*)\]/g, (_, inside: string) => inside.split('|')[0]!)
    .replace(/\s[12]?>+\s*\S+/g, '')
  for (const part of code.split(/\s*(?:&&|;|\|\|?)\s*/)) {
    const command = part.trim()
    if (BIN.test(command)) shown.push({ file, line: command, argv: words(command.replace(BIN, '')) })
    const npm = /^npm (run (\S+)|test)(?: -- (.*))?$/.exec(command)
    if (npm) {
      const name = npm[2] ?? 'test'
      const bin = /node bin\/crm-conformance\.mjs (.*)$/.exec(scripts[name] ?? '')
      shown.push({ file, line: command, npmScript: name, ...(bin ? { argv: [...words(bin[1]!), ...words(npm[3] ?? '')] } : {}) })
    }
  }
  return shown
}

const shown = markdownFiles().flatMap((file) => codeLines(readFileSync(join(PROJECT_ROOT, file), 'utf8')).flatMap((line) => commandsOf(file, line)))

/** The CLI's program with every action replaced by nothing and its output kept: parsing alone. */
function parseOnly(): { program: Command; output: () => string } {
  let output = ''
  const program = buildProgram(() => {})
  const quiet = (command: Command): void => {
    command.configureOutput({ writeOut: (text) => (output += text), writeErr: (text) => (output += text) })
    command.exitOverride()
    command.action(() => {})
    command.commands.forEach(quiet)
  }
  quiet(program)
  return { program, output: () => output }
}

/** undefined when the CLI parses argv as main.ts would; else why not. */
async function parseError(argv: string[]): Promise<string | undefined> {
  const { program, output } = parseOnly()
  // As main.ts: a first word that is no command is refused, not taken as an argument of the default `run`.
  const first = argv[0]
  if (first !== undefined && !first.startsWith('-') && first !== 'help' && !program.commands.some((c) => c.name() === first))
    return `unknown command '${first}'`
  try {
    await program.parseAsync(argv, { from: 'user' })
    return undefined
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? undefined : `${error.message} ${output()}`.trim()
    throw error
  }
}

describe('the command lines the docs show', () => {
  test('are found in README.md and in the guides under docs/', () => {
    const files = new Set(shown.map((s) => s.file))
    for (const file of ['README.md', 'docs/ci.md', 'docs/nightly.md', 'docs/certification.md', 'docs/traffic.md', 'docs/reference.md'])
      expect(files, file).toContain(file)
    expect(shown.filter((s) => s.argv).length).toBeGreaterThan(15)
    for (const line of Object.keys(PENDING))
      expect(
        shown.map((s) => s.line),
        'a pending line the docs no longer show',
      ).toContain(line)
    // The README's two set-up commands, which CI (.ci/run: `npm test`) and a newcomer rely on.
    const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8')
    expect(readme).toContain('```sh\nnpm ci && npm run conformance\n```')
    expect(readme).toContain('```sh\nnpm ci && npm test\n```')
  })

  test.each(shown.map((s) => [`${s.file}: ${s.line}`, s] as const))('%s', async (_, s) => {
    if (s.npmScript) expect(Object.keys(scripts), `npm script ${s.npmScript}`).toContain(s.npmScript)
    if (!s.argv) return
    const error = await parseError(s.argv)
    const pending = PENDING[s.line]
    if (pending !== undefined && error !== undefined) expect(error).toContain(pending)
    else expect(error).toBeUndefined()
  })

  test('an unknown option, an unknown command and a missing value are caught (the check can fail)', async () => {
    expect(await parseError(['run', '--histroy', 'x.jsonl'])).toMatch(/unknown option '--histroy'/)
    expect(await parseError(['certfy'])).toMatch(/unknown command 'certfy'/)
    expect(await parseError(['run', '--only'])).toMatch(/argument missing/)
    expect(commandsOf('x.md', 'npx crm-conformance list   # every check')).toEqual([{ file: 'x.md', line: 'npx crm-conformance list', argv: ['list'] }])
    expect(words('diff reports/$(date -d yesterday +%F) "a b"')).toEqual(['diff', 'reports/$(date -d yesterday +%F)', 'a b'])
  })
})

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
const anchor = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-')

describe('the links between the docs', () => {
  test.each(markdownFiles())('%s: every relative link names a file that exists, and a heading there', (file) => {
    const text = readFileSync(join(PROJECT_ROOT, file), 'utf8').replace(/^```[\s\S]*?^```$/gm, '')
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue
      const [path, hash] = target!.split('#') as [string, string | undefined]
      const resolved = path === '' ? join(PROJECT_ROOT, file) : join(PROJECT_ROOT, dirname(file), path)
      expect(existsSync(resolved), `${file}: ${target}`).toBe(true)
      if (hash === undefined || !resolved.endsWith('.md')) continue
      const headings = [...readFileSync(resolved, 'utf8').matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchor(m[1]!))
      expect(headings, `${file}: ${target}`).toContain(hash)
    }
  })
})
