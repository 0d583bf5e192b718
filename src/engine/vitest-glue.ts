// Turns check declarations into vitest tests. One declaration is both a test and a report row: the test's
// name carries the id, level and clauses, and its meta carries the CheckResult to the CLI's reporter.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { inject, test } from 'vitest'
import type { CheckDefinition, CheckResult } from '../checks/types.ts'
import { loadConfig } from '../config/config.ts'
import { cleanUpWith } from './cleanup.ts'
import { JOURNAL_FILES, type SuiteRunOptions, type WorkerStats } from './run-options.ts'
import { checksInFlight, runCheck, scheduleChecks } from './runner.ts'
import { select } from './selection.ts'
import { RunSession } from './session.ts'
import { requestsByArea } from './stats.ts'

declare module 'vitest' {
  interface TaskMeta {
    crmconf?: CheckResult
  }
}

const SESSION = Symbol.for('crm-conformance.session')
const DEFERRED = Symbol.for('crm-conformance.deferred-last')
const SCHEDULE = Symbol.for('crm-conformance.schedule')
const INTERRUPT = Symbol.for('crm-conformance.interrupt')
type Schedule = Map<string, Promise<CheckResult>>
type Global = typeof globalThis & { [SESSION]?: Promise<RunSession>; [DEFERRED]?: CheckDefinition[]; [SCHEDULE]?: Promise<Schedule>; [INTERRUPT]?: AbortController }

/** Options from the CLI, or from the environment when vitest is run by hand. */
function runOptions(): SuiteRunOptions {
  const provided = inject('crmconf')
  if (provided) return provided
  return { config: loadConfig(), runId: `manual-${Date.now().toString(36)}`, only: [], skip: [], journalDir: join('reports', '.journal') }
}

/** One session per worker, shared by every suite file (the suites run with isolate: false). */
function sharedSession(options: SuiteRunOptions): Promise<RunSession> {
  const g = globalThis as Global
  g[SESSION] ??= RunSession.open({ config: options.config, runId: options.runId, journalDir: options.journalDir, embedded: options.embedded })
  return g[SESSION]
}

/**
 * Every selected check of the run, started as soon as the session is open. vitest runs the suite files one
 * after the other; the checks themselves do not wait for their file's turn, so the areas run side by side
 * (runner.ts scheduleChecks) and each test only awaits its check's result.
 */
function sharedSchedule(options: SuiteRunOptions): Promise<Schedule> {
  const g = globalThis as Global
  g[SCHEDULE] ??= (async () => {
    const session = await sharedSession(options)
    const { catalogue } = await import('../../suites/index.ts')
    g[INTERRUPT] = new AbortController()
    return scheduleChecks(select(catalogue, options.only, options.skip), session, checksInFlight(options.config.concurrency), g[INTERRUPT].signal)
  })()
  return g[SCHEDULE]
}

async function resultOf(check: CheckDefinition, options: SuiteRunOptions): Promise<CheckResult> {
  const scheduled = (await sharedSchedule(options)).get(check.id)
  return scheduled ?? runCheck(check, await sharedSession(options))
}

/** The harness's own last test: clean-up and statistics. It carries no check result. */
export const TEARDOWN_TEST = 'crm-conformance: clean up the run and record its statistics'

export function testName(check: CheckDefinition): string {
  return `${check.id} [${check.level} ${check.clauses.join(' ')}] ${check.title}`
}

/**
 * A check of phase `last` judges the whole run, so it waits for the last suite file (the one that closes the
 * session), whatever its area: other files hand theirs over, the last file registers them before its own.
 */
function withDeferred(checks: CheckDefinition[], closesSession = false): CheckDefinition[] {
  const g = globalThis as Global
  if (closesSession) {
    const all = [...(g[DEFERRED] ?? []), ...checks]
    g[DEFERRED] = undefined
    return all
  }
  g[DEFERRED] = [...(g[DEFERRED] ?? []), ...checks.filter((c) => c.phase === 'last')]
  return checks.filter((c) => c.phase !== 'last')
}

export function registerChecks(checks: CheckDefinition[], options: { closesSession?: boolean } = {}): void {
  const run = runOptions()
  for (const check of select(withDeferred(checks, options.closesSession), run.only, run.skip)) {
    // runCheck bounds each check by its own timeout; a test may also wait for its check to be started.
    test.concurrent(testName(check), { timeout: 0 }, async (t) => {
      // With no timeout, vitest aborts a test only when the run is cancelled (Ctrl-C): start no further check.
      t.signal.addEventListener('abort', () => (globalThis as Global)[INTERRUPT]?.abort(), { once: true })
      const result = await resultOf(check, run)
      t.task.meta.crmconf = result
      if (result.status === 'skipped') t.skip(result.message)
      if (result.status === 'failed') throw new Error(`${result.message}${result.expected ? `\nexpected: ${result.expected}` : ''}\nreplay: ${result.replay}`)
      if (result.status === 'error') throw new Error(`harness error (not a server verdict): ${result.message}`)
    })
  }
  if (options.closesSession) {
    // A test, not an afterAll hook: vitest runs no hook in a file whose checks --only filtered out, and
    // the clean-up must happen whatever was selected. It runs after the concurrent checks above.
    test(TEARDOWN_TEST, { timeout: 120_000 }, async () => {
      const g = globalThis as Global
      const session = await g[SESSION]
      if (!session) return
      // Every check has ended (their tests came before this one) unless a file was not loaded: wait for those too.
      await Promise.all((await g[SCHEDULE])?.values() ?? [])
      g[SCHEDULE] = undefined
      const leftovers = await cleanUpWith(session.ledger, session.transport)
      const stats: WorkerStats = {
        ...session.transport.stats,
        byArea: requestsByArea(session.exchanges),
        capabilities: session.capabilities,
        baseUrl: session.baseUrl,
        leftovers,
      }
      writeFileSync(join(run.journalDir, JOURNAL_FILES.stats), JSON.stringify(stats))
      await session.close()
      g[SESSION] = undefined
    })
  }
}
