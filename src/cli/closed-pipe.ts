// A reader that stops early (`crm-conformance list | head`) closes the pipe under the command's output. That is
// the reader's choice, not a failure of the command: its further output is dropped and the command goes on, so a
// run piped into `head` still writes its report and removes what it created (rule 8), and exits with its own code.
import type { Writable } from 'node:stream'

/** Makes EPIPE on `stream` end its output quietly instead of crashing the process; other errors stay errors. */
export function dropOutputWhenReaderLeaves(stream: Writable & { write: Writable['write'] }): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error
    stream.write = (() => true) as Writable['write']
  })
}
