// action.yml, the composite GitHub Action, run as a runner would run it: a small harness reads its steps,
// substitutes the `${{ … }}` expressions it uses, evaluates each step's `if`, runs each `run` step with bash as
// GitHub does (`bash --noprofile --norc -eo pipefail`), GITHUB_OUTPUT and GITHUB_STEP_SUMMARY as files, and
// reads the outputs. The action runs from a copy of the project as GitHub checks it out (no node_modules, no
// dist/), so its install step is the real one: `npm ci --omit=dev` (from npm's cache or the registry) and the
// build. Of the `uses` steps, actions/cache/restore and save are played by a folder of saved copies, so the
// second job restores what the first saved; actions/setup-node must not run, this Node being new enough.
// Against the embedded reference server (the `embedded` input), so no server of one's own is needed.
import { spawn } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { parse } from 'yaml'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startReferenceServer } from '../src/reference/index.ts'
import { targetEnv, ROOT } from './hostile/cli.ts'
import { faultCaughtBy } from './hostile/faults.ts'

interface ActionStep {
  id?: string
  name?: string
  if?: string
  uses?: string
  with?: Record<string, string>
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

/** What GitHub checks out of the action's repository: the sources, no node_modules and no dist/. */
const CHECKOUT = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'bin', 'scripts', 'src', 'suites', 'schemas', 'spec']

let dir: string
let cacheStore: string
let checkouts = 0
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'crmconf-action-'))
  cacheStore = join(dir, '.cache-store')
})
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
}, 120_000)

/** A fresh checkout of the action, as a new runner gets it. */
function checkout(): string {
  const path = join(dir, `action-${++checkouts}`)
  for (const entry of CHECKOUT) cpSync(join(ROOT, entry), join(path, entry), { recursive: true })
  return path
}

interface ActionRun {
  code: number
  outputs: Record<string, string>
  summary: string
  log: string
  /** The steps that ran: a step's id, else what it uses. */
  ran: string[]
  actionPath: string
}

type Steps = Record<string, Record<string, string>>

/** `${{ … }}` as the runner evaluates it, for the expressions action.yml uses. */
function substitute(text: string, inputs: Record<string, string>, steps: Steps, actionPath: string): string {
  return text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expression: string) => {
    const input = /^inputs\.([\w-]+)$/.exec(expression)
    if (input) return inputs[input[1]!] ?? ''
    if (expression === 'github.action_path') return actionPath
    const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expression)
    if (output) return steps[output[1]!]?.[output[2]!] ?? ''
    throw new Error(`the harness does not know the expression ${expression}`)
  })
}

/** A step's `if`, in the one form action.yml uses: `steps.<id>.outputs.<name> == (or !=) '<value>'`. */
function condition(expression: string | undefined, steps: Steps): boolean {
  if (expression === undefined) return true
  const test = /^steps\.([\w-]+)\.outputs\.([\w-]+) (==|!=) '([^']*)'$/.exec(expression.trim())
  if (!test) throw new Error(`the harness does not know the condition ${expression}`)
  const value = steps[test[1]!]?.[test[2]!] ?? ''
  return test[3] === '==' ? value === test[4] : value !== test[4]
}

/**
 * actions/cache/restore and actions/cache/save, on a folder holding each key's copy of each path (under its own
 * name, so that node_modules keeps resolving). node_modules is linked back rather than copied: the same files for
 * the run, and thousands fewer to write and remove; dist/ is copied, as the command finds its project from it.
 */
function cacheStep(uses: string, options: Record<string, string>): Record<string, string> {
  const paths = options
    .path!.split('\n')
    .map((p) => p.trim())
    .filter(Boolean)
  const saved = join(cacheStore, options.key!)
  const copy = (path: string, i: number) => join(saved, String(i), basename(path))
  if (uses.startsWith('actions/cache/save@')) {
    expect(existsSync(saved), 'a key is saved once').toBe(false)
    paths.forEach((path, i) => cpSync(path, copy(path, i), { recursive: true }))
    return {}
  }
  if (!existsSync(saved)) return { 'cache-hit': 'false' }
  paths.forEach((path, i) => (basename(path) === 'node_modules' ? symlinkSync(copy(path, i), path, 'dir') : cpSync(copy(path, i), path, { recursive: true })))
  return { 'cache-hit': 'true', 'cache-matched-key': options.key! }
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

async function runAction(given: Record<string, string>, env: NodeJS.ProcessEnv, name: string, actionPath = checkout()): Promise<ActionRun> {
  const inputs = Object.fromEntries(Object.entries(action.inputs).map(([key, spec]) => [key, given[key] ?? spec.default ?? '']))
  const workspace = join(dir, name)
  mkdirSync(workspace, { recursive: true })
  const summaryFile = join(workspace, '.step-summary.md')
  const steps: Steps = {}
  const ran: string[] = []
  let log = ''
  const ended = (code: number): ActionRun => ({
    code,
    outputs: Object.fromEntries(Object.entries(action.outputs).map(([output, spec]) => [output, substitute(spec.value, inputs, steps, actionPath)])),
    summary: existsSync(summaryFile) ? readFileSync(summaryFile, 'utf8') : '',
    log,
    ran,
    actionPath,
  })
  const evaluate = (value: string) => substitute(value, inputs, steps, actionPath)
  for (const step of action.runs.steps) {
    if (!condition(step.if, steps)) continue
    ran.push(step.id ?? step.uses!)
    if (step.uses) {
      expect(step.uses, 'setup-node runs only when the job has no Node.js new enough').toMatch(/^actions\/cache\/(restore|save)@v\d+$/)
      const outputs = cacheStep(step.uses, Object.fromEntries(Object.entries(step.with ?? {}).map(([key, value]) => [key, evaluate(String(value))])))
      if (step.id) steps[step.id] = outputs
      continue
    }
    expect(step.shell, `${step.name}: a composite step names its shell`).toBe('bash')
    const outputFile = join(workspace, `.output-${step.id ?? 'step'}`)
    writeFileSync(outputFile, '')
    const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([key, value]) => [key, evaluate(String(value))]))
    const result = await bash(evaluate(step.run!), step['working-directory'] ? evaluate(step['working-directory']) : workspace, {
      PATH: [dirname(process.execPath), process.env.PATH].join(':'),
      HOME: process.env.HOME,
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: workspace,
      GITHUB_ACTION_PATH: actionPath,
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      RUNNER_OS: 'Linux',
      RUNNER_TEMP: workspace,
      ...env,
      ...stepEnv,
    })
    log += result.output
    if (step.id) steps[step.id] = readOutputs(outputFile)
    if (result.code !== 0) return ended(result.code)
  }
  return ended(0)
}

/** The packages installed in an action's checkout, by name. */
const installed = (actionPath: string) =>
  Object.keys((JSON.parse(readFileSync(join(actionPath, 'node_modules', '.package-lock.json'), 'utf8')) as { packages: object }).packages).map((path) =>
    path.replace(/^.*node_modules\//, ''),
  )

describe('action.yml', () => {
  const discovery = { embedded: 'true', only: 'discovery', 'report-dir': 'out/report' }
  /** The first job on a runner: nothing cached yet. */
  let cold: ActionRun
  beforeAll(async () => {
    cold = await runAction(discovery, {}, 'cold')
  }, 240_000)

  test('is a composite action with the inputs and outputs the docs show, and takes no key as an input', () => {
    expect(action.runs.using).toBe('composite')
    expect(Object.keys(action.inputs).sort()).toEqual(['base-url', 'embedded', 'node-version', 'only', 'profile', 'report-dir', 'skip', 'strict'].sort())
    expect(Object.keys(action.outputs).sort()).toEqual(['report-dir', 'verdict', 'verdict-label'])
    expect(Number(action.inputs['node-version']!.default)).toBeGreaterThanOrEqual(22)
    expect(Object.keys(action.inputs).some((name) => /key|secret|token/i.test(name))).toBe(false)
    // Inputs reach the scripts as variables, never pasted into them.
    for (const step of action.runs.steps) expect(step.run ?? '', step.name).not.toMatch(/\$\{\{\s*inputs\./)
    // The packaged command (the compiled bin), not the TypeScript sources.
    expect(JSON.stringify(action.runs.steps)).toContain('bin/crm-conformance.mjs')
    // setup-node only when the job's Node is missing or too old, so the caller's Node stays as it was.
    const setupNode = action.runs.steps.find((step) => step.uses?.startsWith('actions/setup-node@'))
    expect(setupNode?.if).toBe("steps.node.outputs.setup == 'true'")
    const docs = ['README.md', 'docs/ci.md'].filter((file) => existsSync(join(ROOT, file))).map((file) => readFileSync(join(ROOT, file), 'utf8'))
    expect(docs.join('\n')).toMatch(/uses: [\w-]+\/crm-conformance@/)
  })

  test.each([
    ['18.20.4', 'true'],
    ['20.18.3', 'true'],
    ['20.19.0', 'false'],
    ['24.1.0', 'false'],
  ])("the job's Node %s: setup-node runs = %s (package.json engines: >=20.19.0)", async (version, setup) => {
    const step = action.runs.steps.find((s) => s.id === 'node')!
    const output = join(dir, `.output-node-${version}`)
    writeFileSync(output, '')
    // The job's `node` made to report another version, as test/bin.test.ts does.
    const pretend = `--import=data:text/javascript,Object.defineProperty(process,'versions',{value:{...process.versions,node:'${version}'}})`
    const result = await bash(step.run!, ROOT, { PATH: [dirname(process.execPath), process.env.PATH].join(':'), GITHUB_OUTPUT: output, NODE_OPTIONS: pretend })
    expect(result.code, result.output).toBe(0)
    expect(readOutputs(output)).toEqual({ setup })
  })

  test('a first job installs the runtime dependencies only, builds dist/, saves them to the cache and passes: exit 0, the verdict outputs, summary.md in the job summary', () => {
    expect(cold.code, cold.log.slice(-3000)).toBe(0)
    expect(cold.ran).toEqual(['node', 'key', 'cache', 'install', 'actions/cache/save@v4', 'run'])
    const packages = installed(cold.actionPath)
    expect(packages).toContain('commander')
    for (const development of ['vitest', 'typescript', '@stryker-mutator/core', '@redocly/cli', 'playwright-core', '@types/node', 'prettier'])
      expect(packages, development).not.toContain(development)
    expect(existsSync(join(cold.actionPath, 'dist', 'src', 'cli', 'main.js'))).toBe(true)
    expect(cold.outputs.verdict).toBe('compliant')
    expect(cold.outputs['verdict-label']).toMatch(/^compliant \(subset: \d+ of \d+ checks\)$/)
    expect(cold.outputs['report-dir']).toBe(join(dir, 'cold', 'out', 'report'))
    expect(cold.summary).toBe(readFileSync(join(cold.outputs['report-dir']!, 'summary.md'), 'utf8'))
    expect(cold.log).toMatch(/^crm-conformance: on this job's Node\.js v\d+/m)
    expect(cold.log).toMatch(/^crm-conformance \S+: embedded reference server, .*, in GitHub Actions$/m)
  })

  test('a later job restores the cache and installs nothing', async () => {
    const warm = await runAction(discovery, {}, 'warm')
    expect(warm.code, warm.log.slice(-3000)).toBe(0)
    expect(warm.ran).toEqual(['node', 'key', 'cache', 'run'])
    expect(warm.outputs.verdict).toBe('compliant')
    expect(installed(warm.actionPath)).toEqual(installed(cold.actionPath))
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

  test('a run that cannot start (GitHub Actions, no base URL, not embedded): exit 2, no verdict, the reason as an annotation and in the job summary', async () => {
    const run = await runAction({}, {}, 'refused')
    expect(run.code, run.log.slice(-3000)).toBe(2)
    expect(run.outputs.verdict).toBe('')
    expect(run.log).toMatch(/^::error title=crm-conformance::the run could not start \(exit 2\): .*running in GitHub Actions and CRM_BASE_URL is not/m)
    expect(run.summary).toMatch(/^## ⛔ CRM API conformance: the run could not start \(exit 2\)\n\n`.*running in GitHub Actions and CRM_BASE_URL is not/)
  }, 240_000)

  test('a report folder left by an earlier run (a self-hosted runner, the action twice in a job): an exit 2 publishes none of its verdict', async () => {
    const folder = join(dir, 'stale', 'out', 'report')
    mkdirSync(folder, { recursive: true })
    writeFileSync(join(folder, 'report.json'), JSON.stringify({ verdict: 'non-compliant', verdictLabel: 'non-compliant (stale)' }))
    writeFileSync(join(folder, 'summary.md'), '## STALE summary of an earlier run\n')
    writeFileSync(join(folder, 'notes.txt'), 'not a report file: left alone\n')
    const run = await runAction({ ...discovery, only: 'paginaton' }, {}, 'stale')
    expect(run.code, run.log.slice(-3000)).toBe(2)
    expect(run.outputs.verdict).toBe('')
    expect(run.outputs['verdict-label']).toBe('')
    expect(run.summary).not.toContain('STALE')
    expect(run.summary).toMatch(/^## ⛔ CRM API conformance: the run could not start \(exit 2\)/)
    expect(run.log).toMatch(/^::error title=crm-conformance::the run could not start \(exit 2\): .*paginaton/m)
    expect(existsSync(join(folder, 'report.json'))).toBe(false)
    expect(readFileSync(join(folder, 'notes.txt'), 'utf8')).toBe('not a report file: left alone\n')
  }, 240_000)

  test("a bad strict value is refused in one line, as GitHub's annotation", async () => {
    const run = await runAction({ embedded: 'true', strict: 'should' }, {}, 'bad-strict')
    expect(run.code).toBe(2)
    expect(run.log).toContain("::error title=crm-conformance::strict must be 'true' or 'false', got 'should'")
    expect(run.outputs.verdict).toBe('')
    expect(run.summary).toBe("## ⛔ CRM API conformance: the run could not start (exit 2)\n\nstrict must be 'true' or 'false', got 'should'\n")
  }, 240_000)
})
