// The sink's record of what it received: one printed line per delivery (control and bidi characters from a
// sender never reach the terminal), and the JSON-lines log, bounded so a disk slower than a flood never makes
// its buffer the unbounded store.
import { createWriteStream, mkdirSync, openSync } from 'node:fs'
import type { WriteStream } from 'node:fs'
import { dirname } from 'node:path'
import { CrmConfError } from '../errors.ts'
import { printableLine } from '../text/printable.ts'
import { SINK_DEFAULTS, type Delivery, type SinkCounts } from './sink-types.ts'

/** A sender's text on one printed line, at most `max` characters: control and bidi characters shown escaped (src/text/printable.ts). */
export function printable(text: string, max = 120): string {
  const clean = printableLine(text.length > max * 2 ? text.slice(0, max * 2) : text)
  return clean.length > max ? `${clean.slice(0, max)}…` : clean
}

export function describeDelivery(d: Delivery): string {
  const mark = d.verdict === 'accepted' ? '✓' : d.verdict === 'duplicate' ? '↻' : '✗'
  const parts = [mark, printable(d.type ?? '-', 60), printable(d.webhookId ?? '-', 60), d.verdict]
  if (d.noise === 'replayed_id') parts.push('(replay)')
  else if (d.verdict === 'duplicate') parts.push(`(attempt ${d.attempt})`)
  if (d.verdict === 'rejected') parts.push(`${d.reason} → ${d.status}: ${printable(d.detail ?? '', 300)}`)
  else if (d.status !== 200) parts.push(`→ ${d.status}${d.detail ? ` (${printable(d.detail, 200)})` : ''}`)
  return [parts.join(' '), ...(d.mistakes ?? []).map((m) => `    hint: ${m.message}`)].join('\n')
}

export interface SinkLog {
  /** Appends one JSON line; past the backlog bound the line is counted in `logLinesDropped` instead. */
  write(line: object): void
  /** Ends the file, once what is buffered is written. */
  close(): Promise<void>
  /** Drops the file without waiting (the sink failed to start). */
  destroy(): void
}

/** The JSON-lines log at `path`, or a log that writes nothing. A write error stops it, said once. */
export function sinkLog(path: string | undefined, counts: SinkCounts, print: ((line: string) => void) | undefined): SinkLog {
  let log: WriteStream | undefined = path === undefined ? undefined : openLog(path)
  log?.on('error', (error) => {
    print?.(`! the webhook log stopped: ${error.message}`)
    log = undefined
  })
  return {
    // A disk slower than a flood must not make the log's buffer the unbounded store: past the backlog, lines are
    // counted instead of written.
    write(line) {
      if (log === undefined) return
      if (log.writableLength > SINK_DEFAULTS.maxLogBacklogBytes) {
        if (counts.logLinesDropped++ === 0)
          print?.(`! the webhook log falls behind: lines are dropped while over ${SINK_DEFAULTS.maxLogBacklogBytes} bytes are waiting to be written`)
        return
      }
      log.write(`${JSON.stringify(line)}\n`)
    },
    async close() {
      const stream = log
      log = undefined
      if (stream) await new Promise<void>((resolve) => stream.end(resolve))
    },
    destroy() {
      log?.destroy()
    },
  }
}

function openLog(path: string): WriteStream {
  let fd: number
  try {
    mkdirSync(dirname(path), { recursive: true })
    fd = openSync(path, 'a')
  } catch (error) {
    throw new CrmConfError('CRMCONF_CONFIG_INVALID', `Cannot open the webhook log ${path}: ${(error as Error).message}`, { cause: error })
  }
  return createWriteStream(path, { fd })
}
