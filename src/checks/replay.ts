// The command that replays a run, or one check of it: the same target, seed, profile, variant and faults.
import type { CheckDefinition, CheckResult, Profile } from './types.ts'

export interface ReplayTarget {
  seed: number
  profile: Profile
  /** Absent for the embedded reference server. */
  baseUrl?: string
  variant?: string
  faults?: string[]
}

/**
 * How the user typed the command, so that a replay line replays as they invoked it: `npx crm-conformance run`,
 * `npm run conformance --` (whose script already says `run --embedded`), or the command on the PATH.
 */
export interface ReplayInvocation {
  /** What comes before the options: `crm-conformance run`, `npx crm-conformance run`, `npm run conformance --`. */
  prefix: string
  /** The prefix already selects the embedded server (an npm script with `--embedded`). */
  embeddedInPrefix?: boolean
}

const ON_PATH: ReplayInvocation = { prefix: 'crm-conformance run' }
let invocation: ReplayInvocation = ON_PATH

/** Read from the variables npm sets for `npx` (npm_command=exec) and `npm run <script>` (npm_lifecycle_*). */
export function invocationFromEnv(env: NodeJS.ProcessEnv): ReplayInvocation {
  if (env.npm_command === 'exec' || env.npm_lifecycle_event === 'npx') return { prefix: 'npx crm-conformance run' }
  const script = env.npm_lifecycle_script
  if ((env.npm_command === 'run' || env.npm_command === 'run-script') && env.npm_lifecycle_event && script && /crm-conformance[\w-]*\.mjs\b/.test(script)) {
    const says = (word: string) => new RegExp(`(^|\\s)${word}(\\s|$)`).test(script.slice(script.search(/crm-conformance[\w-]*\.mjs/)))
    const prefix = `npm run ${env.npm_lifecycle_event} --${says('run') ? '' : ' run'}`
    return { prefix, embeddedInPrefix: says('--embedded') }
  }
  return ON_PATH
}

/** Set once by the command line; every replay line of the run then starts this way. */
export function setReplayInvocation(value: ReplayInvocation | undefined): void {
  invocation = value ?? ON_PATH
}

/**
 * What a replay of a run needs, the one source of every replay line: from the run's session, its configuration
 * (`embedded` set when the run tests the embedded server) or its report. The embedded server is named by its
 * variant and faults, never by the address it happened to listen on.
 */
export function replayTarget(run: {
  seed: number
  profile: Profile
  baseUrl?: string
  embedded?: { variant?: string; faults?: readonly string[] }
}): ReplayTarget {
  return {
    seed: run.seed,
    profile: run.profile,
    baseUrl: run.embedded ? undefined : run.baseUrl,
    variant: run.embedded?.variant,
    faults: run.embedded?.faults ? [...run.embedded.faults] : undefined,
  }
}

const quote = (text: string) => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`)

/** `crm-conformance run --only <id> --seed …`; the profile always, as it changes what a check may write. */
export function replayCommand(target: ReplayTarget, selection: { only?: string[]; skip?: string[] } = {}): string {
  const parts = [invocation.prefix]
  // The embedded server is tested on purpose only (src/config/target-choice.ts): a replay says so.
  if (!target.baseUrl && !invocation.embeddedInPrefix) parts.push('--embedded')
  for (const only of selection.only ?? []) parts.push(`--only ${quote(only)}`)
  for (const skip of selection.skip ?? []) parts.push(`--skip ${quote(skip)}`)
  parts.push(`--seed ${target.seed}`, `--profile ${target.profile}`)
  if (target.baseUrl) parts.push(`--base-url ${quote(target.baseUrl)}`)
  if (target.variant) parts.push(`--variant ${quote(target.variant)}`)
  for (const fault of target.faults ?? []) parts.push(`--fault ${quote(fault)}`)
  return parts.join(' ')
}

/**
 * A check's report row from its declaration alone: a status and a message, no evidence, observations or notes.
 * The runner fills it in for a check that ran; a check never run, caught by a stop, or whose test died keeps it.
 */
export function declaredRow(check: CheckDefinition, status: 'skipped' | 'error', message: string, target: ReplayTarget): CheckResult {
  return {
    id: check.id,
    clause: check.clauses[0] ?? '',
    clauses: check.clauses,
    level: check.level,
    area: check.area,
    title: check.title,
    status,
    message,
    evidence: [],
    observations: {},
    notes: [],
    requests: 0,
    durationMs: 0,
    replay: replayCommand(target, { only: [check.id] }),
    declaredAt: check.declaredAt,
  }
}
