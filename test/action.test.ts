// action.yml, the composite GitHub Action, run as a runner would run it: a small harness reads its steps,
// substitutes the `${{ inputs.* }}` and `${{ github.action_path }}` expressions, runs each `run` step with
// bash as GitHub does (`bash --noprofile --norc -eo pipefail`), GITHUB_OUTPUT and GITHUB_STEP_SUMMARY as
// files, and reads the outputs. `uses` steps (actions/setup-node) are the runner's; this Node stands in.
// Against the embedded reference server (the `embedded` input), so no server of one's own is needed.
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { parse } from 'yaml'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startReferenceServer } from '../src/reference/index.ts'
import { targetEnv, ROOT } from './hostile/cli.ts'
import { faultCaughtBy } from './hostile/faults.ts'

interface ActionStep {
  id?: string
  name?: string
  uses?: string
  run?: string
  shell?: string
  env?: Record<string, string>
  'working-directory'?: string
}
interface Action {
  inputs: Record<string, { default?: string; description: string }>
  outputs: Record<string, { value: string; description: string }>
  runs: { using: string; steps: ActionStep[] }
}

const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as Action

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'crmconf-action-'))
})
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
})

interface ActionRun {
  code: number
  outputs: Record<string, string>
  summary: string
  log: string
}

/** `${{ … }}` as the runner evaluates it, for the expressions action.yml uses. */
function substitute(text: string, inputs: Record<string, string>, steps: Record<string, Record<string, string>>): string {
  return text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expression: string) => {
    const input = /^inputs\.([\w-]+)$/.exec(expression)
    if (input) return inputs[input[1]!] ?? ''
    if (expression === 'github.action_path') return ROOT
    const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expression)
    if (output) return steps[output[1]!]?.[output[2]!] ?? ''
    throw new Error(`the harness does not know the expression ${expression}`)
  })
}

/** GITHUB_OUTPUT's `name=value` lines (and `name<<EOF` blocks). */
function readOutputs(file: string): Record<string, string> {
  const outputs: Record<string, string> = {}
  const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n') : []
  for (let i = 0; i < lines.length; i++) {
    const heredoc = /^([\w-]+)<<(.+)$/.exec(lines[i]!)
    if (heredoc) {
      const end = lines.indexOf(heredoc[2]!, i + 1)
      outputs[heredoc[1]!] = lines.slice(i + 1, end).join('\n')
      i = end
    } else if (lines[i]!.includes('=')) outputs[lines[i]!.slice(0, lines[i]!.indexOf('='))] = lines[i]!.slice(lines[i]!.indexOf('=') + 1)
  }
  return outputs
}

/** One step's script, as the runner starts it; asynchronous, so a server in this process keeps answering. */
function bash(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk))
    const timer = setTimeout(() => child.kill('SIGKILL'), 240_000)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code: code ?? -1, output })
    })
  })
}

async function runAction(given: Record<string, string>, env: NodeJS.ProcessEnv, name: string): Promise<ActionRun> {
  const inputs = Object.fromEntries(Object.entries(action.inputs).map(([key, spec]) => [key, given[key] ?? spec.default ?? '']))
  const workspace = join(dir, name)
  mkdirSync(workspace, { recursive: true })
  const summaryFile = join(workspace, '.step-summary.md')
  const steps: Record<string, Record<string, string>> = {}
  let log = ''
  for (const step of action.runs.steps) {
    if (step.uses) continue
    expect(step.shell, `${step.name}: a composite step names its shell`).toBe('bash')
    const outputFile = join(workspace, `.output-${step.id ?? 'step'}`)
    writeFileSync(outputFile, '')
    const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([key, value]) => [key, substitute(String(value), inputs, steps)]))
    const result = await bash(
      substitute(step.run!, inputs, steps),
      step['working-directory'] ? substitute(step['working-directory'], inputs, steps) : workspace,
      {
        PATH: [dirname(process.execPath), process.env.PATH].join(':'),
        HOME: process.env.HOME,
        CI: 'true',
        GITHUB_ACTIONS: 'true',
        GITHUB_WORKSPACE: workspace,
        GITHUB_ACTION_PATH: ROOT,
        GITHUB_OUTPUT: outputFile,
        GITHUB_STEP_SUMMARY: summaryFile,
        ...env,
        ...stepEnv,
      },
    )
    log += result.output
    if (step.id) steps[step.id] = readOutputs(outputFile)
    if (result.code !== 0) return { code: result.code, outputs: actionOutputs(steps, inputs), summary: readSummary(summaryFile), log }
  }
  return { code: 0, outputs: actionOutputs(steps, inputs), summary: readSummary(summaryFile), log }
}

const actionOutputs = (steps: Record<string, Record<string, string>>, inputs: Record<string, string>) =>
  Object.fromEntries(Object.entries(action.outputs).map(([name, spec]) => [name, substitute(spec.value, inputs, steps)]))
const readSummary = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : '')

describe('action.yml', () => {
  test('is a composite action with the inputs and outputs the README shows, and takes no key as an input', () => {
    expect(action.runs.using).toBe('composite')
    expect(Object.keys(action.inputs).sort()).toEqual(['base-url', 'embedded', 'node-version', 'only', 'profile', 'report-dir', 'skip', 'strict'].sort())
    expect(Object.keys(action.outputs).sort()).toEqual(['report-dir', 'verdict', 'verdict-label'])
    expect(Number(action.inputs['node-version']!.default)).toBeGreaterThanOrEqual(22)
    expect(Object.keys(action.inputs).some((name) => /key|secret|token/i.test(name))).toBe(false)
    // Inputs reach the scripts as variables, never pasted into them.
    for (const step of action.runs.steps) expect(step.run ?? '', step.name).not.toMatch(/\$\{\{\s*inputs\./)
    // The packaged command (the compiled bin), not the TypeScript sources.
    expect(JSON.stringify(action.runs.steps)).toContain('bin/crm-conformance.mjs')
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toMatch(/uses: [\w-]+\/crm-conformance@/)
  })

  test('a passing run against the embedded server: exit 0, verdict outputs, summary.md in the job summary', async () => {
    const run = await runAction({ embedded: 'true', only: 'discovery', 'report-dir': 'out/report' }, {}, 'passing')
    expect(run.code, run.log.slice(-3000)).toBe(0)
    expect(run.outputs.verdict).toBe('compliant')
    expect(run.outputs['verdict-label']).toMatch(/^compliant \(subset: \d+ of \d+ checks\)$/)
    expect(run.outputs['report-dir']).toBe(join(dir, 'passing', 'out', 'report'))
    const summary = readFileSync(join(run.outputs['report-dir']!, 'summary.md'), 'utf8')
    expect(run.summary).toBe(summary)
    expect(run.log).toMatch(/^crm-conformance \S+: embedded reference server, .*, in GitHub Actions$/m)
  }, 240_000)

  test('a server with a MUST fault, its keys from env: the step exits 1 as the run does, the outputs and the summary still set', async () => {
    const must = faultCaughtBy('MUST')
    const server = await startReferenceServer({ faults: [must.fault], rateLimitPerMinute: 1_000_000 })
    try {
      const env = targetEnv(server.baseUrl, { keys: server.keys, restrictedScopes: server.restrictedScopes, fixtures: server.fixtures })
      const { CRM_BASE_URL: _fromInput, ...keys } = env
      const run = await runAction({ 'base-url': server.baseUrl, only: must.checks.join(','), profile: 'full' }, keys, 'failing')
      expect(run.code, run.log.slice(-3000)).toBe(1)
      expect(run.outputs.verdict).toBe('non-compliant')
      expect(run.summary).toContain(must.checks[0])
      // The keys came from env and stay out of the log and the summary.
      expect(run.log + run.summary).not.toContain(server.keys.main)
    } finally {
      await server.close()
    }
  }, 240_000)

  test('a run that cannot start (GitHub Actions, no base URL, not embedded): exit 2, no verdict, the reason in the log', async () => {
    const run = await runAction({}, {}, 'refused')
    expect(run.code, run.log.slice(-3000)).toBe(2)
    expect(run.outputs.verdict).toBe('')
    expect(run.log).toContain('running in GitHub Actions and CRM_BASE_URL is not')
  }, 240_000)

  test("a bad strict value is refused in one line, as GitHub's annotation", async () => {
    const run = await runAction({ embedded: 'true', strict: 'should' }, {}, 'bad-strict')
    expect(run.code).toBe(2)
    expect(run.log).toContain("::error title=crm-conformance::strict must be 'true' or 'false', got 'should'")
  }, 240_000)
})
