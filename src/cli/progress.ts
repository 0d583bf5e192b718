// What a person watching a run sees. On a terminal: one live line (checks done/total, the areas running,
// failures so far, requests, the main key's requests in flight, the pacer's wait). Without one (CI): a line every PLAIN_INTERVAL_MS and each
// failure as it happens. Text from the server is printed inert (src/text/printable.ts); only our colours act. --quiet prints only the failures' names and the summary; NO_COLOR drops colour.
import type { CheckDefinition, CheckResult } from '../checks/types.ts'
import type { RunSession } from '../engine/session.ts'
import { printable, printableLine } from '../text/printable.ts'

/** How often a run without a terminal says where it is. */
export const PLAIN_INTERVAL_MS = 10_000
/** How often the live line is redrawn. */
const LIVE_INTERVAL_MS = 250

export interface ProgressOptions {
  total: number
  write: (text: string) => void
  /** A terminal: one line redrawn in place. */
  tty: boolean
  color: boolean
  quiet: boolean
  now?: () => number
}

const MARK: Record<CheckResult['status'], string> = { passed: '✓', failed: '✗', skipped: '○', error: '!' }

export class Progress {
  private done = 0
  /** Checks the run stopped before they started (an interrupt, the run's bound): told apart from those done. */
  private notRun = 0
  private failed = 0
  private errored = 0
  private readonly running = new Map<string, number>()
  private session?: RunSession
  private timer?: NodeJS.Timeout
  private liveShown = false
  private readonly now: () => number

  constructor(private readonly options: ProgressOptions) {
    this.now = options.now ?? Date.now
  }

  private paint(code: string, text: string): string {
    return this.options.color ? `\x1b[${code}m${text}\x1b[0m` : text
  }

  attach(session: RunSession): void {
    this.session = session
    if (this.options.quiet) return
    this.timer = setInterval(
      () => (this.options.tty ? this.drawLive() : this.options.write(`${this.statusLine()}\n`)),
      this.options.tty ? LIVE_INTERVAL_MS : PLAIN_INTERVAL_MS,
    )
    this.timer.unref()
  }

  started(check: CheckDefinition): void {
    this.running.set(check.area, (this.running.get(check.area) ?? 0) + 1)
  }

  result(result: CheckResult): void {
    if (result.status === 'skipped' && result.message.startsWith('not run: ')) {
      this.notRun++
      return
    }
    this.done++
    const left = (this.running.get(result.area) ?? 1) - 1
    if (left > 0) this.running.set(result.area, left)
    else this.running.delete(result.area)
    if (result.status === 'failed') this.failed++
    if (result.status === 'error') this.errored++
    if (result.status !== 'failed' && result.status !== 'error') return
    // Each failure and error as it happens, also with --quiet: the one thing a person must not miss.
    const colour = result.status === 'failed' ? '31' : '33'
    // The command that replays it alone (README: "a failure … names how to replay it"), also with --quiet.
    const replay = result.replay ? `\n    replay: ${printableLine(result.replay)}` : ''
    this.print(
      `${this.paint(colour, MARK[result.status])} ${result.level} ${printableLine(result.id)} (${printableLine(result.clause)})${this.options.quiet ? '' : `\n    ${printableLine(result.message.split('\n')[0] ?? '')}`}${replay}\n`,
    )
  }

  /** A message of the run's own (stopping, cleaning up) on a line of its own. */
  note(text: string): void {
    this.print(`${printable(text)}\n`)
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = undefined
    this.clearLive()
  }

  statusLine(): string {
    const requests = this.session?.transport.stats.total ?? 0
    // The main key's requests on the wire now: how far the adaptive cap has opened (src/http/adaptive-concurrency.ts).
    const inFlight = this.session?.transport.onWireFor('main') ?? 0
    const areas = printableLine([...this.running.keys()].slice(0, 4).join(', '))
    const waitUntil = this.session?.transport.pacerFor('main').waitingUntil
    const waiting = waitUntil !== undefined && waitUntil > this.now() ? `, rate limit: waiting ${Math.ceil((waitUntil - this.now()) / 1000)} s` : ''
    const failures = this.failed + this.errored > 0 ? this.paint('31', `, ${this.failed} failed${this.errored ? `, ${this.errored} errored` : ''}`) : ''
    const notRun = this.notRun > 0 ? `, ${this.notRun} not run` : ''
    return `${this.done}/${this.options.total} checks${notRun}${failures}, ${requests} requests${inFlight > 0 ? `, in flight ${inFlight}` : ''}${areas ? ` · ${areas}` : ''}${waiting}`
  }

  private print(text: string): void {
    this.clearLive()
    this.options.write(text)
  }

  private drawLive(): void {
    const columns = process.stdout.columns || 100
    const line = this.statusLine()
    this.options.write(`\r\x1b[2K${line.length > columns - 1 ? line.slice(0, columns - 2) : line}`)
    this.liveShown = true
  }

  private clearLive(): void {
    if (!this.liveShown) return
    this.options.write('\r\x1b[2K')
    this.liveShown = false
  }
}

/** The skipped checks grouped by reason, largest group first: "31 checks skipped: CRM_API_KEY_RESTRICTED is not set". */
export function skipsByReason(results: readonly CheckResult[]): string[] {
  const byReason = new Map<string, number>()
  for (const result of results) if (result.status === 'skipped') byReason.set(result.message, (byReason.get(result.message) ?? 0) + 1)
  return [...byReason].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([reason, n]) => `${n} check${n === 1 ? '' : 's'} skipped: ${reason}`)
}
