// `verify-submission --spot-check`: what a customer can check without trusting the vendor's run. A seeded random
// sample of the certifying checks that the safe (or read-only) profile allows runs against the vendor's sandbox
// with the customer's own key, and each outcome is compared with the submission's row. A check that passed in the
// submission and fails now (or the reverse) means the submission does not describe this server.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CheckDefinition, CheckResult, Profile } from '../checks/types.ts'
import { certifyingChecks, type CertifiedReport } from '../certify/profile.ts'
import { profileExclusion } from '../engine/scope.ts'
import { Prng } from '../reference/prng.ts'
import { runCommand } from './run-command.ts'

export const DEFAULT_SPOT_SAMPLE = 20

export interface SpotCheckOptions {
  baseUrl?: string
  sample?: number
  seed?: number
  profile?: Extract<Profile, 'safe' | 'read-only'>
  env?: NodeJS.ProcessEnv
}

export interface SpotDifference {
  id: string
  level: string
  was: string
  now: string
  message: string
}

export interface SpotCheckResult {
  seed: number
  profile: Profile
  /** Checks the profile allows whose submission row passed or failed: what the sample is drawn from. */
  candidates: number
  sampled: string[]
  /** Sampled checks that passed or failed both times. */
  compared: number
  /** Passed in the submission and failed now, or the reverse. */
  differences: SpotDifference[]
  /** Sampled checks that skipped or errored now: no outcome to compare, with the reason. */
  notCompared: { id: string; status: string; message: string }[]
  /** Why the spot check could not run (no target, a key refused): the run's own lines. */
  refusal?: string
}

/**
 * The checks a spot check may draw: certifying, allowed by the profile, needing no webhook sink (the customer
 * has none), and judged (passed or failed) in the submission.
 */
export function spotCandidates(catalogue: readonly CheckDefinition[], report: CertifiedReport, profile: Profile): string[] {
  const judged = new Map(report.checks.filter((r) => r.status === 'passed' || r.status === 'failed').map((r) => [r.id, r.status]))
  return certifyingChecks(catalogue)
    .filter((c) => !c.webhooks && profileExclusion(c, profile) === undefined && judged.has(c.id))
    .map((c) => c.id)
}

/** `size` of `ids`, drawn by `seed` (a partial Fisher–Yates shuffle), in catalogue order. */
export function sampleOf(ids: readonly string[], size: number, seed: number): string[] {
  const pool = [...ids]
  const prng = new Prng(seed)
  const n = Math.min(size, pool.length)
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(prng.next() * (pool.length - i))
    ;[pool[i], pool[j]] = [pool[j]!, pool[i]!]
  }
  const chosen = new Set(pool.slice(0, n))
  return ids.filter((id) => chosen.has(id))
}

/** Each sampled check's outcome now against its row in the submission. */
export function compareRows(sampled: readonly string[], submitted: readonly CheckResult[], now: readonly CheckResult[]) {
  const before = new Map(submitted.map((r) => [r.id, r]))
  const after = new Map(now.map((r) => [r.id, r]))
  const differences: SpotDifference[] = []
  const notCompared: SpotCheckResult['notCompared'] = []
  let compared = 0
  for (const id of sampled) {
    const was = before.get(id)
    const is = after.get(id)
    if (!is || (is.status !== 'passed' && is.status !== 'failed')) {
      notCompared.push({ id, status: is?.status ?? 'not run', message: is?.message ?? 'no result' })
      continue
    }
    compared++
    if (was && was.status !== is.status) differences.push({ id, level: is.level, was: was.status, now: is.status, message: is.message })
  }
  return { compared, differences, notCompared }
}

export async function spotCheck(report: CertifiedReport, catalogue: readonly CheckDefinition[], options: SpotCheckOptions): Promise<SpotCheckResult> {
  const profile = options.profile ?? 'safe'
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31)
  const candidates = spotCandidates(catalogue, report, profile)
  const sampled = sampleOf(candidates, options.sample ?? DEFAULT_SPOT_SAMPLE, seed)
  const result: SpotCheckResult = { seed, profile, candidates: candidates.length, sampled, compared: 0, differences: [], notCompared: [] }
  const env = options.env ?? process.env
  if (!options.baseUrl && !env.CRM_BASE_URL) {
    result.refusal = "--spot-check runs against the vendor's server: give --base-url <its sandbox, including /v1> and your own key in CRM_API_KEY"
    return result
  }
  if (sampled.length === 0) {
    result.refusal = `no certifying check of the ${profile} profile was judged in the submission: nothing to spot-check`
    return result
  }
  const reportDir = await mkdtemp(join(tmpdir(), 'crm-spot-check-'))
  let said = ''
  try {
    const run = await runCommand({
      baseUrl: options.baseUrl,
      profile,
      only: sampled,
      // The submission's data seed: the same generated bodies, where the sandbox allows them.
      seed: report.seed,
      reportDir,
      quiet: true,
      env,
      write: (text) => (said += text),
    })
    if (!run.report) {
      result.refusal = `the spot check could not run: ${said.trim().split('\n').slice(-3).join(' ')}`
      return result
    }
    Object.assign(result, compareRows(sampled, report.checks, run.report.checks))
    return result
  } finally {
    await rm(reportDir, { recursive: true, force: true })
  }
}

/** The lines verify-submission prints: how many were sampled and compared, each difference named. */
export function describeSpotCheck(result: SpotCheckResult): { lines: string[]; problems: string[] } {
  if (result.refusal) return { lines: [], problems: [`spot check: ${result.refusal}`] }
  const problems = result.differences.map((d) =>
    d.was === 'passed'
      ? `spot check: ${d.level} ${d.id} passed in the submission and fails now: ${d.message}`
      : `spot check: ${d.level} ${d.id} ${d.was} in the submission and ${d.now} now: the submission does not describe this server`,
  )
  const lines = [
    `spot check (seed ${result.seed}, ${result.profile} profile): sampled ${result.sampled.length} of ${result.candidates} checks, ${result.compared} compared, ${result.differences.length} differ from the submission`,
    ...result.notCompared.map((n) => `  not compared: ${n.id} ${n.status} now (${n.message})`),
  ]
  return { lines, problems }
}
