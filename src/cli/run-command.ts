// `crm-conformance run`: resolve the configuration, drive the suites through vitest, clean up, and write
// the reports. Exit codes: 0 no MUST check failed, 1 one did, 2 the run could not start.
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { randomBytes } from 'node:crypto'
import { startVitest } from 'vitest/node'
import type { Reporter, Vitest } from 'vitest/node'
import type { CheckResult, Profile } from '../checks/types.ts'
import { describeMissingOptionals, KEY_VARIABLES, loadConfig, redactedConfig, type KeyRole, type ResolvedConfig } from '../config/config.ts'
import { cleanUpJournal } from '../engine/cleanup.ts'
import { ResultCollector } from '../engine/collector.ts'
import type { Leftover } from '../engine/ledger.ts'
import { JOURNAL_FILES, type SuiteRunOptions, type WorkerStats } from '../engine/run-options.ts'
import { select } from '../engine/selection.ts'
import { gateRun } from '../engine/run-gate.ts'
import { sweep } from '../engine/sweep.ts'
import { annotateResults, preflightTarget, type KeyWarning } from '../engine/preflight.ts'
import { Redactor } from '../http/redact.ts'
import { namedSecrets, transportFor } from '../http/for-config.ts'
import { replayCommand, unrunResult, type ReplayTarget } from '../engine/replay.ts'
import { Transport } from '../http/transport.ts'
import { buildRunReport, exitCodeFor } from '../report/build.ts'
import { nothingTestedReason } from '../report/scope.ts'
import type { RunReport } from '../report/types.ts'
import { copyToLatest, writeReportFiles } from '../report/write.ts'
import { specDigest } from '../spec/spec-text.ts'
import { certificationBlock, completeCertifyingRows } from '../certify/profile.ts'
import { applyWaivers, describeWaiverOutcome, loadWaivers, type Waiver, type WaiverOutcome } from '../certify/waivers.ts'
import { PROJECT_ROOT, TOOL_VERSION } from '../version.ts'

export interface RunCommandOptions {
  baseUrl?: string
  profile?: Profile
  only?: string[]
  skip?: string[]
  seed?: number
  reportDir?: string
  strict?: boolean
  /** Embedded reference server only: a legal variant, faults to inject, the main key's per-minute limit. */
  variant?: string
  faults?: string[]
  rateLimit?: number
  quiet?: boolean
  /** Before a run against CRM_BASE_URL, remove what crashed runs older than this left behind (default 6h; false: don't). */
  sweepOlderThanMs?: number | false
  env?: NodeJS.ProcessEnv
  write?: (text: string) => void
  /** `--waivers FILE`: known failures of everyday runs (src/certify/waivers.ts); a stale waiver fails the run. */
  waiversFile?: string
  /** `--embedded`: test the embedded reference server on purpose (src/config/target-choice.ts). */
  embedded?: boolean
  /** Set by `certify` only: a row for every certifying check, and the certification block in report.json (src/certify/profile.ts). */
  certification?: boolean
}

export interface RunOutcome {
  exitCode: number
  report?: RunReport
  reportDir?: string
  files?: string[]
}

/** The embedded server's main key gets a high limit so a local run is not paced; `--rate-limit 600` restores the spec's default. */
export const EMBEDDED_RATE_LIMIT = 100_000

/** Records of earlier runs younger than this may belong to a run still going on elsewhere: left alone. */
export const DEFAULT_SWEEP_AGE_MS = 6 * 3_600_000
/** Pages of 100 per collection an interrupted run searches for its own records. */
const INTERRUPTED_SWEEP_PAGES = 5

export function newRunId(now = new Date()): string {
  return `${now.toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-')}-${randomBytes(3).toString('hex')}`
}

export async function runCommand(options: RunCommandOptions): Promise<RunOutcome> {
  const write = options.write ?? ((text: string) => process.stdout.write(text))
  let config: ResolvedConfig
  try {
    config = loadConfig(options.env ?? process.env, { baseUrl: options.baseUrl, profile: options.profile, seed: options.seed })
  } catch (error) {
    write(`${(error as Error).message}\n`)
    return { exitCode: 2 }
  }
  // verdict: typo warnings, the embedded server only on purpose, a selection or profile that leaves nothing refused.
  const { catalogue: allChecks } = await import('../../suites/index.ts')
  const gate = gateRun(config, allChecks, { env: options.env ?? process.env, embedded: options.embedded, only: options.only, skip: options.skip })
  for (const line of [...gate.lines, ...(gate.refusal ? [gate.refusal] : [])]) write(`${line}\n`)
  if (gate.refusal) return { exitCode: 2 }
  config = gate.config
  const scope = gate.scope
  const embedded = config.baseUrl === undefined
  if (!embedded && (options.variant || options.faults?.length)) {
    write('--variant and --fault apply to the embedded reference server only (unset CRM_BASE_URL)\n')
    return { exitCode: 2 }
  }
  // Waivers and certification (src/certify/): validated before the run starts.
  let waivers: Waiver[] | undefined
  if (options.waiversFile) {
    if (options.certification) {
      write('certification admits no waiver\n')
      return { exitCode: 2 }
    }
    try {
      waivers = loadWaivers(options.waiversFile)
    } catch (error) {
      write(`${(error as Error).message}\n`)
      return { exitCode: 2 }
    }
  }
  const startedAt = new Date()
  const runId = newRunId(startedAt)
  const reportDir = resolve(options.reportDir ?? join('reports', runId))
  const journalDir = join(reportDir, '.journal')
  mkdirSync(journalDir, { recursive: true })

  write(`crm-conformance ${TOOL_VERSION}: ${embedded ? 'embedded reference server' : config.baseUrl}, profile ${config.profile}, seed ${config.seed}\n`)
  for (const line of embedded ? [] : describeMissingOptionals(config)) write(`  ${line}\n`)

  let keyWarnings: KeyWarning[] = []
  if (!embedded) {
    // verdict: the main key must be accepted; optional keys that answer contrary to their role are warned about.
    const checked = await preflightTarget(config)
    if (checked.refusal) {
      write(`${checked.refusal}\n`)
      return { exitCode: 2 }
    }
    for (const warning of checked.warnings) write(`  configuration warning: ${warning.message}\n`)
    keyWarnings = checked.warnings
    if (options.sweepOlderThanMs !== false && config.profile !== 'read-only') {
      const transport = transportFor(config)
      try {
        const swept = await sweep(transport, { olderThanMs: options.sweepOlderThanMs ?? DEFAULT_SWEEP_AGE_MS, exceptRunId: runId })
        if (swept.removed.length > 0) write(`  swept ${swept.removed.length} records left by earlier runs\n`)
      } finally {
        await transport.close()
      }
    }
  }

  const suiteOptions: SuiteRunOptions = {
    config,
    runId,
    only: options.only ?? [],
    skip: options.skip ?? [],
    journalDir,
    embedded: embedded ? { variant: options.variant, faults: options.faults, rateLimitPerMinute: options.rateLimit ?? EMBEDDED_RATE_LIMIT } : undefined,
  }
  const collector = new ResultCollector({ quiet: options.quiet, write })
  let interrupted: NodeJS.Signals | undefined
  const onSignal = (signal: NodeJS.Signals) => {
    interrupted = signal
    write('\ninterrupted: stopping the checks and cleaning up…\n')
    void vitest?.cancelCurrentRun('keyboard-input')
  }
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  // vitest's logger answers SIGINT and SIGTERM with process.exit() a millisecond later, which would end the
  // run before it removed what it created: its handlers are taken off as soon as vitest adds them, and ours
  // cancels the run instead. A second Ctrl-C still ends the process at once (no handler is left).
  const dropVitestSignalHandlers = (event: string | symbol, listener: (...args: unknown[]) => void) => {
    if ((event === 'SIGINT' || event === 'SIGTERM') && listener !== onSignal) queueMicrotask(() => process.off(event, listener))
  }
  process.on('newListener', dropVitestSignalHandlers)
  let vitest: Vitest | undefined
  // startVitest hands the instance back only once the run is over; a signal needs it during the run.
  const cancellation: Reporter = {
    onInit: (ctx) => {
      vitest = ctx
    },
    onTestRunStart: () => {
      if (interrupted) void vitest?.cancelCurrentRun('keyboard-input')
    },
  }
  try {
    vitest = await startVitest('test', await suiteFiles(options), {
      config: join(PROJECT_ROOT, 'vitest.suites.config.ts'),
      root: PROJECT_ROOT,
      watch: false,
      reporters: [cancellation, collector, ['junit', { outputFile: join(reportDir, 'junit.xml'), suiteName: 'crm-conformance' }]],
      provide: { crmconf: suiteOptions },
    } as never)
  } finally {
    process.off('newListener', dropVitestSignalHandlers)
    await vitest?.close()
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
  }

  const statsFile = join(journalDir, JOURNAL_FILES.stats)
  const stats: Partial<WorkerStats> = existsSync(statsFile) ? JSON.parse(readFileSync(statsFile, 'utf8')) : {}
  let leftovers: Leftover[] = stats.leftovers ?? []
  if (!embedded && (!existsSync(statsFile) || interrupted)) {
    // The worker did not finish its own clean-up: do it from the journal.
    leftovers = await cleanUpFromJournal(config, join(journalDir, JOURNAL_FILES.ledger), runId)
  }

  let results = annotateResults([...collector.results], allChecks, keyWarnings)
  // An interrupted run judged only some checks: the others are listed as not run, so that a run stopped
  // half-way never reads `compliant`.
  const target: ReplayTarget = { seed: config.seed, profile: config.profile, baseUrl: embedded ? undefined : config.baseUrl, variant: options.variant, faults: options.faults }
  if (interrupted) results = [...results, ...(await notRunRows(results, options, target, `not run: the run was interrupted (${interrupted})`))]
  // Certification: a certifying check that never reported gets an error row; waivers mark excused failures.
  const { catalogue } = options.certification || waivers ? await import('../../suites/index.ts') : { catalogue: [] }
  if (options.certification) results = completeCertifyingRows(results, catalogue, { target, harnessErrors: collector.unhandled })
  let waiverOutcome: WaiverOutcome | undefined
  if (waivers) ({ results, outcome: waiverOutcome } = applyWaivers(results, waivers, new Set(catalogue.map((c) => c.id)), startedAt, options.waiversFile))
  const finishedAt = new Date()
  let report: RunReport = buildRunReport({
    results,
    tool: { name: 'crm-conformance', version: TOOL_VERSION },
    spec: { digest: specDigest(), file: 'spec/crm-api-spec.md' },
    target: { baseUrl: stats.baseUrl ?? config.baseUrl ?? 'embedded', embedded, variant: options.variant, faults: options.faults },
    profile: config.profile,
    seed: config.seed,
    runId,
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    config: redactedConfig(config),
    requests: { total: stats.total ?? 0, byArea: stats.byArea ?? {}, byKey: stats.byKey ?? {}, rateLimited: stats.rateLimited ?? {} },
    leftovers,
    capabilities: stats.capabilities,
    replay: replayCommand(target, { only: options.only, skip: options.skip }),
    scope,
  })
  if (options.certification) report = { ...report, certification: certificationBlock(results, catalogue, { suiteVersion: TOOL_VERSION, specDigest: report.spec.digest }) } as RunReport
  if (waiverOutcome) report = { ...report, waivers: waiverOutcome } as RunReport
  const secrets = namedSecrets(config)
  const redactor = new Redactor(secrets)
  // Refuses to write any file that would hold a secret (a last line of defence behind redaction).
  const files = await writeReportFiles(report, reportDir, { secrets: Object.fromEntries(secrets.map((s) => [s.name, s.value])) })
  if (!options.reportDir) await copyToLatest(reportDir, resolve('reports', 'latest'))

  for (const problem of collector.unhandled) write(`harness error: ${redactor.string(problem)}\n`)
  const s = report.summary
  write(`\n${report.verdict.toUpperCase()}${report.verdictLabel.slice(report.verdict.length)}: ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped, ${s.errored} errored (${report.requests.total} requests)\n`)
  const byArea = Object.entries(report.requests.byArea).sort((a, b) => b[1] - a[1])
  if (byArea.length > 0) write(`  requests by area: ${byArea.map(([area, n]) => `${area} ${n}`).join(', ')}\n`)
  // On the embedded server they went with it; against a real one each is named, to be removed by hand.
  if (embedded && leftovers.length > 0) write(`  ${leftovers.length} records the API cannot delete stayed in the embedded server and went with it (listed in the report)\n`)
  else for (const leftover of leftovers) write(`  left behind: ${leftover.resource} ${leftover.id} (${leftover.reason})\n`)
  for (const line of waiverOutcome ? describeWaiverOutcome(waiverOutcome) : []) write(`${line}\n`)
  write(`reports: ${reportDir}\n`)
  const nothingTested = nothingTestedReason(report.checks)
  if (nothingTested) write(`${nothingTested}\n`)
  let exitCode = interrupted ? 1 : collector.unhandled.length > 0 && collector.results.length === 0 ? 2 : exitCodeFor(report, { strict: options.strict ?? false })
  // A stale waiver fails the run, so waivers never outlive the failure they excuse.
  if (exitCode === 0 && waiverOutcome && waiverOutcome.stale.length > 0) exitCode = 1
  return { exitCode, report, reportDir, files }
}

/**
 * The suite files a selection needs: those of the areas with a selected check, and the last (invariants), which
 * closes the session. Loaded, a file none of whose checks is selected is reported by vitest as a failed test
 * ("No test suite found") in junit.xml. No selection: every file.
 */
async function suiteFiles(options: RunCommandOptions): Promise<string[]> {
  if (!options.only?.length && !options.skip?.length) return []
  const { catalogue } = await import('../../suites/index.ts')
  const areas = new Set(select(catalogue, options.only, options.skip).map((c) => c.area))
  areas.add('invariants')
  return [...areas].map((area) => `suites/${area}/`)
}

async function notRunRows(results: CheckResult[], options: RunCommandOptions, target: ReplayTarget, reason: string): Promise<CheckResult[]> {
  const { catalogue } = await import('../../suites/index.ts')
  const seen = new Set(results.map((r) => r.id))
  return select(catalogue, options.only, options.skip)
    .filter((c) => !seen.has(c.id))
    .map((c) => unrunResult(c, 'skipped', reason, target))
}


/**
 * The clean-up of a run whose worker did not finish its own: what the journal names, then whatever else carries
 * this run's tag or label. A check cut off between its create and the journal line (the worker is stopped
 * mid-request on an interrupt) leaves a record only the second pass finds: the newest pages of each collection
 * (the default order is newest first, §4.1).
 */
async function cleanUpFromJournal(config: ResolvedConfig, journalFile: string, runId: string): Promise<Leftover[]> {
  const transport = transportFor(config)
  try {
    const leftovers = await cleanUpJournal(journalFile, transport)
    const swept = await sweep(transport, { olderThanMs: 0, onlyRunId: runId, maxPages: INTERRUPTED_SWEEP_PAGES })
    const gone = new Set(swept.removed.map((r) => r.id))
    const unswept = swept.failed.filter((f) => f.id !== '*').map((f) => ({ resource: f.resource, id: f.id, reason: f.reason }))
    return [...leftovers.filter((l) => !gone.has(l.id)), ...unswept.filter((u) => !leftovers.some((l) => l.id === u.id))]
  } finally {
    await transport.close()
  }
}


