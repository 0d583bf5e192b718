// Runs `crm-conformance` as a child process for the integration tests (hostile server, secret leaks,
// interrupts, the CLI itself): a minimal environment, a working folder of its own (so no developer's .env is
// read), everything it prints captured, and a hard time limit after which it is killed and reported as hung.
import { spawn, type ChildProcess } from 'node:child_process'
import { join, resolve } from 'node:path'
import { parse as parseDotenv } from 'dotenv'
import { KEY_VARIABLES, type FixtureName, type KeyRole, FIXTURE_VARIABLES } from '../../src/config/config.ts'

export const ROOT = resolve(import.meta.dirname, '..', '..')
// The CLI from the TypeScript sources (no build needed); test/package.test.ts runs the packed, compiled one.
export const BIN = join(ROOT, 'bin', 'crm-conformance-ts.mjs')

export interface CliRun {
  /** The exit code; null when killed. */
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
  /** True when the hard limit was reached and the process was killed. */
  hung: boolean
}

export interface StartedCli {
  child: ChildProcess
  /** Everything printed so far (stdout then stderr interleaved as it came). */
  output(): string
  done: Promise<CliRun>
}

export interface CliOptions {
  cwd: string
  env?: NodeJS.ProcessEnv
  /** Killed (SIGKILL) after this long, and the run is marked hung. */
  hardLimitMs: number
}

/** The environment a child starts from: only what Node needs, none of the caller's CRM_* variables. */
export function baseEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR, ...extra }
}

/** The variables that point a run at a server with the given keys (every role given), scopes and fixtures. */
export function targetEnv(
  baseUrl: string,
  reference: { keys: Partial<Record<KeyRole, string>>; restrictedScopes?: string[]; fixtures?: Partial<Record<FixtureName, string>>; webhookSecret?: string },
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { CRM_BASE_URL: baseUrl }
  for (const [role, variable] of Object.entries(KEY_VARIABLES) as [KeyRole, string][]) if (reference.keys[role]) env[variable] = reference.keys[role]
  if (reference.restrictedScopes) env.CRM_API_KEY_RESTRICTED_SCOPES = reference.restrictedScopes.join(' ')
  for (const [name, variable] of Object.entries(FIXTURE_VARIABLES) as [FixtureName, string][])
    if (reference.fixtures?.[name]) env[variable] = reference.fixtures[name]
  if (reference.webhookSecret) {
    env.CRM_WEBHOOK_SECRET = reference.webhookSecret
    // The servers these tests start deliver no webhooks: a port of the system's choosing keeps runs of test files
    // that vitest runs side by side from contending for the sink's default 8787 (a run refuses a busy port).
    env.CRM_WEBHOOK_SINK_PORT = '0'
  }
  return env
}

export function startCli(args: string[], options: CliOptions): StartedCli {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd, env: options.env ?? baseEnv(), stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  let all = ''
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk
    all += chunk
  })
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk
    all += chunk
  })
  let hung = false
  const timer = setTimeout(() => {
    hung = true
    child.kill('SIGKILL')
  }, options.hardLimitMs)
  const done = new Promise<CliRun>((resolveDone) => {
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolveDone({ code, signal, stdout, stderr, hung })
    })
  })
  return { child, output: () => all, done }
}

export function runCli(args: string[], options: CliOptions): Promise<CliRun> {
  return startCli(args, options).done
}

/** `crm-conformance serve <args>` in a child process, as a user runs it: the variables of the .env block it prints once it listens. */
export async function startServe(args: string[], cwd: string): Promise<{ child: ChildProcess; env: Record<string, string> }> {
  const child = spawn(process.execPath, [BIN, 'serve', ...args], { cwd, env: baseEnv(), stdio: ['ignore', 'pipe', 'inherit'] })
  let printed = ''
  const env = await new Promise<Record<string, string>>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`serve exited (${code}): ${printed}`)))
    child.stdout!.on('data', (chunk: Buffer) => {
      printed += chunk
      if (printed.includes('Ctrl-C')) resolve(parseDotenv(printed.slice(printed.indexOf('CRM_BASE_URL='))))
    })
  })
  child.removeAllListeners('exit')
  return { child, env }
}

/** Stops a `serve` child that is still running (SIGTERM) and waits for it to exit. */
export async function stopServe(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  await exited
}
