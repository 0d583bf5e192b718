// docs/certification.md and .github/workflows/certify.yml as a user copies them: every crm-conformance command
// line they show parses with the CLI's own parser (commands, options, values), and the identity the customer is
// told to require is the reusable workflow's path. The commands' actions are replaced: nothing runs.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse as parseYaml } from 'yaml'
import { buildProgram } from '../src/cli/main.ts'
import { PROJECT_ROOT } from '../src/version.ts'

const DOC = readFileSync(join(PROJECT_ROOT, 'docs', 'certification.md'), 'utf8')
const WORKFLOW_FILE = '.github/workflows/certify.yml'
const WORKFLOW = readFileSync(join(PROJECT_ROOT, WORKFLOW_FILE), 'utf8')

/** Shell words of one command line: quotes and backslash escapes as sh reads them (no expansion). */
function shellWords(line: string): string[] {
  const words: string[] = []
  let word: string | undefined
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!
    if (c === "'") {
      const end = line.indexOf("'", i + 1)
      word = (word ?? '') + line.slice(i + 1, end)
      i = end
    } else if (c === '"') {
      let j = i + 1
      let text = ''
      for (; line[j] !== '"'; j++) text += line[j] === '\\' ? line[++j] : line[j]
      word = (word ?? '') + text
      i = j
    } else if (c === '\\') word = (word ?? '') + line[++i]
    else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word)
      word = undefined
    } else word = (word ?? '') + c
  }
  if (word !== undefined) words.push(word)
  return words
}

/** Every `crm-conformance …` invocation in the shell blocks of a Markdown text, continuation lines joined. */
function invocations(markdown: string): string[][] {
  const blocks = [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!)
  const lines = blocks.flatMap((b) => b.replace(/\\\n\s*/g, ' ').split('\n'))
  return lines
    .map((l) => l.replace(/\s+#.*$/, ''))
    .filter((l) => /(^|\s)crm-conformance\s/.test(l))
    .map((l) => shellWords(l.slice(l.search(/(^|\s)crm-conformance\s/)).trim()).slice(1))
}

/** Parses `argv` as main() does, with every command's action replaced: the options it would have run with. */
async function parsed(argv: string[]): Promise<{ command: string; opts: Record<string, unknown> }> {
  const program = buildProgram(() => {})
  let seen: { command: string; opts: Record<string, unknown> } | undefined
  for (const command of program.commands) {
    command.exitOverride()
    command.action((...args: unknown[]) => {
      seen = { command: command.name(), opts: command.opts() }
      void args
    })
  }
  await program.parseAsync(argv, { from: 'user' })
  return seen!
}

describe('docs/certification.md', () => {
  const lines = invocations(DOC)

  it('shows certify with a key and keylessly, verify-submission with a key, an identity, a regexp and a spot check', () => {
    const flat = lines.map((l) => l.join(' '))
    expect(flat.some((l) => l.startsWith('certify') && l.includes('--sign-key vendor.pem'))).toBe(true)
    expect(flat.some((l) => l.startsWith('certify') && / --sign( |$)/.test(l))).toBe(true)
    for (const flag of ['--key', '--certificate-identity', '--certificate-identity-regexp', '--certificate-oidc-issuer', '--require-signature', '--spot-check'])
      expect(
        flat.some((l) => l.startsWith('verify-submission') && l.split(' ').includes(flag)),
        flag,
      ).toBe(true)
  })

  it.each(invocations(DOC).map((argv) => [argv.join(' '), argv]))('parses: %s', async (_, argv) => {
    const result = await parsed(argv as string[])
    expect(result.command).toBe((argv as string[])[0])
  })

  it('the spot check line parses into its sample, seed and base URL', async () => {
    const spot = lines.find((l) => l.includes('--spot-check'))!
    const { opts } = await parsed(spot)
    expect(opts).toMatchObject({ spotCheck: true, baseUrl: 'https://sandbox.acme.example/v1', sample: 20, seed: 4242, key: 'vendor.pub' })
  })

  it('tells the customer to require the identity of the reusable workflow this repository ships', () => {
    for (const [, identity] of DOC.matchAll(/--certificate-identity (https:\/\/\S+)/g)) expect(identity).toContain(`/${WORKFLOW_FILE}@`)
    expect(DOC).toContain(`uses: your-org/crm-conformance/${WORKFLOW_FILE}@`)
  })
})

describe(WORKFLOW_FILE, () => {
  const workflow = parseYaml(WORKFLOW) as {
    on: Record<string, { inputs: Record<string, unknown>; secrets: Record<string, unknown> }>
    jobs: Record<string, { permissions: Record<string, string>; steps: { run?: string; uses?: string; with?: Record<string, string> }[] }>
  }

  it('is reusable (workflow_call), may ask for an OIDC token, and signs keylessly', async () => {
    expect(Object.keys(workflow.on)).toEqual(['workflow_call'])
    const job = workflow.jobs.certify!
    expect(job.permissions).toEqual({ 'id-token': 'write', contents: 'read' })
    const run = job.steps.map((s) => s.run ?? '').find((r) => r.includes(' certify '))!
    const argv = shellWords(
      run
        .split('\n')
        .find((l) => l.includes(' certify '))!
        .replace(/^.*crm-conformance\.mjs /, ''),
    )
    const { command, opts } = await parsed(argv)
    expect(command).toBe('certify')
    expect(opts).toMatchObject({ sign: true, baseUrl: '$CRM_CONFORMANCE_BASE_URL', out: 'submission' })
  })

  it('checks out the suite at the commit the caller pinned, and the calling example uses only its inputs and secrets', () => {
    const checkout = workflow.jobs.certify!.steps.find((s) => s.with?.path === 'crm-conformance')!
    expect(checkout.with).toMatchObject({ repository: '${{ steps.suite.outputs.repository }}', ref: '${{ steps.suite.outputs.sha }}' })
    const caller = parseYaml(/```yaml\n([\s\S]*?)```/.exec(DOC)![1]!) as {
      jobs: { certify: { with: Record<string, string>; secrets: Record<string, string> } }
    }
    const declared = workflow.on.workflow_call!
    for (const input of Object.keys(caller.jobs.certify.with)) expect(Object.keys(declared.inputs), input).toContain(input)
    for (const secret of Object.keys(caller.jobs.certify.secrets)) expect(Object.keys(declared.secrets), secret).toContain(secret)
  })
})
