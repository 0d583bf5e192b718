// A command that listens on --host and --port (serve, proxy) and cannot: one line naming the address and --port,
// not the raw `listen EADDRINUSE` error.
import { printableLine } from '../text/printable.ts'

/** The line for a listen error the user can fix (a busy or forbidden port); undefined for any other error. */
export function listenProblem(command: string, error: unknown, host: string, port: number): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  if (code !== 'EADDRINUSE' && code !== 'EACCES') return undefined
  const why = code === 'EADDRINUSE' ? `the port is busy (is another ${command} running?)` : 'this user may not listen on that port'
  return `${command} cannot listen on ${printableLine(host)}:${port}: ${why}; choose another with --port (0: any free port)`
}
